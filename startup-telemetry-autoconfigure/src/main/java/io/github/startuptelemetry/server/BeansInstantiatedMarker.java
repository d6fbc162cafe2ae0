package io.github.startuptelemetry.server;

import org.springframework.context.SmartLifecycle;

import io.github.startuptelemetry.timeline.StageNames;
import io.github.startuptelemetry.timeline.StageTimeline;

/**
 * Marks {@code beans_instantiated} from the first lifecycle phase: every singleton (and every
 * {@code afterSingletonsInstantiated}) is done by then, and the web server has not started.
 */
class BeansInstantiatedMarker implements SmartLifecycle {

	private final StageTimeline timeline;

	private volatile boolean running;

	BeansInstantiatedMarker(StageTimeline timeline) {
		this.timeline = timeline;
	}

	@Override
	public void start() {
		if (!this.running) {
			this.running = true;
			try {
				this.timeline.mark(StageNames.BEANS_INSTANTIATED);
			}
			catch (RuntimeException ex) {
				// a timeline must never fail a start
			}
		}
	}

	@Override
	public void stop() {
		this.running = false;
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return Integer.MIN_VALUE;
	}

}
