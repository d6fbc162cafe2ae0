package io.github.startuptelemetry.report.render;

import io.github.startuptelemetry.report.CriticalChain;
import io.github.startuptelemetry.report.DependencyWait;
import io.github.startuptelemetry.report.ServerReport;
import io.github.startuptelemetry.report.StartupReport;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.DoubleSummaryStatistics;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

import io.github.startuptelemetry.internal.Durations;
import io.github.startuptelemetry.timeline.Stage;

/**
 * A startup report as plain text for a console: one row per server (spawn→ready, its wait for its
 * dependencies, each of its stages, probe lag, outcome), the critical path or chain, and the
 * supervisor's own stages.
 */
public final class ConsoleReport {

	private static final String MISSING = "-";

	private static final String CPU_HINT = "cpu/wall: process CPU time (all threads) over wall time of the JVM's"
			+ " stages; well below 1 it was mostly waiting, near the core count it was CPU-bound";

	private ConsoleReport() {
	}

	public static String render(StartupReport report) {
		StringBuilder out = new StringBuilder();
		out.append(ReportWording.endedAfter(report));
		if (report.traceId() != null) {
			out.append(" (trace ").append(report.traceId()).append(')');
		}
		out.append('\n');
		if (!report.servers().isEmpty()) {
			table(report).forEach((line) -> out.append(line.stripTrailing()).append('\n'));
		}
		out.append(summary(report)).append('\n');
		dependencies(report).forEach((line) -> out.append(line.stripTrailing()).append('\n'));
		String unattributed = unattributed(report);
		if (!unattributed.isEmpty()) {
			out.append("unattributed in beans_instantiated (no phase, slow bean or step covers it): ")
				.append(unattributed)
				.append('\n');
		}
		if (report.servers().stream().anyMatch((server) -> server.cpuPerWall().isPresent())) {
			out.append(CPU_HINT).append('\n');
		}
		out.append("supervisor: ")
			.append(report.supervisorStages()
				.stream()
				.map((stage) -> stage.name() + " " + Durations.format(stage.durationNs()))
				.collect(Collectors.joining(", ")));
		if (report.jvmCache() != null) {
			out.append('\n').append(JvmCacheText.render(report.jvmCache()));
		}
		return out.toString();
	}

	/**
	 * What no span of beans_instantiated explains, per server: each named for a few servers;
	 * for more, how many, the median and the largest few (a thousand names made a line of
	 * 169 kB at 10,000 servers).
	 */
	static String unattributed(StartupReport report) {
		List<ServerReport> servers = report.servers()
			.stream()
			.filter((server) -> server.unattributedNs().isPresent())
			.sorted(Comparator.comparingLong((ServerReport server) -> server.unattributedNs().getAsLong()).reversed())
			.toList();
		if (servers.size() <= ServerRows.NAMED + 1) {
			return report.servers()
				.stream()
				.filter(servers::contains)
				.map(ConsoleReport::unattributedOf)
				.collect(Collectors.joining(", "));
		}
		// largest first: the median as ServerRows.Spread takes it, the upper of two
		long median = servers.get(servers.size() - 1 - servers.size() / 2).unattributedNs().getAsLong();
		return servers.size() + " servers, median " + Durations.format(median) + "; the largest: "
				+ ServerRows.bounded(servers, ConsoleReport::unattributedOf);
	}

	private static String unattributedOf(ServerReport server) {
		return server.name() + " " + Durations.format(server.unattributedNs().getAsLong());
	}

	/**
	 * The critical path of a ready startup (with dependencies: its critical chain, a line per
	 * link), or what ended a failed one.
	 */
	static String summary(StartupReport report) {
		if (!report.ready()) {
			return ReportWording.endedAt(report);
		}
		UnaryOperator<String> plain = UnaryOperator.identity();
		Optional<CriticalChain> chain = CriticalChain.of(report);
		if (chain.isPresent()) {
			return "all ready " + ReportWording.chainHeadline(chain.get(), plain, plain) + " ("
					+ ReportWording.CHAIN_KEY + "):\n" + String.join("\n", chainLines(chain.get()));
		}
		return report.criticalPath().map((path) -> {
			String line = "all ready " + ReportWording.heldBack(path, plain, plain);
			return path.slowestStage()
				.map((stage) -> line + "; " + ReportWording.slowestStage(stage.name(), plain) + " "
						+ Durations.format(stage.durationNs()))
				.orElse(line);
		}).orElse("all ready at " + Durations.format(report.durationNs()) + ", no servers");
	}

