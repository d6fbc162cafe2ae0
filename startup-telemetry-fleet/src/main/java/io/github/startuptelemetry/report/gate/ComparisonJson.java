package io.github.startuptelemetry.report.gate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.JsonFields;

/** A comparison as the JSON report file carries it, in its {@code comparison} field. */
public final class ComparisonJson {

	private ComparisonJson() {
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
		List<Change> culprits = comparison.culprits();
		comparison.notable().values().forEach((notable) -> notable.forEach((change) -> {
			Map<String, Object> item = new LinkedHashMap<>();
			item.put(JsonFields.SERVER, change.server());
			item.put(JsonFields.KIND, change.kind().name().toLowerCase(Locale.ROOT));
			item.put(JsonFields.NAME, change.name());
			item.put(JsonFields.UNIT, change.unit());
			item.put(JsonFields.VERDICT, change.verdict().name().toLowerCase(Locale.ROOT));
			item.put(JsonFields.CAUSE, change.cause().name().toLowerCase(Locale.ROOT));
			item.put(JsonFields.CULPRIT, culprits.contains(change));
			item.put(JsonFields.EXPLAINED_BY, change.explainedBy());
			item.put(JsonFields.BASELINE_RUNS, change.runs());
			item.put(JsonFields.WALL, times(change.wall()));
			item.put(JsonFields.CPU, (change.cpu() != null) ? times(change.cpu()) : null);
			item.put(JsonFields.WAITING, (change.waiting() != null) ? times(change.waiting()) : null);
			item.put(JsonFields.TEXT, comparison.line(change));
			changes.add(item);
		}));
		body.put(JsonFields.CHANGES, changes);
		return body;
	}

	private static Map<String, Object> speed(Speed speed) {
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

	private static Map<String, Object> times(Change.Times times) {
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

}
