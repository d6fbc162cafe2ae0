package io.github.startuptelemetry.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.JsonFields;
import io.github.startuptelemetry.contract.StageNames;
import io.github.startuptelemetry.internal.json.JsonText;
import io.github.startuptelemetry.report.ReportComparison.Kind;
import io.github.startuptelemetry.timeline.JvmInfo;
import io.github.startuptelemetry.timeline.ServerTimeline;
import io.github.startuptelemetry.timeline.Stage;
import io.github.startuptelemetry.timeline.TimelineJson;

/**
 * A startup report as a versioned JSON document, for machines: what the HTML shows (outcome,
 * per server spawn→ready, stages with their JsonFields.JVM counters, slow beans, probe lag, trace, run,
 * host, the JsonFields.JVM and its startup flags), the input of {@link ReportComparison} and {@link Compare}.
 * The schema is {@code docs/startup-report.schema.json}; every field name is defined here, but
 * those of a stage and a slow bean, which are the timeline's ({@link TimelineJson}).
 * Fields may be added within a {@link #SCHEMA_VERSION}, never renamed or
 * removed; a reader ignores fields it does not know.
 */
public final class JsonReport {

	/** The schema's version, raised only for a change an old reader would misread. */
	public static final int SCHEMA_VERSION = 1;

	private JsonReport() {
	}

	/** The report as JSON text. */
	public static String render(StartupReport report) {
		return JsonText.pretty(document(report));
	}

	/** The report with the regression gate's verdict against its baseline ({@code comparison}). */
	public static String render(StartupReport report, ReportComparison comparison) {
		Map<String, Object> document = document(report);
		document.put(JsonFields.COMPARISON, comparison(comparison));
		return JsonText.pretty(document);
	}

