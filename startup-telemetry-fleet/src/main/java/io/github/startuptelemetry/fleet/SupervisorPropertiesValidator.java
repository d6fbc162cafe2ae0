package io.github.startuptelemetry.fleet;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.ConfigurationPropertyState;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

import io.github.startuptelemetry.autoconfigure.TelemetryProperties;
import io.github.startuptelemetry.report.gate.RegressionThreshold;
import io.github.startuptelemetry.report.gate.Compare;
import io.github.startuptelemetry.fleet.DependencyRules.Declared;

/**
 * The rules of a bound {@link SupervisorProperties}, each broken one rejected on the property the
 * user set, even when Boot dropped a list the user thought they were changing one field of.
 */
final class SupervisorPropertiesValidator implements Validator {

	private static final String PREFIX = TelemetryProperties.SUPERVISOR;

	/**
	 * What a server's name and type may hold: they name its log file and are pasted into its
	 * setup command, so nothing a shell or a file system would read as syntax.
	 */
	private static final Pattern SAFE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

	private static final String SAFE_NAME_RULE = "must be letters, digits, '.', '_' and '-', starting with a letter "
			+ "or digit: it names the server's log file and may be pasted into its setup command";

	private final @Nullable Environment environment;

	/**
	 * @param environment where the properties were bound from (to name what the user set), or
	 * {@code null}
	 */
	SupervisorPropertiesValidator(@Nullable Environment environment) {
		this.environment = environment;
	}

	@Override
	public boolean supports(Class<?> type) {
		return SupervisorProperties.class.isAssignableFrom(type);
	}

	@Override
	public void validate(Object target, Errors errors) {
		SupervisorProperties properties = (SupervisorProperties) target;
		Map<String, String> taken = new HashMap<>();
		List<String> declared = new ArrayList<>();
		Map<String, Declared> fleet = new LinkedHashMap<>();
		for (int i = 0; i < properties.getServers().size(); i++) {
			SupervisorProperties.Server server = properties.getServers().get(i);
			String path = "servers[" + i + "].";
			if (server.getName() == null || server.getName().isBlank()) {
				rejectUnnamed(errors, path);
				continue;
			}
			declared.add(server.getName());
			validate(server, path, "must not be empty: the program and its arguments, one list element each", taken,
					errors);
			fleet.putIfAbsent(server.getName(), new Declared(server, path));
		}
		for (Map.Entry<String, SupervisorProperties.Server> entry : properties.getFleet().entrySet()) {
			String name = entry.getKey();
			String path = "fleet[" + name + "].";
			if (declared.contains(name)) {
				errors.rejectValue("fleet[" + name + "]", "list",
						"'" + name + "' is declared in " + PREFIX + ".servers[" + declared.indexOf(name) + "], a list, "
								+ "which is bound whole from one property source and cannot be changed one field at a "
								+ "time: declare the fleet under " + PREFIX + ".fleet.<name> instead, then "
								+ PREFIX + ".fleet." + name + ".<field> overrides one field");
				continue;
			}
			SupervisorProperties.Server server = entry.getValue();
			server.setName(name);
			validate(server, path, "must not be empty: " + PREFIX + ".fleet." + name + " is not a declared server, "
					+ "so it is a new one and needs " + PREFIX + ".fleet." + name + ".command (the program and its "
					+ "arguments, one list element each)", taken, errors);
			fleet.putIfAbsent(name, new Declared(server, path));
		}
		new DependencyRules(fleet, errors).validate();
		validateComparison(properties.getReport(), errors);
		if (properties.getProbe().getMaxPerSecond() < 1) {
			errors.rejectValue("probe.max-per-second", "range",
					"must be at least 1, e.g. 400 (probes a second for the whole fleet)");
		}
		validateJvmCache(properties.getJvmCache(), errors);
	}

	/**
	 * A {@code servers[i]} without a name: most often the user set one field of a server
	 * declared elsewhere, and Boot dropped the declared list for the one element given. Blame
	 * what they set, and say how to do it.
	 */
	private void rejectUnnamed(Errors errors, String path) {
		List<String> set = setUnder(PREFIX + "." + path.substring(0, path.length() - 1));
		if (set.isEmpty() || set.stream().anyMatch((field) -> field.equals("name"))) {
			errors.rejectValue(path + "name", "required", "must not be empty");
			return;
		}
		String field = set.get(0);
		errors.rejectValue(path + field.replaceAll("\\[.*$", ""), "unnamed", "sets a field of a server without a name: "
				+ PREFIX + ".servers is a list, bound whole from one property source, so setting "
				+ PREFIX + "." + path + field + " replaced the servers declared elsewhere. To change one field of a "
				+ "declared server, declare the fleet under " + PREFIX + ".fleet.<name> and set " + PREFIX
				+ ".fleet.<name>." + field + "; to add a server here, give " + PREFIX + "." + path
				+ "name and " + PREFIX + "." + path + "command too");
	}

