package io.github.startuptelemetry.report;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.DependencyConditions;
import io.github.startuptelemetry.contract.SpanNames;
import io.github.startuptelemetry.report.ServerReport.DependsOn;
import io.github.startuptelemetry.timeline.Stage;
import io.github.startuptelemetry.timeline.StepTiming;

/**
 * One {@code depends-on} edge of a startup: how long the dependant waited for the dependency
 * and, when it reported its first contact with it, how much of its startup could have run during
 * that wait (docs/fleets.md, what could have overlapped).
 *
 * @param dependant the server that waited
 * @param dependency what it waited for
 * @param waitedNs from when it began waiting until the dependency met its condition (or, should
 * that come later, its own spawn; for one never spawned, the end)
 * @param overlap the part of its startup before its first contact with the dependency, if known
 */
public record DependencyWait(ServerReport dependant, DependsOn dependency, long waitedNs, Optional<Overlap> overlap) {

	/**
	 * Every edge of a startup, the dependants in report order, each one's dependencies in the
	 * order declared.
	 * @param report the startup
	 * @return its edges; empty for a fleet without dependencies
	 */
	public static List<DependencyWait> of(StartupReport report) {
		Map<String, ServerReport> byName = report.servers()
			.stream()
			.collect(Collectors.toMap(ServerReport::name, Function.identity(), (a, b) -> a));
		List<DependencyWait> waits = new ArrayList<>();
		// each declared server and condition once: a thousand replicas wait for the same thousand
		Map<List<Object>, OptionalLong> met = new HashMap<>();
		for (ServerReport dependant : report.servers()) {
			dependant.waiting().ifPresent((wait) -> {
				long waitedUntil = dependant.spawned() ? dependant.spawnNs() : dependant.endNs();
				for (DependsOn dependency : wait.dependsOn()) {
					long metNs = met.computeIfAbsent(List.of(dependency.name(), dependency.condition()),
							(key) -> metNs(dependency, byName)).orElse(waitedUntil);
					long waited = Math.max(0, Math.min(metNs, waitedUntil) - wait.startNs());
					waits.add(new DependencyWait(dependant, dependency, waited, overlap(dependant, dependency)));
				}
			});
		}
		return waits;
	}

	/** When every server the entry stands for met its condition, if all did. */
	private static OptionalLong metNs(DependsOn dependency, Map<String, ServerReport> byName) {
		long met = Long.MIN_VALUE;
		for (String name : dependency.servers()) {
			ServerReport server = byName.get(name);
			if (server == null) {
				return OptionalLong.empty();
			}
			if (DependencyConditions.STARTED.equals(dependency.condition())) {
				if (!server.spawned()) {
					return OptionalLong.empty();
				}
				met = Math.max(met, server.spawnNs());
			}
			else {
				if (!server.ready()) {
					return OptionalLong.empty();
				}
				met = Math.max(met, server.endNs());
			}
		}
		return (met == Long.MIN_VALUE) ? OptionalLong.empty() : OptionalLong.of(met);
	}

	/** Its stages that ended by its first contact with the dependency, if it reported both. */
	private static Optional<Overlap> overlap(ServerReport dependant, DependsOn dependency) {
		List<Stage> stages = dependant.stages();
		OptionalLong contact = firstContact(dependant.beans(), dependency);
		if (stages.isEmpty() || contact.isEmpty()) {
			return Optional.empty();
		}
		long contactNs = contact.getAsLong();
		Stage upTo = null;
		String contactStage = stages.get(stages.size() - 1).name();
		for (Stage stage : stages) {
			if (stage.endNs() <= contactNs) {
				upTo = stage;
			}
			else {
				contactStage = stage.name();
				break;
			}
		}
		long ns = (upTo != null) ? upTo.endNs() - stages.get(0).startNs() : 0;
		return Optional.of(new Overlap(ns, (upTo != null) ? upTo.name() : null, contactStage, contactNs));
	}

	/** The start of the earliest step named for the dependency or one of its servers, nested ones too. */
	static OptionalLong firstContact(List<StepTiming> steps, DependsOn dependency) {
		long first = Long.MAX_VALUE;
		for (StepTiming step : steps) {
			if (step.step().startsWith(SpanNames.DEPENDENCY_STEP_PREFIX)) {
				String named = step.step().substring(SpanNames.DEPENDENCY_STEP_PREFIX.length());
				if (named.equals(dependency.name()) || dependency.servers().contains(named)) {
					first = Math.min(first, step.startNs());
				}
			}
			OptionalLong nested = firstContact(step.children(), dependency);
			if (nested.isPresent()) {
				first = Math.min(first, nested.getAsLong());
			}
		}
		return (first == Long.MAX_VALUE) ? OptionalLong.empty() : OptionalLong.of(first);
	}

	/** The application step a dependant names its first contact with this dependency by. */
	public String contactStep() {
		return SpanNames.DEPENDENCY_STEP_PREFIX + this.dependency.name();
	}

	/**
	 * The part of a dependant's startup that did not need the dependency.
	 *
	 * @param ns from its first stage's start to the end of the last stage that ended by its first
	 * contact (0 when none did)
	 * @param upToStage that last stage, or {@code null} when none ended before the contact
	 * @param contactStage the stage it first contacted the dependency in
	 * @param contactNs when it did
	 */
	public record Overlap(long ns, @Nullable String upToStage, String contactStage, long contactNs) {

	}

}
