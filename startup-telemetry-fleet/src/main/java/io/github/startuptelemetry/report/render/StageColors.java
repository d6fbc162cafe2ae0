package io.github.startuptelemetry.report.render;

import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.github.startuptelemetry.contract.StageNames;

/**
 * One colour per stage name, the same in every row and every report: the contract's stages get
 * fixed colours (bean creation, the usual culprit, in orange), any other name a colour picked from
 * its hash.
 */
final class StageColors {

	/** The contract's stages' colours (their order is {@link StageNames#RUN_ORDER}'s). */
	private static final Map<String, String> KNOWN = known();

	private static final List<String> OTHERS = List.of("#ff9da7", "#a0cbe8", "#ffbe7d", "#8cd17d", "#f1ce63",
			"#86bcb6", "#fabfd2", "#d4a6c8", "#bab0ac", "#79706e");

	private StageColors() {
	}

	private static Map<String, String> known() {
		Map<String, String> known = new HashMap<>();
		// a pod's, before its process (Kubernetes), in greys
		known.put(StageNames.POD_SCHEDULING, "#a5a9ad");
		known.put(StageNames.POD_SETUP, "#c7c2bd");
		known.put(StageNames.VENV_SETUP, "#9c755f");
		known.put(StageNames.INTERPRETER_START, "#8da0cb");
		known.put(StageNames.WORKER_START, "#8da0cb");
		known.put(StageNames.MAIN_START, "#4e79a7");
		known.put(StageNames.ENVIRONMENT_PREPARED, "#76b7b2");
		known.put(StageNames.CONTEXT_PREPARED, "#499894");
		known.put(StageNames.BEANS_INSTANTIATED, "#f28e2b");
		known.put(StageNames.WEB_SERVER_STARTED, "#59a14f");
		known.put(StageNames.CONTEXT_REFRESHED, "#b6992d");
		known.put(StageNames.APPLICATION_STARTED, "#edc948");
		known.put(StageNames.APPLICATION_READY, "#b07aa1");
		known.put(StageNames.SPAWN_SERVERS, "#d37295");
		known.put(StageNames.WAIT_FOR_SERVERS, "#c9ccd1");
		known.put(StageNames.UNFINISHED, "#e15759");
		return Collections.unmodifiableMap(known);
	}

	/** The contract's stages in the order they run ({@link StageNames#RUN_ORDER}), any other name after them. */
	static Comparator<String> runOrder() {
		List<String> order = StageNames.RUN_ORDER;
		return Comparator.comparingInt((stage) -> order.contains(stage) ? order.indexOf(stage) : order.size());
	}

	/** The stage's colour, {@code #rrggbb}. */
	static String of(String stage) {
		String known = KNOWN.get(stage);
		return (known != null) ? known : OTHERS.get(Math.floorMod(stage.hashCode(), OTHERS.size()));
	}

	/** Whether text on this colour should be dark (the colour is light) rather than white. */
	static boolean darkText(String color) {
		int rgb = Integer.parseInt(color.substring(1), 16);
		double luma = 0.299 * (rgb >> 16) + 0.587 * ((rgb >> 8) & 0xff) + 0.114 * (rgb & 0xff);
		return luma > 140;
	}

}
