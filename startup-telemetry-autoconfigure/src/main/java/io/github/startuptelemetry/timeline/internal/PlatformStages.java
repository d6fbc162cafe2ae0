package io.github.startuptelemetry.timeline.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.github.startuptelemetry.contract.StageNames;
import io.github.startuptelemetry.timeline.ServerTimeline;
import io.github.startuptelemetry.timeline.Stage;

/**
 * A server's stages with those its platform ran before its process ahead of them, and what their
 * spans carry beyond a stage span's usual attributes: the one place the two are joined
 * ({@link #ahead(List, List)}), for the server's spans and its supervisor's report alike.
 *
 * @param stages every stage, the platform's first, contiguous
 * @param spanAttributes extra attributes of a stage's span, by stage name; values are
 * {@code String}, {@code Long}, {@code Double} or {@code Boolean}
 * @param nested spans inside a stage's span that are not stages of their own (an image pull inside
 * the pod's setup), each within its parent
 * @param rootAttributes extra attributes of the process's root span (the platform's names for it)
 */
public record PlatformStages(List<Stage> stages, Map<String, Map<String, Object>> spanAttributes,
		List<Nested> nested, Map<String, Object> rootAttributes) {

	public PlatformStages {
		stages = List.copyOf(stages);
		spanAttributes = Map.copyOf(spanAttributes);
		nested = List.copyOf(nested);
		rootAttributes = Map.copyOf(rootAttributes);
	}

	/** The process's own stages, nothing of a platform's. */
	public static PlatformStages none(List<Stage> own) {
		return new PlatformStages(own, Map.of(), List.of(), Map.of());
	}

	/** The extra attributes of the span of stage {@code name}; empty without any. */
	public Map<String, Object> spanAttributes(String name) {
		return this.spanAttributes.getOrDefault(name, Map.of());
	}

	/**
	 * Whether {@code own} begins with the env contract's stages before the JVM ({@code venv_setup}
	 * or {@code interpreter_start}, from the spawn a supervisor stamped): then the platform's first
	 * stage begins at that spawn, the precise instant its create call went out.
	 */
	public static boolean spawned(List<Stage> own) {
		if (own.isEmpty()) {
			return false;
		}
		String first = own.get(0).name();
		return first.equals(StageNames.VENV_SETUP) || first.equals(StageNames.INTERPRETER_START);
	}

	/**
	 * {@code own} with {@code platform} ahead, contiguous. The platform's stages (contiguous, in
	 * order; the last ending where the process's first program started) begin at the spawn when
	 * {@code own} has it ({@link #spawned}), else where the platform says; each boundary is clamped
	 * between the one before it and the end of the first env stage (the setup's end, or the JVM's
	 * start), and that first env stage now begins where the platform's last ends. Without env
	 * stages, {@code interpreter_start} is added from there to the JVM's start. Unchanged when
	 * either is empty, for a worker (whose JVM a server's process started, not the platform), and
	 * when {@code own} already begins with the platform's first stage.
	 */
	public static List<Stage> ahead(List<Stage> own, List<Stage> platform) {
		if (own.isEmpty() || platform.isEmpty() || own.get(0).name().equals(StageNames.WORKER_START)
				|| own.get(0).name().equals(platform.get(0).name())) {
			return own;
		}
		Stage first = own.get(0);
		boolean spawned = spawned(own);
		long limit = spawned ? first.endNs() : first.startNs();
		long cursor = spawned ? first.startNs() : Math.min(platform.get(0).startNs(), limit);
		List<Stage> merged = new ArrayList<>(own.size() + platform.size() + 1);
		for (Stage stage : platform) {
			long end = Math.min(Math.max(stage.endNs(), cursor), limit);
			merged.add(new Stage(stage.name(), cursor, end));
			cursor = end;
		}
		if (spawned) {
			merged.add(new Stage(first.name(), cursor, first.endNs(), first.jvm()));
			merged.addAll(own.subList(1, own.size()));
		}
		else {
			merged.add(new Stage(StageNames.INTERPRETER_START, cursor, first.startNs()));
			merged.addAll(own);
		}
		return merged;
	}

	/**
	 * {@code timeline} with {@code platform} ahead of its stages ({@link #ahead(List, List)}), its
	 * start moved to the first; the same timeline when nothing changes.
	 */
	public static ServerTimeline ahead(ServerTimeline timeline, List<Stage> platform) {
		List<Stage> stages = ahead(timeline.stages(), platform);
		if (stages == timeline.stages()) {
			return timeline;
		}
		return new ServerTimeline(timeline.serverName(), timeline.serverType(), timeline.worker(), timeline.pid(),
				timeline.traceId(), timeline.spanId(), stages.get(0).startNs(), timeline.readyEpochNs(), stages,
				timeline.ignoredEnv(), timeline.steps(), timeline.jvm());
	}

	/**
	 * A span inside a stage's span that is not a stage of its own.
	 *
	 * @param parent the stage it is inside
	 * @param stage its name and interval, within its parent's
	 * @param attributes its extra attributes
	 */
	public record Nested(String parent, Stage stage, Map<String, Object> attributes) {

		public Nested {
			attributes = Map.copyOf(attributes);
		}

	}

}
