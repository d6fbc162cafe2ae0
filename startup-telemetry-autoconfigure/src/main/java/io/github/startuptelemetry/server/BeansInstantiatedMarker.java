package io.github.startuptelemetry.server;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.util.ClassUtils;

import io.github.startuptelemetry.contract.StageNames;

/**
 * Marks {@code beans_instantiated} from the first lifecycle phase: every singleton (and every
 * {@code afterSingletonsInstantiated}) is done by then, and the web server has not started.
 * That also ends the window in which slow beans are recorded.
 */
class BeansInstantiatedMarker implements SmartLifecycle {

	private final ServerStartupTimeline timeline;

	private final @Nullable BeanSpanRecorder beanSpans;

	private final ConfigurableListableBeanFactory beanFactory;

	private volatile boolean running;

	/**
	 * @param timeline the startup timeline
	 * @param beanSpans the slow-bean recorder to close, or {@code null} when bean spans are off
	 * @param beanFactory where bean types are looked up
	 */
	BeansInstantiatedMarker(ServerStartupTimeline timeline, @Nullable BeanSpanRecorder beanSpans,
			ConfigurableListableBeanFactory beanFactory) {
		this.timeline = timeline;
		this.beanSpans = beanSpans;
		this.beanFactory = beanFactory;
	}

	@Override
	public void start() {
		if (!this.running) {
			this.running = true;
			try {
				this.timeline.mark(StageNames.BEANS_INSTANTIATED);
				if (this.beanSpans != null) {
					this.timeline.steps(this.beanSpans.close(this::beanType));
				}
			}
			catch (RuntimeException ex) {
				// a timeline must never fail a start
			}
		}
	}

	/** The bean's class; for a lambda, the interface it implements (its class name is random). */
	private @Nullable String beanType(String beanName) {
		Class<?> type = this.beanFactory.getType(beanName, false);
		if (type == null) {
			return null;
		}
		if (type.isSynthetic() && type.getInterfaces().length == 1) {
			return type.getInterfaces()[0].getName();
		}
		return ClassUtils.getUserClass(type).getName();
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