	/** One aligned line per link: name, when it met the condition, its spawn→ready, its wait, its slowest stage. */
	private static List<String> chainLines(CriticalChain chain) {
		List<List<String>> rows = new ArrayList<>();
		for (CriticalChain.Link link : chain.links()) {
			rows.add(List.of(link.server().name(), link.condition() + " " + ReportWording.chainAt(link),
					"+" + Durations.format(link.server().spawnToEndNs()), ReportWording.chainWait(link),
					link.slowestStage()
						.map((stage) -> ReportWording.slowestStage(stage.name(), UnaryOperator.identity()) + " "
								+ Durations.format(stage.durationNs()))
						.orElse("")));
		}
		int[] widths = new int[5];
		rows.forEach((row) -> {
			for (int i = 0; i < row.size(); i++) {
				widths[i] = Math.max(widths[i], row.get(i).length());
			}
		});
		List<String> lines = new ArrayList<>();
		for (List<String> row : rows) {
			StringBuilder line = new StringBuilder("  ");
			for (int i = 0; i < row.size(); i++) {
				line.append(row.get(i)).append(" ".repeat(widths[i] - row.get(i).length() + 2));
			}
			lines.add(line.toString().stripTrailing());
		}
		return lines;
	}

	/**
	 * With dependencies: what could have overlapped, per edge of a server that was spawned; the
	 * servers never spawned, and why.
	 */
	private static List<String> dependencies(StartupReport report) {
		List<String> lines = new ArrayList<>();
		List<ServerRows.Waits> waits = ServerRows.waits(DependencyWait.of(report)
			.stream()
			.filter((wait) -> wait.dependant().spawned())
			.toList());
		if (!waits.isEmpty()) {
			lines.add(OVERLAP_HEADLINE);
			waits.forEach((shown) -> lines.add("  " + ReportWording.dependencyWait(shown.edge(), UnaryOperator.identity())
					+ shown.suffix()));
		}
		ServerRows.unspawned(report)
			.forEach((shown) -> lines.add(shown.server().name() + " " + ReportWording.notSpawned(shown.server(), report)
					+ shown.suffix()));
		return lines;
	}

	/** The head of the "could have overlapped" lines. */
	static final String OVERLAP_HEADLINE = "what could have overlapped (each depends-on: how long the server waited, "
			+ "and its own stages before it first contacted that dependency):";

	private static List<String> table(StartupReport report) {
		Set<String> stageNames = new LinkedHashSet<>();
		report.servers().forEach((server) -> server.stages().forEach((stage) -> stageNames.add(stage.name())));
		List<Column> columns = new ArrayList<>();
		columns.add(new Column("server", "", false));
		columns.add(new Column("type", "", false));
		columns.add(new Column("spawn→ready", "", true));
		boolean waited = report.hasDependencies();
		if (waited) {
			columns.add(new Column(ReportWording.WAITED, "", true));
		}
		boolean queued = report.servers().stream().anyMatch((server) -> server.queuedNs().isPresent());
		if (queued) {
			columns.add(new Column(ReportWording.QUEUED, "", true));
		}
		for (String stage : stageNames) {
			int split = stage.indexOf('_');
			columns.add((split < 0) ? new Column(stage, "", true)
					: new Column(stage.substring(0, split), stage.substring(split + 1), true));
		}
		columns.add(new Column("probe lag", "", true));
		columns.add(new Column("cpu/", "wall", true));
		columns.add(new Column("outcome", "", false));
		List<List<String>> rows = new ArrayList<>();
		for (ServerRows.Row row : ServerRows.of(report)) {
			if (row instanceof ServerRows.Single single) {
				rows.add(cells(single.server(), single.server().name(), stageNames, waited, queued));
			}
			else if (row instanceof ServerRows.Group group) {
				rows.add(groupCells(group, stageNames, waited, queued));
				ServerReport shown = group.shown();
				rows.add(cells(shown, "  ↳ " + shown.name() + " (" + group.why() + ")", stageNames, waited, queued));
			}
		}
		int[] widths = new int[columns.size()];
		for (int i = 0; i < columns.size(); i++) {
			widths[i] = Math.max(columns.get(i).top().length(), columns.get(i).bottom().length());
			for (List<String> row : rows) {
				widths[i] = Math.max(widths[i], row.get(i).length());
			}
		}
		List<String> lines = new ArrayList<>();
		lines.add(line(columns.stream().map(Column::top).toList(), columns, widths));
		if (columns.stream().anyMatch((column) -> !column.bottom().isEmpty())) {
			lines.add(line(columns.stream().map(Column::bottom).toList(), columns, widths));
		}
		rows.forEach((row) -> lines.add(line(row, columns, widths)));
		return lines;
	}

