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
 * exists: a gate that, with {@code TELEMETRY_ENABLED=false} in the environment, stops there, and
 * otherwise hands every event to a {@link ServerStartupRecorder}.
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
			// no Spring environment yet, let alone a condition: only the process's env or a system property
			// can say off this early (the recorder checks again once the configuration is known)
			this.recorder = TelemetrySwitch.enabledInEnv() ? new ServerStartupRecorder() : null;
		}
		if (this.recorder != null) {
			this.recorder.onApplicationEvent(event);
		}
	}

}
