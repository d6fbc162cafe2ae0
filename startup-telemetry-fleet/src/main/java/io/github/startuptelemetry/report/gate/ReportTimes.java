package io.github.startuptelemetry.report.gate;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.JsonFields;
import io.github.startuptelemetry.contract.StageNames;
import io.github.startuptelemetry.internal.JsonText;
import io.github.startuptelemetry.report.ServerReport;
import io.github.startuptelemetry.report.gate.Change.Kind;

/** The gate's input: the times of each server in a JSON report document, as units to judge. */
public final class ReportTimes {

	private ReportTimes() {
	}

	/**
	 * What a comparison needs of a report document: per server, spawn→ready, each stage and
	 * each slow bean (nested ones too) in milliseconds, and each of them as a unit the gate
	 * judges, with its CPU time where the document has it; of a test report ({@code kind}
	 * {@code tests}), the same per test context, its startup in place of spawn→ready. Lenient,
	 * as a reader of another version's document must be: what is missing is left out.
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
		if (parsed instanceof Map<?, ?> document && JsonFields.KIND_TESTS.equals(document.get(JsonFields.KIND))
				&& document.get(JsonFields.CONTEXTS) instanceof List<?> contexts
				&& document.get(JsonFields.SCHEMA_VERSION_FIELD) instanceof Number) {
			return readContexts(contexts);
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
				double[] stagesCpu = readStages(server.get(JsonFields.STAGES), stages, units, SERVER_UNIT);
				Map<String, Double> beans = new LinkedHashMap<>();
				readBeans(server.get(JsonFields.BEANS), beans, units, STAGE_OF_BEANS);
				List<UnitTimes> all = new ArrayList<>();
				if (spawnToReady != null) {
					// the JVM's stages' CPU time over the whole spawn→ready: what came before the JVM counts as waiting
					all.add(new UnitTimes(Kind.SERVER, ServerReport.SPAWN_TO_READY, null, spawnToReady, cpu(stagesCpu),
							stagesCpu[1]));
				}
				all.addAll(units.list());
				times.add(new ServerTimes(name, String.valueOf(server.get(JsonFields.OUTCOME)), spawnToReady, stages, beans,
						all));
			}
		}
		return times;
	}

	/**
	 * A test report's contexts as the gate's servers, one per name (a configuration, and which of
	 * its creations in its JVM: a configuration created again after {@code @DirtiesContext} or an
	 * eviction has a name of its own, so that it is a new context when the baseline did not
	 * create it again): its startup (a {@link Kind#CONTEXT} unit), its stages, its slow beans.
	 * A name in several JVMs (forks that each needed it) counts once, its first creation: which
	 * fork needs which configuration changes from run to run.
	 */
	private static List<ServerTimes> readContexts(List<?> contexts) {
		Map<String, ServerTimes> byName = new LinkedHashMap<>();
		for (Object item : contexts) {
			if (item instanceof Map<?, ?> context && context.get(JsonFields.NAME) instanceof String name
					&& context.get(JsonFields.STARTUP_MS) instanceof Number startupMs && !byName.containsKey(name)) {
				Map<?, ?> timeline = (context.get(JsonFields.TIMELINE) instanceof Map<?, ?> map) ? map : Map.of();
				Units units = new Units();
				Map<String, Double> stages = new LinkedHashMap<>();
				double[] cpu = readStages(timeline.get(JsonFields.STAGES), stages, units, CONTEXT_UNIT);
				Map<String, Double> beans = new LinkedHashMap<>();
				readBeans(timeline.get(JsonFields.BEAN_SPANS), beans, units, STAGE_OF_BEANS);
				List<UnitTimes> all = new ArrayList<>();
				all.add(new UnitTimes(Kind.CONTEXT, Change.CONTEXT_STARTUP, null, startupMs.doubleValue(), cpu(cpu),
						cpu[1]));
				all.addAll(units.list());
				byName.put(name, new ServerTimes(name, String.valueOf(context.get(JsonFields.OUTCOME)), null, stages, beans,
						all));
			}
		}
		return List.copyOf(byName.values());
	}

	/**
	 * Each stage of {@code field} into {@code stages} and {@code units} (under {@code parent});
	 * the stages' CPU time (-1 when a stage lacks it) and the JIT's and collectors' time in them.
	 */
	private static double[] readStages(@Nullable Object field, Map<String, Double> stages, Units units, String parent) {
		double cpuMs = 0;
		boolean cpuKnown = false;
		double background = 0;
		if (field instanceof List<?> list) {
			for (Object stage : list) {
				if (stage instanceof Map<?, ?> map && map.get(JsonFields.NAME) instanceof String stageName
						&& map.get(JsonFields.DURATION_MS) instanceof Number ms) {
					stages.merge(stageName, ms.doubleValue(), Double::sum);
					Map<?, ?> jvm = (map.get(JsonFields.JVM) instanceof Map<?, ?> counters) ? counters : Map.of();
					Double cpu = (jvm.get(JsonFields.CPU_MS) instanceof Number cpuMsValue) ? cpuMsValue.doubleValue() : null;
					// what other threads may have spent in it: the JIT's and the collectors' time
					double stageBackground = ((jvm.get(JsonFields.JIT_MS) instanceof Number jit) ? jit.doubleValue() : 0)
							+ ((jvm.get(JsonFields.GC_MS) instanceof Number gc) ? gc.doubleValue() : 0);
					if (cpu != null) {
						cpuMs += cpu;
						cpuKnown = true;
						background += stageBackground;
					}
					units.add(Kind.STAGE, stageName, parent, ms.doubleValue(), cpu, stageBackground);
				}
			}
		}
		return new double[] { cpuKnown ? cpuMs : -1, background };
	}

	private static @Nullable Double cpu(double[] stagesCpu) {
		return (stagesCpu[0] >= 0) ? Double.valueOf(stagesCpu[0]) : null;
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
	private static final String SERVER_UNIT = UnitTimes.key(Kind.SERVER, ServerReport.SPAWN_TO_READY);

	/** The key of a test context's startup unit, the parent of its stages. */
	private static final String CONTEXT_UNIT = UnitTimes.key(Kind.CONTEXT, Change.CONTEXT_STARTUP);

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
				units.add(new UnitTimes(Kind.SERVER, ServerReport.SPAWN_TO_READY, null, spawnToReadyMs, null));
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
	 * @param name {@link Change#SPAWN_TO_READY}, the stage's, phase's, step's or bean's name
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
