package io.github.startuptelemetry.report;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.JsonFields;
import io.github.startuptelemetry.internal.JsonText;
import io.github.startuptelemetry.timeline.JvmInfo;
import io.github.startuptelemetry.timeline.ServerTimeline;
import io.github.startuptelemetry.timeline.Stage;
import io.github.startuptelemetry.timeline.TimelineJson;

/**
 * A startup report as a versioned JSON document, for machines: what the HTML shows (outcome,
 * per server spawn→ready, stages with their JVM counters, slow beans, probe lag, trace, run,
 * host, the JVM and its startup flags), and the input of the regression gate.
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

	/**
	 * The report with one more top-level field: the regression gate adds its verdict against the
	 * baseline this way ({@code comparison}).
	 * @param report the report
	 * @param field the field's name ({@code contract.JsonFields})
	 * @param value its value: maps, lists, strings, numbers, booleans or {@code null}
	 * @return the document as JSON text
	 */
	public static String render(StartupReport report, String field, @Nullable Object value) {
		Map<String, Object> document = document(report);
		document.put(field, value);
		return JsonText.pretty(document);
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
		CriticalChain.of(report).ifPresent((chain) -> body.put(JsonFields.CRITICAL_CHAIN, chain(chain)));
		if (report.hasDependencies()) {
			body.put(JsonFields.DEPENDENCY_WAITS, DependencyWait.of(report).stream().map(JsonReport::wait).toList());
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
		body.put(JsonFields.REPLICA_OF, server.replicaOf());
		body.put(JsonFields.OUTCOME, server.outcome());
		body.put(JsonFields.EXIT_CODE, server.exitCode().isPresent() ? server.exitCode().getAsInt() : null);
		body.put(JsonFields.ONE_SHOT, server.oneShot());
		body.put(JsonFields.DEPENDENCIES, server.waiting().map((wait) -> waiting(server, wait)).orElse(null));
		// one never spawned (it waited for its dependencies when the startup ended) has no spawn time
		body.put(JsonFields.SPAWN_EPOCH_NS, server.spawned() ? server.spawnNs() : null);
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

}
