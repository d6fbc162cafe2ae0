package io.github.startuptelemetry.server;

import org.springframework.boot.context.event.ApplicationStartingEvent;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.event.GenericApplicationListener;
import org.springframework.core.Ordered;
import org.springframework.core.ResolvableType;

import io.github.startuptelemetry.autoconfigure.internal.TelemetrySwitch;

/**
 * The starter's entry point into every Spring Boot application, registered through
 * {@code spring.factories} so that it sees {@link ApplicationStartingEvent} before any context
 * exists. It is only a gate: with {@code TELEMETRY_ENABLED=false} in the environment it stops
 * there, and none of the timeline's classes is even loaded; otherwise it hands every event to
 * a {@link ServerStartupRecorder}.
 * <p>
 * Why it reads the switch itself: at {@code ApplicationStartingEvent} there is no Spring
 * environment yet, let alone a condition, so only the process environment (env or system
 * property) can say "off" this early. The recorder checks the switch again once the whole
 * configuration is known. Package-private: {@code spring.factories} instantiates it
 * reflectively, and no application has a reason to name it.
 */
class ServerStartupListener implements GenericApplicationListener {

	private ServerStartupRecorder recorder;

	@Override
	public boolean supportsEventType(ResolvableType eventType) {
		return true;
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

	@Override
	public void onApplicationEvent(ApplicationEvent event) {
		if (event instanceof ApplicationStartingEvent) {
			this.recorder = TelemetrySwitch.enabledInEnv() ? new ServerStartupRecorder() : null;
		}
		if (this.recorder != null) {
			this.recorder.onApplicationEvent(event);
		}
	}

}
