package io.github.startuptelemetry.report.render;

import java.util.ArrayList;
import java.util.List;

import io.github.startuptelemetry.report.ServerReport;
import io.github.startuptelemetry.report.StartupReport;
import io.github.startuptelemetry.timeline.Stage;
import io.github.startuptelemetry.timeline.StepTiming;

/**
 * A ready fleet of many replicas of one declared server for the reports: replica {@code i} is
 * spawned {@code i} ms after the first and takes {@code 1 s + i ms} spawn to ready, in the
 * stages a Boot server reports, with slow beans in its beans_instantiated.
 */
final class ReplicaFleet {

	static final long MS = 1_000_000L;

	static final long T0 = 1_700_000_000_000L * MS;

	/** A Boot server's stages after its JVM started, each a share of its spawn→ready (in tenths). */
	private static final List<String> STAGES = List.of("venv_setup", "main_start", "environment_prepared",
			"context_prepared", "beans_instantiated", "web_server_started", "context_refreshed", "application_started",
			"application_ready");

	private static final int[] TENTHS = { 1, 1, 1, 1, 3, 1, 1, 0, 1 };

	private ReplicaFleet() {
	}

	/** {@code replicas} replicas of {@code name}, each with {@code beans} slow beans. */
	static List<ServerReport> replicas(String name, int replicas, int beans) {
		List<ServerReport> servers = new ArrayList<>();
		for (int i = 0; i < replicas; i++) {
			long spawn = T0 + 1000 * MS + i * MS;
			long end = spawn + 1000 * MS + i * MS;
			List<Stage> stages = new ArrayList<>();
			long at = spawn;
			for (int s = 0; s < STAGES.size(); s++) {
				long next = (s == STAGES.size() - 1) ? end : at + (end - spawn) * TENTHS[s] / 10;
				stages.add(new Stage(STAGES.get(s), at, next));
				at = next;
			}
			Stage instantiated = stages.get(4);
			List<StepTiming> steps = new ArrayList<>();
			for (int b = 0; b < beans; b++) {
				long start = instantiated.startNs() + b * 10 * MS;
				steps.add(TestTimelines.bean("bean" + b, "com.example.Bean" + b, start, start + 8 * MS, List.of()));
			}
			servers.add(ServerReport.of(name + "-" + i, name, spawn, end, "ready")
				.withTimeline(TestTimelines.of(stages, end, steps))
				.asReplicaOf(name));
		}
		return servers;
	}

	/** A ready startup of these servers, ended when the last was ready. */
	static StartupReport ready(List<ServerReport> servers) {
		long end = servers.stream().mapToLong(ServerReport::endNs).max().orElse(T0);
		return new StartupReport("abc", T0, end, "ready", null,
				List.of(new Stage("main_start", T0, T0 + 1000 * MS), new Stage("wait_for_servers", T0 + 1000 * MS, end)),
				servers);
	}

}
