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
					all.add(new UnitTimes(Kind.SERVER, ServerReport.SPAWN_TO_READY, null, spawnToReady, stagesCpu,
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
	private static final String SERVER_UNIT = UnitTimes.key(Kind.SERVER, ServerReport.SPAWN_TO_READY);

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
