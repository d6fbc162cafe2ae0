package io.github.startuptelemetry.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.JsonFields;
import io.github.startuptelemetry.report.JvmCacheComparison.Metric;
import io.github.startuptelemetry.report.JvmCacheComparison.Pair;
import io.github.startuptelemetry.report.JvmCacheReport.ServerCache;
import io.github.startuptelemetry.report.JvmCacheReport.Training;

/**
 * A {@link JvmCacheReport} in the JSON report (fields added within schema version 1): the
 * document's {@code jvmCache} (mode, directory, trainings, comparison) and each server's
 * {@code jvmCache} (used or why not, the class counts).
 */
final class JvmCacheJson {

	private JvmCacheJson() {
	}

	static Map<String, Object> document(JvmCacheReport report) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put(JsonFields.MODE, report.mode());
		body.put(JsonFields.DIRECTORY, report.directory());
		body.put(JsonFields.TRAININGS, report.trainings().stream().map(JvmCacheJson::training).toList());
		body.put(JsonFields.COMPARISON, (report.comparison() != null) ? comparison(report.comparison()) : null);
		return body;
	}

	/** A server's {@code jvmCache}, or {@code null} when the report has no row for it. */
	static @Nullable Map<String, Object> server(@Nullable JvmCacheReport report, String name) {
		if (report == null) {
			return null;
		}
		return report.server(name).map(JvmCacheJson::server).orElse(null);
	}

	private static Map<String, Object> server(ServerCache server) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put(JsonFields.USED, server.used());
		body.put(JsonFields.REASON, server.reason());
		body.put(JsonFields.DETAIL, server.detail());
		body.put(JsonFields.CACHE_KIND, server.kind());
		body.put(JsonFields.JAVA, server.java());
		body.put(JsonFields.SHARED_CLASSES, (server.sharedClasses() >= 0) ? server.sharedClasses() : null);
		body.put(JsonFields.LOADED_CLASSES, (server.loadedClasses() >= 0) ? server.loadedClasses() : null);
		body.put(JsonFields.CLASS_SHARE,
				server.classShare().isPresent() ? server.classShare().getAsDouble() : null);
		return body;
	}

	private static Map<String, Object> training(Training training) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put(JsonFields.SERVERS, training.servers());
		body.put(JsonFields.CACHE_KIND, training.kind());
		body.put(JsonFields.JAVA, training.java());
		body.put(JsonFields.TARGET, training.target());
		body.put(JsonFields.TRAINED, training.trained());
		body.put(JsonFields.DETAIL, training.detail());
		body.put(JsonFields.DURATION_MS, training.durationMs());
		body.put(JsonFields.SIZE_BYTES, training.sizeBytes());
		body.put(JsonFields.ENTRY, training.entry());
		return body;
	}

	private static Map<String, Object> comparison(JvmCacheComparison comparison) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put(JsonFields.ROUNDS, comparison.rounds());
		body.put(JsonFields.COMPLETED_ROUNDS, comparison.completedRounds());
		List<Object> servers = new ArrayList<>();
		for (String name : comparison.servers()) {
			Map<String, Object> server = new LinkedHashMap<>();
			server.put(JsonFields.NAME, name);
			server.put(JsonFields.MOVED_MOST, comparison.movedMost(name).map(Metric::name).orElse(null));
			server.put(JsonFields.METRICS, comparison.server(name).stream().map(JvmCacheJson::metric).toList());
			servers.add(server);
		}
		body.put(JsonFields.SERVERS, servers);
		return body;
	}

	private static Map<String, Object> metric(Metric metric) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put(JsonFields.NAME, metric.name());
		body.put(JsonFields.METRIC_KIND, metric.kind().jsonName());
		body.put(JsonFields.UNIT, (metric.kind() == JvmCacheComparison.Kind.CLASS_SHARE) ? "%" : "ms");
		body.put(JsonFields.WITHOUT, metric.medianWithout());
		body.put(JsonFields.WITH, metric.medianWith());
		body.put(JsonFields.MEDIAN_DELTA, metric.medianDelta());
		body.put(JsonFields.MIN_DELTA, metric.minDelta());
		body.put(JsonFields.MAX_DELTA, metric.maxDelta());
		body.put(JsonFields.RELATIVE_DELTA, Double.isNaN(metric.relativeDelta()) ? null : metric.relativeDelta());
		List<Object> pairs = new ArrayList<>();
		for (Pair pair : metric.pairs()) {
			pairs.add(List.of(pair.without(), pair.with()));
		}
		body.put(JsonFields.PAIRS, pairs);
		return body;
	}

}
