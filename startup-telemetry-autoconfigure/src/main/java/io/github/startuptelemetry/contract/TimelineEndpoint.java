package io.github.startuptelemetry.contract;

/**
 * The actuator endpoint a server serves its timeline at ({@code /actuator/startuptimeline}, the
 * document {@link JsonFields} names the fields of), which its supervisor's probing reads beside
 * the health URL it was given.
 */
public final class TimelineEndpoint {

	/**
	 * The endpoint's id: its path under the actuator's base path, and its name in
	 * {@code management.endpoints.web.exposure.include}.
	 */
	public static final String ID = "startuptimeline";

	private TimelineEndpoint() {
	}

}
