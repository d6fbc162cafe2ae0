package io.github.startuptelemetry.autoconfigure.internal;

import java.util.Set;

import org.springframework.boot.autoconfigure.AutoConfigurationImportFilter;
import org.springframework.boot.autoconfigure.AutoConfigurationMetadata;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.ConfigurationPropertyState;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

import io.github.startuptelemetry.autoconfigure.TelemetryProperties;

/**
 * Drops, by name and before Boot reads their class files, the starter's auto-configurations that
 * cannot apply: all of them with {@code telemetry.enabled=false}, the fleet's and the launchers'
 * without a declared fleet, the server's pod stages outside Kubernetes. Their conditions stay, for
 * a user who imports one directly; anything not listed here is kept.
 */
public final class TelemetryAutoConfigurationFilter implements AutoConfigurationImportFilter, EnvironmentAware, Ordered {

	private static final String OURS = "io.github.startuptelemetry.";

	/** Conditional on {@code telemetry.enabled} at class level (checked by the filter's test). */
	static final Set<String> TELEMETRY_ONLY = Set.of(OURS + "server.StartupTelemetryAutoConfiguration",
			OURS + "lifecycle.TelemetryLifecycleAutoConfiguration", OURS + "lifecycle.ZipkinExportAutoConfiguration",
			OURS + "readiness.ReadinessWarmUpAutoConfiguration",
			OURS + "lifecycle.OtlpMetricsTypingAutoConfiguration", OURS + "supervisor.SupervisorTracingAutoConfiguration");

	/**
	 * Conditional on a declared fleet at class level ({@code @ConditionalOnFleet}): the fleet
	 * launcher's. Not {@code SupervisorAutoConfiguration}: it provides {@code SupervisorStartup}
	 * to a launcher of the user's, fleet or not.
	 */
	static final Set<String> FLEET_ONLY = Set.of(OURS + "fleet.FleetLauncherAutoConfiguration");

	/**
	 * Every auto-configuration under this prefix is a launcher's, conditional on a declared fleet
	 * too (checked by the filter's test): a new launcher is a new package here, and its
	 * auto-configuration is dropped without a fleet with no change to this class.
	 */
	static final String LAUNCHERS = OURS + "launch.";

	/**
	 * Conditional on telemetry and on Kubernetes at class level ({@code @ConditionalOnTelemetryEnabled},
	 * {@code @ConditionalOnCloudPlatform(KUBERNETES)}; checked by the filter's test): dropped
	 * with telemetry off, and wherever Boot could not detect Kubernetes.
	 */
	static final Set<String> KUBERNETES_ONLY = Set.of(OURS + "server.kubernetes.PodStagesAutoConfiguration");

	/** Set in every pod: Boot's Kubernetes detection needs it (or {@link #CLOUD_PLATFORM}). */
	private static final String KUBERNETES_SERVICE_HOST = "KUBERNETES_SERVICE_HOST";

	/** Boot's property that sets the cloud platform instead of detecting it. */
	private static final String CLOUD_PLATFORM = "spring.main.cloud-platform";

	private static final ConfigurationPropertyName SERVERS = ConfigurationPropertyName.of(TelemetryProperties.SUPERVISOR_SERVERS);

	private static final ConfigurationPropertyName FLEET = ConfigurationPropertyName.of(TelemetryProperties.SUPERVISOR_FLEET);

	private Environment environment;

	/**
	 * Before Boot's own filters: what this drops, Boot's class condition never checks (with
	 * telemetry off it would load the OpenTelemetry API's {@code OpenTelemetry} to find out that a
	 * configuration this filter drops anyway could apply).
	 */
	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

	@Override
	public void setEnvironment(Environment environment) {
		this.environment = environment;
	}

	@Override
	public boolean[] match(String[] candidates, AutoConfigurationMetadata metadata) {
		boolean[] match = new boolean[candidates.length];
		Boolean enabled = null;
		Boolean fleet = null;
		for (int i = 0; i < candidates.length; i++) {
			String candidate = candidates[i];
			match[i] = true;
			if (candidate == null || !candidate.startsWith(OURS) || this.environment == null) {
				continue;
			}
			if (TELEMETRY_ONLY.contains(candidate)) {
				enabled = (enabled != null) ? enabled : TelemetrySwitch.enabled(this.environment);
				match[i] = enabled;
			}
			else if (FLEET_ONLY.contains(candidate) || candidate.startsWith(LAUNCHERS)) {
				fleet = (fleet != null) ? fleet : fleetDeclared(this.environment);
				match[i] = fleet;
			}
			else if (KUBERNETES_ONLY.contains(candidate)) {
				enabled = (enabled != null) ? enabled : TelemetrySwitch.enabled(this.environment);
				match[i] = enabled && maybeKubernetes(this.environment);
			}
		}
		return match;
	}

	/**
	 * Whether Boot might detect Kubernetes here: {@code KUBERNETES_SERVICE_HOST} in the
	 * environment, or the platform set by {@code spring.main.cloud-platform}. A superset of Boot's
	 * own test, which the condition then applies, without loading Boot's {@code CloudPlatform}.
	 */
	static boolean maybeKubernetes(Environment environment) {
		return environment.getProperty(KUBERNETES_SERVICE_HOST) != null || environment.getProperty(CLOUD_PLATFORM) != null;
	}

	/**
	 * Whether any {@code telemetry.supervisor.servers} or {@code telemetry.supervisor.fleet}
	 * property is set, even an incomplete one: a fleet with a server that lacks its command must
	 * fail validation, not be skipped. The condition {@code @ConditionalOnFleet} applies too.
	 */
	public static boolean fleetDeclared(Environment environment) {
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			if (source.containsDescendantOf(SERVERS) == ConfigurationPropertyState.PRESENT
					|| source.containsDescendantOf(FLEET) == ConfigurationPropertyState.PRESENT) {
				return true;
			}
		}
		return false;
	}

}