	/** One server's row, named {@code name}. */
	private static List<String> cells(ServerReport server, String name, Set<String> stageNames, boolean waited,
			boolean queued) {
		List<String> row = new ArrayList<>();
		row.add(name);
		row.add((server.type() != null) ? server.type() : MISSING);
		row.add(server.spawned() ? Durations.format(server.spawnToEndNs()) : MISSING);
		if (waited) {
			row.add(server.waiting().isPresent() ? Durations.format(server.waitedNs()) : MISSING);
		}
		if (queued) {
			row.add(server.queuedNs().isPresent() ? Durations.format(server.queuedNs().getAsLong()) : MISSING);
		}
		for (String stage : stageNames) {
			OptionalLong ns = stageNs(server, stage);
			row.add(ns.isPresent() ? Durations.format(ns.getAsLong()) : MISSING);
		}
		row.add(server.probeLagNs().isPresent() ? Durations.format(server.probeLagNs().getAsLong()) : MISSING);
		row.add(server.cpuPerWall().isPresent() ? ReportWording.cpuPerWall(server.cpuPerWall().getAsDouble())
				: MISSING);
		row.add(ReportWording.outcome(server));
		return row;
	}

	/** A group's row: each column's spread over its replicas, and how many ended each way. */
	private static List<String> groupCells(ServerRows.Group group, Set<String> stageNames, boolean waited,
			boolean queued) {
		List<String> row = new ArrayList<>();
		row.add(group.name() + " ×" + group.replicas().size());
		row.add((group.type() != null) ? group.type() : MISSING);
		row.add(range(group.spawnToReady()));
		if (waited) {
			row.add(range(group.spread((server) -> server.waiting().isPresent() ? OptionalLong.of(server.waitedNs())
					: OptionalLong.empty())));
		}
		if (queued) {
			row.add(range(group.spread(ServerReport::queuedNs)));
		}
		for (String stage : stageNames) {
			row.add(range(group.spread((server) -> stageNs(server, stage))));
		}
		row.add(range(group.spread(ServerReport::probeLagNs)));
		DoubleSummaryStatistics cpu = group.replicas()
			.stream()
			.filter((server) -> server.cpuPerWall().isPresent())
			.mapToDouble((server) -> server.cpuPerWall().getAsDouble())
			.summaryStatistics();
		row.add((cpu.getCount() == 0) ? MISSING : ReportWording.cpuPerWall(cpu.getMin()) + "–"
				+ ReportWording.cpuPerWall(cpu.getMax()));
		row.add(group.outcomes());
		return row;
	}

	private static String range(Optional<ServerRows.Spread> spread) {
		return spread.map(ServerRows.Spread::range).orElse(MISSING);
	}

	/** A stage's duration (summed, should a name repeat), if the server reported it. */
	private static OptionalLong stageNs(ServerReport server, String name) {
		long ns = 0;
		boolean found = false;
		for (Stage stage : server.stages()) {
			if (stage.name().equals(name)) {
				ns += stage.durationNs();
				found = true;
			}
		}
		return found ? OptionalLong.of(ns) : OptionalLong.empty();
	}

	private static String line(List<String> cells, List<Column> columns, int[] widths) {
		StringBuilder line = new StringBuilder();
		for (int i = 0; i < cells.size(); i++) {
			String cell = cells.get(i);
			String pad = " ".repeat(widths[i] - cell.length());
			line.append(columns.get(i).right() ? pad + cell : cell + pad).append("  ");
		}
		return line.toString();
	}

	private record Column(String top, String bottom, boolean right) {

	}

}
