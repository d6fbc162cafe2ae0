package io.github.startuptelemetry.testcontexts;

import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ApplicationContextEvent;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.event.ContextRefreshedEvent;
import org.springframework.core.Ordered;

import io.github.startuptelemetry.timeline.internal.WallClock;

/**
 * What happens to one test context after its creation, as its own listener hears it: refreshed,
 * started and ready (its stages when the server's recorder did not time it), paused for another
 * ({@code spring.test.context.cache.pause}), closed and by what. Last among its listeners, so that
 * ready is when the application's own ready listeners are done.
 */
final class ContextEvents implements ApplicationListener<ApplicationEvent>, Ordered {

	private static final Log logger = LogFactory.getLog(ContextEvents.class);

	/** Spring Framework 7's; named, not referenced, so that 6.x runs this too. */
	private static final String PAUSED = "org.springframework.context.event.ContextPausedEvent";

	private final ContextRecord record;

	/** The test class that is running, for a context it dirties. */
	private final Supplier<@Nullable String> currentTestClass;

	/** Tells the run its report has news. */
	private final Runnable changed;

	ContextEvents(ContextRecord record, Supplier<@Nullable String> currentTestClass, Runnable changed) {
		this.record = record;
		this.currentTestClass = currentTestClass;
		this.changed = changed;
	}

	@Override
	public void onApplicationEvent(ApplicationEvent event) {
		if (!(event instanceof ApplicationContextEvent) && !(event instanceof ApplicationStartedEvent)
				&& !(event instanceof ApplicationReadyEvent)) {
			// the test framework's own events (BeforeTestClassEvent, ...) reach every listener too
			return;
		}
		try {
			handle(event);
		}
		catch (RuntimeException | LinkageError ex) {
			logger.debug("Could not follow a test context", ex);
		}
	}

	private void handle(ApplicationEvent event) {
		long now = WallClock.nowNs();
		if (event instanceof ApplicationReadyEvent ready && ours(ready.getApplicationContext())) {
			this.record.ready(now);
		}
		else if (event instanceof ApplicationStartedEvent started && ours(started.getApplicationContext())) {
			this.record.started(now);
		}
		else if (event instanceof ContextRefreshedEvent refreshed && ours(refreshed.getApplicationContext())) {
			this.record.refreshed(now);
		}
		else if (event instanceof ContextClosedEvent closed && ours(closed.getApplicationContext())) {
			String cause = CloseCause.now(this.currentTestClass.get());
			this.record.closed(cause);
			if (cause != null) {
				// the JVM's end closes every context: not news for the report
				this.changed.run();
			}
		}
		else if (event.getClass().getName().equals(PAUSED)
				&& ours(((ApplicationContextEvent) event).getApplicationContext())) {
			this.record.paused();
		}
	}

	private boolean ours(ApplicationContext context) {
		return this.record.is(context);
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
