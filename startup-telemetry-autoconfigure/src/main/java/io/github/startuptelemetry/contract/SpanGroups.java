package io.github.startuptelemetry.contract;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * NeMo Gym's span groups ({@code nemo_gym/telemetry/span_groups.py}) and the presets a
 * {@code telemetry.span-groups} / {@code NEMO_GYM_OTEL_SPAN_GROUPS} spec may name. Startup spans
 * are exported only while {@link #STARTUP} is selected; metrics are never gated.
 */
public final class SpanGroups {

	/** The group of every startup span. */
	public static final String STARTUP = "startup";

	/** The preset used when no spec is given. */
	public static final String DEFAULT = "default";

	/** Every group. */
	public static final String ALL = "all";

	/** Gym's own groups. */
	public static final Set<String> GROUPS = Set.of("job", "server", "http_client", "rollout", "verify", "agent",
			"model_call", "sandbox", STARTUP);

	/** Gym's presets: {@code default} has {@code startup}, {@code per_rollout} does not. */
	public static final Map<String, Set<String>> PRESETS = Map.of(DEFAULT,
			Set.of("job", STARTUP, "server", "http_client", "rollout"), "per_rollout",
			Set.of("verify", "agent", "model_call", "server", "http_client", "rollout"), ALL, GROUPS);

	private SpanGroups() {
	}

	/**
	 * The groups a spec selects: comma separated, case-insensitive, presets and names mixed;
	 * unknown names are dropped (as Gym's Lens drops them); a blank spec is {@link #DEFAULT}.
	 */
	public static Set<String> resolve(String spec) {
		if (spec == null || spec.isBlank()) {
			return PRESETS.get(DEFAULT);
		}
		Set<String> groups = new LinkedHashSet<>();
		for (String token : spec.split(",")) {
			String name = token.strip().toLowerCase(Locale.ROOT);
			if (PRESETS.containsKey(name)) {
				groups.addAll(PRESETS.get(name));
			}
			else if (GROUPS.contains(name)) {
				groups.add(name);
			}
		}
		return Set.copyOf(groups);
	}

	/** Whether a spec selects a group. */
	public static boolean enabled(String spec, String group) {
		return resolve(spec).contains(group);
	}

}
