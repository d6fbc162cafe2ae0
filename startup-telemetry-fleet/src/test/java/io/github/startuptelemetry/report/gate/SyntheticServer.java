package io.github.startuptelemetry.report.gate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.startuptelemetry.report.gate.ReportTimes.ServerTimes;
import io.github.startuptelemetry.report.gate.ReportTimes.UnitTimes;
import io.github.startuptelemetry.report.gate.Change.Kind;

/**
 * A server's startup made up for the gate's tests, as work (CPU time) and waiting per unit: a
 * run of it at contention {@code k} takes {@code waiting + cpu × k} per bean, phase and stage
 * (stages add their parts), with the stages' and spawn→ready's CPU times the sums of their
 * parts', as the JVM counters would say. Every change returns a copy.
 */
final class SyntheticServer {

	private final String name;

	/** Bean or phase name → {cpu, waiting} in milliseconds, in report order. */
	private final Map<String, double[]> steps;

	/** Stage name → {cpu, waiting} of its own (beans_instantiated: beyond its steps). */
	private final Map<String, double[]> stages;

	private SyntheticServer(String name, Map<String, double[]> steps, Map<String, double[]> stages) {
		this.name = name;
		this.steps = steps;
		this.stages = stages;
	}

	/**
	 * A model server: 24 working beans (60 to 635 ms of CPU), a phase, a model loader that
	 * sleeps 1.5 s, and Boot's stages.
	 */
	static SyntheticServer model(String name) {
		Map<String, double[]> steps = new LinkedHashMap<>();
		steps.put("spring.context.config-classes.parse", new double[] { 1200, 0 });
		for (int i = 0; i < 24; i++) {
			steps.put("bean" + i, new double[] { 60 + 25 * i, 0 });
		}
		steps.put("modelLoader", new double[] { 10, 1500 });
		Map<String, double[]> stages = new LinkedHashMap<>();
		stages.put("main_start", new double[] { 1500, 40 });
		stages.put("environment_prepared", new double[] { 350, 10 });
		stages.put("context_prepared", new double[] { 1800, 20 });
		stages.put("beans_instantiated", new double[] { 400, 10 });
		stages.put("application_ready", new double[] { 300, 20 });
		return new SyntheticServer(name, steps, stages);
	}

	/** The same with one bean's or phase's (or stage's own) CPU time and waiting grown by these. */
	SyntheticServer with(String unit, double moreCpuMs, double moreWaitingMs) {
		Map<String, double[]> steps = copy(this.steps);
		Map<String, double[]> stages = copy(this.stages);
		double[] times = steps.containsKey(unit) ? steps.get(unit) : stages.get(unit);
		times[0] += moreCpuMs;
		times[1] += moreWaitingMs;
		return new SyntheticServer(this.name, steps, stages);
	}

	/** The same with every unit's CPU time times {@code factor} (slower code, or CDS off). */
	SyntheticServer cpuTimes(double factor) {
		Map<String, double[]> steps = copy(this.steps);
		Map<String, double[]> stages = copy(this.stages);
		steps.values().forEach((times) -> times[0] *= factor);
		stages.values().forEach((times) -> times[0] *= factor);
		return new SyntheticServer(this.name, steps, stages);
	}

	/** A run at contention {@code k}, with the CPU times the counters would report. */
	ServerTimes run(double k) {
		return run(k, Map.of());
	}

	/**
	 * A run at contention {@code k}, with some units' wall times off by a factor (noise).
	 * @param noise unit name → factor on its wall time
	 */
	ServerTimes run(double k, Map<String, Double> noise) {
		List<UnitTimes> parts = new ArrayList<>();
		String beansStage = UnitTimes.key(Kind.STAGE, "beans_instantiated");
		double stepsWall = 0;
		double stepsCpu = 0;
		for (Map.Entry<String, double[]> step : this.steps.entrySet()) {
			double wall = wall(step.getValue(), k) * noise.getOrDefault(step.getKey(), 1.0);
			Kind kind = step.getKey().startsWith("spring.") ? Kind.PHASE : Kind.BEAN;
			parts.add(new UnitTimes(kind, step.getKey(), beansStage, wall, step.getValue()[0]));
			stepsWall += wall;
			stepsCpu += step.getValue()[0];
		}
		List<UnitTimes> units = new ArrayList<>();
		Map<String, Double> stageWalls = new LinkedHashMap<>();
		double totalWall = 300;
		double totalCpu = 0;
		String server = UnitTimes.key(Kind.SERVER, Change.SPAWN_TO_READY);
		List<UnitTimes> stageUnits = new ArrayList<>();
		for (Map.Entry<String, double[]> stage : this.stages.entrySet()) {
			boolean beans = stage.getKey().equals("beans_instantiated");
			double wall = wall(stage.getValue(), k) * noise.getOrDefault(stage.getKey(), 1.0) + (beans ? stepsWall : 0);
			double cpu = stage.getValue()[0] + (beans ? stepsCpu : 0);
			stageUnits.add(new UnitTimes(Kind.STAGE, stage.getKey(), server, wall, cpu));
			stageWalls.put(stage.getKey(), wall);
			totalWall += wall;
			totalCpu += cpu;
		}
		units.add(new UnitTimes(Kind.SERVER, Change.SPAWN_TO_READY, null, totalWall, totalCpu));
		units.addAll(stageUnits);
		units.addAll(parts);
		Map<String, Double> beans = new LinkedHashMap<>();
		parts.forEach((part) -> beans.put(part.name(), part.wallMs()));
		return new ServerTimes(this.name, "ready", totalWall, stageWalls, beans, units);
	}

	private static double wall(double[] times, double k) {
		return times[1] + times[0] * k;
	}

	private static Map<String, double[]> copy(Map<String, double[]> times) {
		Map<String, double[]> copy = new LinkedHashMap<>();
		times.forEach((name, values) -> copy.put(name, values.clone()));
		return copy;
	}

}