	/**
	 * A comparison as the report file carries it: how it judged, the speed factor, and each
	 * unit that moved beyond its allowance with what it was judged against. Unknown numbers
	 * are {@code null}.
	 */
	public static Map<String, Object> comparison(ReportComparison comparison) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put(JsonFields.BASELINE_RUNS, comparison.baselineRuns());
		body.put(JsonFields.REGRESSED, comparison.regressed());
		body.put(JsonFields.EXIT_CODE, comparison.exitCode());
		body.put(JsonFields.SUMMARY, comparison.summary());
		Map<String, Object> threshold = new LinkedHashMap<>();
		threshold.put(JsonFields.RELATIVE, comparison.threshold().relative());
		threshold.put(JsonFields.FLOOR_MS, comparison.threshold().floorMs());
		body.put(JsonFields.MAX_REGRESSION, threshold);
		body.put(JsonFields.SPREAD_MULTIPLIER, comparison.settings().spreadMultiplier());
		body.put(JsonFields.SPEED_CORRECTION, comparison.settings().speedCorrection());
		Map<String, Object> speed = speed(comparison.speed());
		Map<String, Object> servers = new LinkedHashMap<>();
		comparison.serverSpeeds().forEach((server, serverSpeed) -> servers.put(server, speed(serverSpeed)));
		speed.put(JsonFields.SERVERS, servers);
		body.put(JsonFields.SPEED, speed);
		body.put(JsonFields.STALL_MS, comparison.stallMs());
		List<Map<String, Object>> changes = new ArrayList<>();
		List<ReportComparison.Change> culprits = comparison.culprits();
		comparison.notable().values().forEach((notable) -> notable.forEach((change) -> {
			Map<String, Object> item = new LinkedHashMap<>();
			item.put(JsonFields.SERVER, change.server());
			item.put(JsonFields.KIND, change.kind().name().toLowerCase(java.util.Locale.ROOT));
			item.put(JsonFields.NAME, change.name());
			item.put(JsonFields.UNIT, change.unit());
			item.put(JsonFields.VERDICT, change.verdict().name().toLowerCase(java.util.Locale.ROOT));
			item.put(JsonFields.CAUSE, change.cause().name().toLowerCase(java.util.Locale.ROOT));
			item.put(JsonFields.CULPRIT, culprits.contains(change));
			item.put(JsonFields.EXPLAINED_BY, change.explainedBy());
			item.put(JsonFields.BASELINE_RUNS, change.runs());
			item.put(JsonFields.WALL, times(change.wall()));
			item.put(JsonFields.CPU, (change.cpu() != null) ? times(change.cpu()) : null);
			item.put(JsonFields.WAITING, (change.waiting() != null) ? times(change.waiting()) : null);
			item.put(JsonFields.TEXT, change.line());
			changes.add(item);
		}));
		body.put(JsonFields.CHANGES, changes);
		return body;
	}

	private static Map<String, Object> speed(ReportComparison.Speed speed) {
		Map<String, Object> body = new LinkedHashMap<>();
		Contention contention = speed.contention();
		body.put(JsonFields.FACTOR, contention.known() ? number(speed.factor()) : null);
		Map<String, Object> met = new LinkedHashMap<>();
		met.put(JsonFields.LOW, number(contention.low()));
		met.put(JsonFields.MEDIAN, number(contention.median()));
		met.put(JsonFields.HIGH, number(contention.high()));
		met.put(JsonFields.UNITS, contention.units());
		body.put(JsonFields.CONTENTION, contention.known() ? met : null);
		body.put(JsonFields.USUAL_CONTENTION, contention.known() ? number(speed.usualContention()) : null);
		body.put(JsonFields.CPU_FACTOR, number(speed.cpuFactor()));
		body.put(JsonFields.CPU_UNITS, speed.cpuUnits());
		return body;
	}

	private static Map<String, Object> times(ReportComparison.Times times) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put(JsonFields.BEFORE_MS, number(times.beforeMs()));
		body.put(JsonFields.AFTER_MS, number(times.afterMs()));
		body.put(JsonFields.EXPECTED_MS, number(times.expectedMs()));
		body.put(JsonFields.ALLOWED_MS, number(times.allowedMs()));
		body.put(JsonFields.SPREAD_MS, number(times.spreadMs()));
		return body;
	}

	/** A number JSON can carry: {@code null} for NaN or an infinity. */
	private static @Nullable Double number(double value) {
		return (Double.isNaN(value) || Double.isInfinite(value)) ? null : value;
	}

	/** The document of a server started without a supervisor: the same schema, {@code kind} {@code server}. */
	public static String renderServer(StartupReport report) {
		Map<String, Object> document = document(report);
		document.put(JsonFields.KIND, JsonFields.KIND_SERVER);
		return JsonText.pretty(document);
	}

	static Map<String, Object> document(StartupReport report) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put(JsonFields.SCHEMA_VERSION_FIELD, SCHEMA_VERSION);
		body.put(JsonFields.KIND, JsonFields.KIND_FLEET);
		body.put(JsonFields.OUTCOME, report.outcome());
		body.put(JsonFields.ERROR, report.error());
		body.put(JsonFields.TRACE_ID, report.traceId());
		body.put(JsonFields.RUN_ID, report.runId());
		body.put(JsonFields.HOST, report.host());
		body.put(JsonFields.START_EPOCH_NS, report.startNs());
		body.put(JsonFields.END_EPOCH_NS, report.endNs());
		body.put(JsonFields.DURATION_MS, ms(report.durationNs()));
		body.put(JsonFields.SUPERVISOR, Map.of(JsonFields.STAGES, report.supervisorStages().stream().map(TimelineJson::stage).toList()));
		body.put(JsonFields.SERVERS, report.servers().stream().map((server) -> server(server, report)).toList());
		report.criticalPath().ifPresent((path) -> {
			Map<String, Object> critical = new LinkedHashMap<>();
			critical.put(JsonFields.SERVER, path.server().name());
			critical.put(JsonFields.DURATION_MS, ms(path.allReadyAfterNs()));
			critical.put(JsonFields.SLOWEST_STAGE, path.slowestStage().map(Stage::name).orElse(null));
			body.put(JsonFields.CRITICAL_PATH, critical);
		});
		report.criticalChain().ifPresent((chain) -> body.put(JsonFields.CRITICAL_CHAIN, chain(chain)));
		if (report.hasDependencies()) {
			body.put(JsonFields.DEPENDENCY_WAITS, report.dependencyWaits().stream().map(JsonReport::wait).toList());
		}
		if (report.jvmCache() != null) {
			body.put(JsonFields.JVM_CACHE, JvmCacheJson.document(report.jvmCache()));
		}
		return body;
	}

	private static Map<String, Object> chain(CriticalChain chain) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put(JsonFields.DURATION_MS, ms(chain.allReadyAfterNs()));
		body.put(JsonFields.LINKS, chain.links().stream().map((link) -> {
			Map<String, Object> entry = new LinkedHashMap<>();
			entry.put(JsonFields.SERVER, link.server().name());
			entry.put(JsonFields.CONDITION, link.condition());
			entry.put(JsonFields.MET_AFTER_MS, ms(link.metAfterNs()));
			entry.put(JsonFields.SPAWN_TO_READY_MS, ms(link.server().spawnToEndNs()));
			entry.put(JsonFields.WAITED_MS, ms(link.waitedNs()));
			entry.put(JsonFields.WAITED_FOR, link.waitedFor().map(ServerReport.DependsOn::name).orElse(null));
			entry.put(JsonFields.SLOWEST_STAGE, link.slowestStage().map(Stage::name).orElse(null));
			entry.put(JsonFields.SLOWEST_STAGE_MS, link.slowestStage().map((stage) -> ms(stage.durationNs())).orElse(null));
			return entry;
		}).toList());
		return body;
	}

	private static Map<String, Object> wait(DependencyWait wait) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put(JsonFields.DEPENDANT, wait.dependant().name());
		body.put(JsonFields.DEPENDENCY, wait.dependency().name());
		body.put(JsonFields.CONDITION, wait.dependency().condition());
		body.put(JsonFields.WAITED_MS, ms(wait.waitedNs()));
		body.put(JsonFields.COULD_OVERLAP_MS, wait.overlap().map((overlap) -> ms(overlap.ns())).orElse(null));
		body.put(JsonFields.UP_TO_STAGE, wait.overlap().map(DependencyWait.Overlap::upToStage).orElse(null));
		body.put(JsonFields.CONTACT_STAGE, wait.overlap().map(DependencyWait.Overlap::contactStage).orElse(null));
		body.put(JsonFields.CONTACT_EPOCH_NS, wait.overlap().map(DependencyWait.Overlap::contactNs).orElse(null));
		return body;
	}

	private static Map<String, Object> waiting(ServerReport server, ServerReport.Waiting wait) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put(JsonFields.WAIT_START_EPOCH_NS, wait.startNs());
		body.put(JsonFields.WAITED_MS, ms(server.waitedNs()));
		body.put(JsonFields.SPAWNED, wait.spawned());
		body.put(JsonFields.DEPENDS_ON, wait.dependsOn().stream().map((on) -> {
			Map<String, Object> entry = new LinkedHashMap<>();
			entry.put(JsonFields.NAME, on.name());
			entry.put(JsonFields.CONDITION, on.condition());
			entry.put(JsonFields.SERVERS, on.servers());
			return entry;
		}).toList());
		body.put(JsonFields.RELEASED_BY, wait.releasedBy());
		body.put(JsonFields.BLOCKED_BY, wait.blockedBy());
		return body;
	}

	private static Map<String, Object> server(ServerReport server, StartupReport report) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put(JsonFields.NAME, server.name());
		body.put(JsonFields.TYPE, server.type());
		body.put(JsonFields.OUTCOME, server.outcome());
		body.put(JsonFields.EXIT_CODE, server.exitCode().isPresent() ? server.exitCode().getAsInt() : null);
		body.put(JsonFields.ONE_SHOT, server.oneShot());
		body.put(JsonFields.DEPENDENCIES, server.waiting().map((wait) -> waiting(server, wait)).orElse(null));
		body.put(JsonFields.SPAWN_EPOCH_NS, server.spawnNs());
		body.put(JsonFields.END_EPOCH_NS, server.endNs());
		body.put(JsonFields.SPAWN_TO_READY_MS, ms(server.spawnToEndNs()));
		body.put(JsonFields.PROBE_LAG_MS, server.probeLagNs().isPresent() ? ms(server.probeLagNs().getAsLong()) : null);
		body.put(JsonFields.CPU_PER_WALL, server.cpuPerWall().isPresent() ? server.cpuPerWall().getAsDouble() : null);
		body.put(JsonFields.JVM, server.timeline().map(ServerTimeline::jvm).map(JsonReport::jvm).orElse(null));
		body.put(JsonFields.STAGES, server.stages().stream().map(TimelineJson::stage).toList());
		body.put(JsonFields.BEANS, TimelineJson.steps(server.beans()));
		server.timeline().ifPresent((timeline) -> TimelineJson.putUnattributed(body, timeline));
		Map<String, Object> jvmCache = JvmCacheJson.server(report.jvmCache(), server.name());
		if (jvmCache != null) {
			body.put(JsonFields.JVM_CACHE, jvmCache);
		}
		return body;
	}

	private static Map<String, Object> jvm(JvmInfo jvm) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put(JsonFields.VERSION, jvm.version());
		body.put(JsonFields.CDS_OFF, jvm.cdsOff());
		body.put(JsonFields.CDS_ARCHIVE, jvm.cdsArchive());
		body.put(JsonFields.AOT_CACHE, jvm.aotCache());
		body.put(JsonFields.TIERED_STOP_AT_LEVEL, jvm.tieredStopAtLevel());
		body.put(JsonFields.FLAGS, jvm.flags());
		return body;
	}

	private static double ms(long ns) {
		return ns / 1_000_000.0;
	}

	/**
	 * What a comparison needs of a report document: per server, spawn→ready, each stage and
	 * each slow bean (nested ones too) in milliseconds, and each of them as a unit the gate
	 * judges, with its CPU time where the document has it. Lenient, as a reader of another
	 * version's document must be: what is missing is left out.
	 * @param text a report document
	 * @return its servers, in document order
	 * @throws IllegalArgumentException when it is not JSON or not a startup report
	 */
	public static List<ServerTimes> readTimes(String text) {
		Object parsed;
		try {
			parsed = JsonText.parse(text);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("Not a JSON report: " + ex.getMessage(), ex);
		}
		if (!(parsed instanceof Map<?, ?> document) || !(document.get(JsonFields.SERVERS) instanceof List<?> servers)
				|| !(document.get(JsonFields.SCHEMA_VERSION_FIELD) instanceof Number)) {
			throw new IllegalArgumentException("Not a startup report: no " + JsonFields.SCHEMA_VERSION_FIELD + " or " + JsonFields.SERVERS);
		}
		List<ServerTimes> times = new ArrayList<>();
		for (Object item : servers) {
			if (item instanceof Map<?, ?> server && server.get(JsonFields.NAME) instanceof String name) {
				Double spawnToReady = (server.get(JsonFields.SPAWN_TO_READY_MS) instanceof Number ms) ? ms.doubleValue() : null;
				Units units = new Units();
				Map<String, Double> stages = new LinkedHashMap<>();
				Double stagesCpu = null;
				double stagesBackground = 0;
				if (server.get(JsonFields.STAGES) instanceof List<?> list) {
					for (Object stage : list) {
						if (stage instanceof Map<?, ?> map && map.get(JsonFields.NAME) instanceof String stageName
								&& map.get(JsonFields.DURATION_MS) instanceof Number ms) {
							stages.merge(stageName, ms.doubleValue(), Double::sum);
							Map<?, ?> jvm = (map.get(JsonFields.JVM) instanceof Map<?, ?> counters) ? counters : Map.of();
							Double cpu = (jvm.get(JsonFields.CPU_MS) instanceof Number cpuMs) ? cpuMs.doubleValue() : null;
							// what other threads may have spent in it: the JIT's and the collectors' time
							double background = ((jvm.get(JsonFields.JIT_MS) instanceof Number jit) ? jit.doubleValue() : 0)
									+ ((jvm.get(JsonFields.GC_MS) instanceof Number gc) ? gc.doubleValue() : 0);
							if (cpu != null) {
								stagesCpu = (stagesCpu != null) ? Double.valueOf(stagesCpu + cpu) : cpu;
								stagesBackground += background;
							}
							units.add(Kind.STAGE, stageName, SERVER_UNIT, ms.doubleValue(), cpu, background);
						}
					}
				}
				Map<String, Double> beans = new LinkedHashMap<>();
				readBeans(server.get(JsonFields.BEANS), beans, units, STAGE_OF_BEANS);
				List<UnitTimes> all = new ArrayList<>();
				if (spawnToReady != null) {
					// the JVM's stages' CPU time over the whole spawn→ready: what came before the JVM counts as waiting
					all.add(new UnitTimes(Kind.SERVER, ReportComparison.SPAWN_TO_READY, null, spawnToReady, stagesCpu,
							stagesBackground));
				}
				all.addAll(units.list());
				times.add(new ServerTimes(name, String.valueOf(server.get(JsonFields.OUTCOME)), spawnToReady, stages, beans,
						all));
			}
		}
		return times;
	}

	private static void readBeans(@Nullable Object field, Map<String, Double> into, Units units, String parent) {
		if (field instanceof List<?> list) {
			for (Object bean : list) {
				if (bean instanceof Map<?, ?> map && map.get(JsonFields.NAME) instanceof String name
						&& map.get(JsonFields.DURATION_MS) instanceof Number ms) {
					into.merge(name, ms.doubleValue(), Double::sum);
					Kind kind = Kind.ofStep((map.get(JsonFields.STEP) instanceof String step) ? step : name);
					Double cpu = (map.get(JsonFields.THREAD_CPU_MS) instanceof Number cpuMs) ? cpuMs.doubleValue() : null;
					String key = units.add(kind, name, parent, ms.doubleValue(), cpu, 0);
					readBeans(map.get(JsonFields.CHILDREN), into, units, key);
				}
			}
		}
	}

	/** The key of a server's spawn→ready unit, the parent of its stages. */
	private static final String SERVER_UNIT = UnitTimes.key(Kind.SERVER, ReportComparison.SPAWN_TO_READY);

	/** The parent of the top slow beans, phases and steps: they are parts of {@code beans_instantiated}. */
	private static final String STAGE_OF_BEANS = UnitTimes.key(Kind.STAGE, StageNames.BEANS_INSTANTIATED);

	/** A server's units in document order, one per key: a name seen twice (a step run twice) is summed. */
	private static final class Units {

		private final Map<String, UnitTimes> byKey = new LinkedHashMap<>();

		String add(Kind kind, String name, String parent, double wallMs, @Nullable Double cpuMs, double backgroundMs) {
			String key = UnitTimes.key(kind, name);
			UnitTimes earlier = this.byKey.get(key);
			this.byKey.put(key, (earlier == null) ? new UnitTimes(kind, name, parent, wallMs, cpuMs, backgroundMs)
					: new UnitTimes(kind, name, earlier.parent(), earlier.wallMs() + wallMs,
							(earlier.cpuMs() != null && cpuMs != null) ? Double.valueOf(earlier.cpuMs() + cpuMs) : null,
							earlier.backgroundMs() + backgroundMs));
			return key;
		}

		List<UnitTimes> list() {
			return List.copyOf(this.byKey.values());
		}

	}

	/**
	 * One server's times in a report document.
	 *
	 * @param name the server
	 * @param outcome how its startup ended
	 * @param spawnToReadyMs spawn to first healthy probe, or {@code null} when not in the document
	 * @param stages each stage's duration (summed should a name repeat)
	 * @param beans each slow bean's or step's duration
	 * @param units the same times as the units a comparison judges: spawn→ready, then each
	 * stage, then each phase, step and slow bean in document order, each with its parent and
	 * its CPU time where known
	 */
	public record ServerTimes(String name, String outcome, @Nullable Double spawnToReadyMs, Map<String, Double> stages,
			Map<String, Double> beans, List<UnitTimes> units) {

		public ServerTimes {
			stages = Collections.unmodifiableMap(new LinkedHashMap<>(stages));
			beans = Collections.unmodifiableMap(new LinkedHashMap<>(beans));
			units = List.copyOf(units);
		}

		/**
		 * A server's times without CPU times or nesting: spawn→ready, its stages, and its slow
		 * beans as parts of {@code beans_instantiated}.
		 */
		public ServerTimes(String name, String outcome, @Nullable Double spawnToReadyMs, Map<String, Double> stages,
				Map<String, Double> beans) {
			this(name, outcome, spawnToReadyMs, stages, beans, plainUnits(spawnToReadyMs, stages, beans));
		}

		private static List<UnitTimes> plainUnits(@Nullable Double spawnToReadyMs, Map<String, Double> stages,
				Map<String, Double> beans) {
			List<UnitTimes> units = new ArrayList<>();
			if (spawnToReadyMs != null) {
				units.add(new UnitTimes(Kind.SERVER, ReportComparison.SPAWN_TO_READY, null, spawnToReadyMs, null));
			}
			stages.forEach((stage, ms) -> units.add(new UnitTimes(Kind.STAGE, stage, SERVER_UNIT, ms, null)));
			beans.forEach((bean, ms) -> units.add(new UnitTimes(Kind.BEAN, bean, STAGE_OF_BEANS, ms, null)));
			return units;
		}

	}

	/**
	 * One unit of a server's startup, as a comparison judges it.
	 *
	 * @param kind what it is
	 * @param name {@link ReportComparison#SPAWN_TO_READY}, the stage's, phase's, step's or bean's name
	 * @param parent the {@link #key()} of the unit it is part of, or {@code null} for spawn→ready
	 * @param wallMs its wall time
	 * @param cpuMs its CPU time, or {@code null} when unknown: the process's over a stage (all
	 * threads), the thread's over a phase, step or bean, the JVM's stages' over spawn→ready
	 * @param backgroundMs the part of {@code cpuMs} other threads may have spent meanwhile: a
	 * stage's JIT and GC time (which the load moves from stage to stage), 0 for a phase, step or
	 * bean, whose CPU time is its own thread's
	 */
	public record UnitTimes(Kind kind, String name, @Nullable String parent, double wallMs, @Nullable Double cpuMs,
			double backgroundMs) {

		/** A unit whose CPU time, if known, is all its own. */
		public UnitTimes(Kind kind, String name, @Nullable String parent, double wallMs, @Nullable Double cpuMs) {
			this(kind, name, parent, wallMs, cpuMs, 0);
		}

		/** The least of its CPU time that is its own: {@code cpuMs} less the background, or {@code null}. */
		public @Nullable Double ownCpuMs() {
			return (this.cpuMs != null) ? Double.valueOf(Math.max(0, this.cpuMs - this.backgroundMs)) : null;
		}

		/** {@code bean modelLoader}: unique within a server. */
		public String key() {
			return key(this.kind, this.name);
		}

		static String key(Kind kind, String name) {
			return kind.word() + " " + name;
		}

	}

}
