package io.github.startuptelemetry.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.timeline.JsonText;
import io.github.startuptelemetry.timeline.JvmInfo;
import io.github.startuptelemetry.timeline.ServerTimeline;
import io.github.startuptelemetry.timeline.Stage;
import io.github.startuptelemetry.timeline.TimelineJson;

/**
 * A startup report as a versioned JSON document, for machines: what the HTML shows (outcome,
 * per server spawn→ready, stages with their JVM counters, slow beans, probe lag, trace, run,
 * host, the JVM and its startup flags), the input of {@link ReportComparison} and {@link Compare}.
 * The schema is {@code docs/startup-report.schema.json}; every field name is defined here, but
 * those of a stage and a slow bean, which are the timeline's ({@link TimelineJson}).
 * Fields may be added within a {@link #SCHEMA_VERSION}, never renamed or
 * removed; a reader ignores fields it does not know.
 */
public final class JsonReport {

	/** The schema's version, raised only for a change an old reader would misread. */
	public static final int SCHEMA_VERSION = 1;

	static final String SCHEMA_VERSION_FIELD = "schemaVersion";

	static final String KIND = "kind";

	static final String KIND_FLEET = "fleet";

	static final String KIND_SERVER = "server";

	static final String OUTCOME = "outcome";

	static final String ERROR = "error";

	static final String TRACE_ID = "traceId";

	static final String RUN_ID = "runId";

	static final String HOST = "host";

	static final String START_EPOCH_NS = "startEpochNs";

	static final String END_EPOCH_NS = "endEpochNs";

	static final String DURATION_MS = "durationMs";

	static final String SUPERVISOR = "supervisor";

	static final String SERVERS = "servers";

	static final String NAME = "name";

	static final String TYPE = "type";

	static final String EXIT_CODE = "exitCode";

	static final String SPAWN_EPOCH_NS = "spawnEpochNs";

	static final String SPAWN_TO_READY_MS = "spawnToReadyMs";

	static final String PROBE_LAG_MS = "probeLagMs";

	static final String CPU_PER_WALL = "cpuPerWall";

	static final String JVM = "jvm";

	static final String VERSION = "version";

	static final String FLAGS = "flags";

	static final String CDS_OFF = "cdsOff";

	static final String CDS_ARCHIVE = "cdsArchive";

	static final String AOT_CACHE = "aotCache";

	static final String TIERED_STOP_AT_LEVEL = "tieredStopAtLevel";

	static final String STAGES = "stages";

	static final String BEANS = "beans";

	static final String CHILDREN = "children";

	static final String CRITICAL_PATH = "criticalPath";

	static final String SERVER = "server";

	static final String SLOWEST_STAGE = "slowestStage";

	private JsonReport() {
	}

	/** The report as JSON text. */
	public static String render(StartupReport report) {
		return JsonText.pretty(document(report));
	}

	/** The document of a server started without a supervisor: the same schema, {@code kind} {@code server}. */
	public static String renderServer(StartupReport report) {
		Map<String, Object> document = document(report);
		document.put(KIND, KIND_SERVER);
		return JsonText.pretty(document);
	}

