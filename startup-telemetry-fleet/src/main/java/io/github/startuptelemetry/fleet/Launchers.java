package io.github.startuptelemetry.fleet;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

import io.github.startuptelemetry.autoconfigure.TelemetryProperties;
import io.github.startuptelemetry.launch.ServerLauncher;

/**
 * The {@link ServerLauncher}s a fleet may use, by name, checked when the supervisor starts: a
 * launcher name no bean has, or a launcher that cannot run here (Slurm outside an allocation),
 * fails it at once with the property that chose it named.
 */
final class Launchers {

	private static final String FLEET_PROPERTY = TelemetryProperties.SUPERVISOR + ".launcher";

	/** Launchers that come with a module of ours the application may lack, and the module to add. */
	private static final Map<String, String> MODULES = Map.of("kubernetes", "startup-telemetry-kubernetes");

	private final Map<String, ServerLauncher> byName = new LinkedHashMap<>();

	/**
	 * @param launchers every launcher bean, in bean order (the first of a name is used)
	 * @param properties the fleet, each of whose servers needs one of them
	 */
	Launchers(List<ServerLauncher> launchers, SupervisorProperties properties) {
		launchers.forEach((launcher) -> this.byName.putIfAbsent(launcher.name(), launcher));
		check(FLEET_PROPERTY, properties.getLauncher());
		for (int i = 0; i < properties.getServers().size(); i++) {
			String chosen = properties.getServers().get(i).getLauncher();
			if (chosen != null) {
				check(TelemetryProperties.SUPERVISOR_SERVERS + "[" + i + "].launcher", chosen);
			}
		}
	}

	private void check(String property, String name) {
		ServerLauncher launcher = this.byName.get(name);
		if (launcher == null && MODULES.containsKey(name)) {
			throw new InvalidConfigurationPropertyValueException(property, name, "the '" + name
					+ "' launcher comes with a module of its own: add the dependency io.github.startuptelemetry:"
					+ MODULES.get(name) + " (docs/" + name + ".md)");
		}
		if (launcher == null) {
			throw new InvalidConfigurationPropertyValueException(property, name,
					"no launcher is named '" + name + "'; known: " + String.join(", ", this.byName.keySet())
							+ " (a launcher of your own is a ServerLauncher bean)");
		}
		String problem = launcher.unavailable();
		if (problem != null) {
			throw new InvalidConfigurationPropertyValueException(property, name, problem);
		}
	}

	/** The launcher named {@code name}, checked at construction. */
	ServerLauncher get(String name) {
		return this.byName.get(name);
	}

}