	/**
	 * The fields (relative, canonical names) set under {@code element} in the property source
	 * Boot took {@code servers} from: the first that has any of it.
	 */
	private List<String> setUnder(String element) {
		if (this.environment == null) {
			return List.of();
		}
		ConfigurationPropertyName list = ConfigurationPropertyName.of(TelemetryProperties.SUPERVISOR_SERVERS);
		ConfigurationPropertyName root = ConfigurationPropertyName.of(element);
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(this.environment)) {
			if (source.containsDescendantOf(list) == ConfigurationPropertyState.PRESENT) {
				return (source instanceof IterableConfigurationPropertySource iterable) ? iterable.stream()
					.filter(root::isAncestorOf)
					.map((name) -> name.toString().substring(root.toString().length() + 1))
					.distinct()
					.toList() : List.of();
			}
		}
		return List.of();
	}

	private static void validate(SupervisorProperties.Server server, String path, String commandRule, Map<String, String> taken,
			Errors errors) {
		// a fleet entry's name is its key
		String namePath = path.startsWith("fleet") ? path.substring(0, path.length() - 1) : path + "name";
		if (!SAFE_NAME.matcher(server.getName()).matches()) {
			errors.rejectValue(namePath, "pattern", SAFE_NAME_RULE);
			return;
		}
		if (server.getType() != null && !server.getType().isBlank() && !SAFE_NAME.matcher(server.getType()).matches()) {
			errors.rejectValue(path + "type", "pattern", SAFE_NAME_RULE);
		}
		if (server.getCommand().isEmpty() || server.getCommand().stream().anyMatch((arg) -> arg == null)) {
			errors.rejectValue(path + "command", "required", commandRule);
		}
		if (server.getReplicas() < 1) {
			errors.rejectValue(path + "replicas", "range", "must be at least 1");
			return;
		}
		String where = PREFIX + "." + path.substring(0, path.length() - 1);
		for (String name : FleetPlan.replicaNames(server)) {
			String other = taken.putIfAbsent(name, where);
			if (other != null) {
				errors.rejectValue(namePath, "duplicate", "server name '" + name + "' is already taken by " + other);
			}
		}
		if (server.getPort() != null && (server.getPort() < 0 || server.getPort() > 65535
				|| (server.getPort() != 0 && server.getReplicas() > 1))) {
			errors.rejectValue(path + "port", "range",
					"must be 0 (the server binds any free port and says which in its ready callback) or, "
							+ "for a single server, a port from 1 to 65535");
		}
		String healthProblem = FleetPlan.urlProblem(server.getHealthUrl());
		if (healthProblem != null) {
			errors.rejectValue(path + "health-url", "url", healthProblem);
		}
		String timelineProblem = FleetPlan.urlProblem(server.getTimelineUrl());
		if (timelineProblem != null) {
			errors.rejectValue(path + "timeline-url", "url", timelineProblem);
		}
	}

	/** JVM cache settings that cannot work fail the supervisor at start, naming the property. */
	private static void validateJvmCache(SupervisorProperties.JvmCache jvmCache, Errors errors) {
		if (jvmCache.getRounds() < 1) {
			errors.rejectValue("jvm-cache.rounds", "range", "must be at least 1 (5 or more for a median worth reading)");
		}
		if (jvmCache.getMaxSize() == null || jvmCache.getMaxSize().toBytes() <= 0) {
			errors.rejectValue("jvm-cache.max-size", "range", "must be more than 0 bytes, e.g. 2GB");
		}
		if (jvmCache.getTrainingTimeout() == null || jvmCache.getTrainingTimeout().isNegative()
				|| jvmCache.getTrainingTimeout().isZero()) {
			errors.rejectValue("jvm-cache.training-timeout", "range", "must be more than 0, e.g. 5m");
		}
		Path directory = jvmCache.getDirectory();
		if (directory != null && Files.exists(directory) && !Files.isDirectory(directory)) {
			errors.rejectValue("jvm-cache.directory", "directory", "is a file, not a directory: " + directory);
		}
	}

	/** A threshold that cannot be read or a baseline that is no report fails the supervisor at start. */
	private static void validateComparison(SupervisorProperties.Report report, Errors errors) {
		try {
			RegressionThreshold.parse(report.getMaxRegression());
		}
		catch (IllegalArgumentException ex) {
			errors.rejectValue("report.max-regression", "threshold", ex.getMessage());
		}
		report.getStageMaxRegression().forEach((stage, threshold) -> {
			try {
				RegressionThreshold.parse(threshold);
			}
			catch (IllegalArgumentException ex) {
				errors.rejectValue("report.stage-max-regression[" + stage + "]", "threshold", ex.getMessage());
			}
		});
		if (!(report.getSpreadMultiplier() >= 0) || Double.isInfinite(report.getSpreadMultiplier())) {
			errors.rejectValue("report.spread-multiplier", "spread", "must be a number of at least 0, e.g. 3 (0: the"
					+ " baseline's spread is not used)");
		}
		for (int i = 0; i < report.getBaseline().size(); i++) {
			try {
				Compare.read(report.getBaseline().get(i));
			}
			catch (IllegalArgumentException ex) {
				errors.rejectValue("report.baseline[" + i + "]", "report", "is not a readable startup report: "
						+ ex.getMessage());
			}
		}
	}

}