	static Map<String, Object> document(StartupReport report) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put(SCHEMA_VERSION_FIELD, SCHEMA_VERSION);
		body.put(KIND, KIND_FLEET);
		body.put(OUTCOME, report.outcome());
		body.put(ERROR, report.error());
		body.put(TRACE_ID, report.traceId());
		body.put(RUN_ID, report.runId());
		body.put(HOST, report.host());
		body.put(START_EPOCH_NS, report.startNs());
		body.put(END_EPOCH_NS, report.endNs());
		body.put(DURATION_MS, ms(report.durationNs()));
		body.put(SUPERVISOR, Map.of(STAGES, report.supervisorStages().stream().map(TimelineJson::stage).toList()));
		body.put(SERVERS, report.servers().stream().map(JsonReport::server).toList());
		report.criticalPath().ifPresent((path) -> {
			Map<String, Object> critical = new LinkedHashMap<>();
			critical.put(SERVER, path.server().name());
			critical.put(DURATION_MS, ms(path.allReadyAfterNs()));
			critical.put(SLOWEST_STAGE, path.slowestStage().map(Stage::name).orElse(null));
			body.put(CRITICAL_PATH, critical);
		});
		return body;
	}

	private static Map<String, Object> server(ServerReport server) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put(NAME, server.name());
		body.put(TYPE, server.type());
		body.put(OUTCOME, server.outcome());
		body.put(EXIT_CODE, server.exitCode().isPresent() ? server.exitCode().getAsInt() : null);
		body.put(SPAWN_EPOCH_NS, server.spawnNs());
		body.put(END_EPOCH_NS, server.endNs());
		body.put(SPAWN_TO_READY_MS, ms(server.spawnToEndNs()));
		body.put(PROBE_LAG_MS, server.probeLagNs().isPresent() ? ms(server.probeLagNs().getAsLong()) : null);
		body.put(CPU_PER_WALL, server.cpuPerWall().isPresent() ? server.cpuPerWall().getAsDouble() : null);
		body.put(JVM, server.timeline().map(ServerTimeline::jvm).map(JsonReport::jvm).orElse(null));
		body.put(STAGES, server.stages().stream().map(TimelineJson::stage).toList());
		body.put(BEANS, TimelineJson.steps(server.beans()));
		server.timeline().ifPresent((timeline) -> TimelineJson.putUnattributed(body, timeline));
		return body;
	}

	private static Map<String, Object> jvm(JvmInfo jvm) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put(VERSION, jvm.version());
		body.put(CDS_OFF, jvm.cdsOff());
		body.put(CDS_ARCHIVE, jvm.cdsArchive());
		body.put(AOT_CACHE, jvm.aotCache());
		body.put(TIERED_STOP_AT_LEVEL, jvm.tieredStopAtLevel());
		body.put(FLAGS, jvm.flags());
		return body;
	}

	private static double ms(long ns) {
		return ns / 1_000_000.0;
	}

	/**
	 * What a comparison needs of a report document: per server, spawn→ready, each stage and
	 * each slow bean (nested ones too) in milliseconds. Lenient, as a reader of another
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
		if (!(parsed instanceof Map<?, ?> document) || !(document.get(SERVERS) instanceof List<?> servers)
				|| !(document.get(SCHEMA_VERSION_FIELD) instanceof Number)) {
			throw new IllegalArgumentException("Not a startup report: no " + SCHEMA_VERSION_FIELD + " or " + SERVERS);
		}
		List<ServerTimes> times = new ArrayList<>();
		for (Object item : servers) {
			if (item instanceof Map<?, ?> server && server.get(NAME) instanceof String name) {
				Map<String, Double> stages = new LinkedHashMap<>();
				if (server.get(STAGES) instanceof List<?> list) {
					for (Object stage : list) {
						if (stage instanceof Map<?, ?> map && map.get(NAME) instanceof String stageName
								&& map.get(DURATION_MS) instanceof Number ms) {
							stages.merge(stageName, ms.doubleValue(), Double::sum);
						}
					}
				}
				Map<String, Double> beans = new LinkedHashMap<>();
				readBeans(server.get(BEANS), beans);
				times.add(new ServerTimes(name, String.valueOf(server.get(OUTCOME)),
						(server.get(SPAWN_TO_READY_MS) instanceof Number ms) ? ms.doubleValue() : null, stages, beans));
			}
		}
		return times;
	}

	private static void readBeans(@Nullable Object field, Map<String, Double> into) {
		if (field instanceof List<?> list) {
			for (Object bean : list) {
				if (bean instanceof Map<?, ?> map && map.get(NAME) instanceof String name
						&& map.get(DURATION_MS) instanceof Number ms) {
					into.merge(name, ms.doubleValue(), Double::sum);
					readBeans(map.get(CHILDREN), into);
				}
			}
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
	 */
	public record ServerTimes(String name, String outcome, @Nullable Double spawnToReadyMs, Map<String, Double> stages,
			Map<String, Double> beans) {

		public ServerTimes {
			stages = Collections.unmodifiableMap(new LinkedHashMap<>(stages));
			beans = Collections.unmodifiableMap(new LinkedHashMap<>(beans));
		}

	}

}
