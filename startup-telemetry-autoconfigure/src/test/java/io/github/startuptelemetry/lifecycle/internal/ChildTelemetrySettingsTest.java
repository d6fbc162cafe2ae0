package io.github.startuptelemetry.lifecycle.internal;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;


@ExtendWith(OutputCaptureExtension.class)
class ChildTelemetrySettingsTest {

	private static final String SECRET = "s3cr3t";

	private final MockEnvironment yaml = new MockEnvironment();

	@Test
	void passesOnTheTelemetrySettingsTheSupervisorWasGiven() {
		this.yaml.setProperty("telemetry.run-id", "run-7");
		this.yaml.setProperty("telemetry.shutdown-timeout", "3s");
		this.yaml.setProperty("telemetry.startup.bean-spans.threshold", "50ms");
		this.yaml.setProperty("telemetry.startup.bean-spans.enabled", "false");
		this.yaml.setProperty("telemetry.export.zipkin.endpoint", "http://127.0.0.1:9411/api/v2/spans");
		Map<String, String> env = settings(Map.of()).forServer("model-0", "model", 0, 2);
		assertThat(env).containsEntry("TELEMETRY_RUN_ID", "run-7")
			.containsEntry("TELEMETRY_SHUTDOWN_TIMEOUT", "3000ms")
			.containsEntry("TELEMETRY_STARTUP_BEAN_SPANS_THRESHOLD", "50ms")
			.containsEntry("TELEMETRY_STARTUP_BEAN_SPANS_ENABLED", "false")
			.containsEntry("TELEMETRY_EXPORT_ZIPKIN_ENDPOINT", "http://127.0.0.1:9411/api/v2/spans");
	}

	@Test
	void theSupervisorsOwnCollectorGoesToItsServersAsTheStandardVariablesAndWinsOverBoots() {
		this.yaml.setProperty("telemetry.export.otlp.endpoint", "http://ours:4318");
		this.yaml.setProperty("telemetry.export.otlp.headers.authorization", "Bearer " + SECRET);
		this.yaml.setProperty("management.opentelemetry.tracing.export.otlp.endpoint", "http://boots:4318/v1/traces");
		ChildTelemetrySettings settings = settings(Map.of());
		assertThat(settings.forServer("model-0", "model", 0, 1)).containsEntry("OTEL_EXPORTER_OTLP_ENDPOINT", "http://ours:4318")
			.containsEntry("OTEL_EXPORTER_OTLP_HEADERS", "authorization=Bearer%20" + SECRET)
			.containsEntry("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf");
		assertThat(settings.toString()).doesNotContain(SECRET);
		// a variable already in the supervisor's environment wins, as everywhere
		assertThat(settings(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://env:4318")).forServer("model-0", "model", 0, 1))
			.containsEntry("OTEL_EXPORTER_OTLP_ENDPOINT", "http://env:4318");
	}

	@Test
	void leavesWhatTheSupervisorWasNotGivenToEachServer() {
		Map<String, String> env = settings(Map.of()).forServer("model-0", "model", 0, 1);
		assertThat(env.keySet()).noneMatch((name) -> name.startsWith("TELEMETRY_") && !name.equals("TELEMETRY_RUN_ID"));
		assertThat(env).doesNotContainKeys("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_HEADERS");
	}

	@Test
	void rawEnvWinsOverYaml() {
		this.yaml.setProperty("telemetry.shutdown-timeout", "3s");
		this.yaml.setProperty("telemetry.run-id", "from-yaml");
		this.yaml.setProperty("management.opentelemetry.tracing.export.otlp.endpoint",
				"http://yaml-collector:4318/v1/traces");
		this.yaml.setProperty("management.opentelemetry.tracing.export.otlp.headers.authorization", "Bearer yaml");
		Map<String, String> env = settings(Map.of("TELEMETRY_SHUTDOWNTIMEOUT", "7s", "TELEMETRY_RUN_ID", "from-env",
				"OTEL_EXPORTER_OTLP_ENDPOINT", "http://env-collector:4318"))
			.forServer("model-0", "model", 0, 1);
		assertThat(env).containsEntry("TELEMETRY_SHUTDOWNTIMEOUT", "7s")
			.doesNotContainKey("TELEMETRY_SHUTDOWN_TIMEOUT")
			.containsEntry("TELEMETRY_RUN_ID", "from-env")
			.containsEntry("OTEL_EXPORTER_OTLP_ENDPOINT", "http://env-collector:4318")
			// the YAML's credentials belong to the YAML's collector, not to the env's
			.doesNotContainKey("OTEL_EXPORTER_OTLP_HEADERS");
	}

	@Test
	void presetServiceNameIsPassedOnAsIs() {
		assertThat(settings(Map.of("OTEL_SERVICE_NAME", "preset")).forServer("model-0", "model", 0, 1))
			.containsEntry("OTEL_SERVICE_NAME", "preset")
			// a group: every server, Gym's and ours, is preset/<server>
			.doesNotContainKey("NEMO_GYM_OTEL_SERVICE_NAME_PER_SERVER");
		// the server's own name: a Gym server must not turn it into model-0/model-0
		assertThat(settings(Map.of()).forServer("model-0", "model", 0, 1))
			.containsEntry("NEMO_GYM_OTEL_SERVICE_NAME_PER_SERVER", "false");
		assertThat(settings(Map.of()).forServer("model-0", "model", 0, 1)).containsEntry("OTEL_SERVICE_NAME",
				"model-0");
	}

	@Test
	void telemetryOffTurnsTheWholeFleetOff() {
		this.yaml.setProperty("telemetry.enabled", "false");
		this.yaml.setProperty("management.opentelemetry.tracing.export.otlp.endpoint",
				"http://collector:4318/v1/traces");
		ChildTelemetrySettings settings = settings(Map.of("TELEMETRY_ENABLED", "true"));
		assertThat(settings.enabled()).isFalse();
		assertThat(settings.forServer("model-0", "model", 0, 1))
			.containsExactly(Map.entry("TELEMETRY_ENABLED", "false"), Map.entry("NEMO_GYM_OTEL_ENABLED", "0"));
	}

	@Test
	void bootsTracesEndpointBecomesTheStandardBaseUrl() {
		this.yaml.setProperty("management.opentelemetry.tracing.export.otlp.endpoint",
				"http://collector:4318/v1/traces");
		assertThat(settings(Map.of()).forServer("a", null, 0, 1)).containsEntry("OTEL_EXPORTER_OTLP_ENDPOINT",
				"http://collector:4318");
	}

	@Test
	void anEndpointWithItsOwnPathIsPassedForTracesOnly() {
		this.yaml.setProperty("management.opentelemetry.tracing.export.otlp.endpoint", "https://gateway/otel/traces");
		assertThat(settings(Map.of()).forServer("a", null, 0, 1))
			.containsEntry("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "https://gateway/otel/traces")
			.doesNotContainKey("OTEL_EXPORTER_OTLP_ENDPOINT");
	}

	@Test
	void grpcEndpointKeepsItsProtocol() {
		this.yaml.setProperty("management.opentelemetry.tracing.export.otlp.endpoint", "http://collector:4317");
		this.yaml.setProperty("management.opentelemetry.tracing.export.otlp.transport", "grpc");
		assertThat(settings(Map.of()).forServer("a", null, 0, 1))
			.containsEntry("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4317")
			.containsEntry("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc");
	}

	@Test
	void headersArePassedPercentEncoded() {
		this.yaml.setProperty("management.opentelemetry.tracing.export.otlp.endpoint",
				"http://collector:4318/v1/traces");
		this.yaml.setProperty("management.opentelemetry.tracing.export.otlp.headers.authorization",
				"Bearer " + SECRET);
		String headers = settings(Map.of()).forServer("a", null, 0, 1).get("OTEL_EXPORTER_OTLP_HEADERS");
		assertThat(headers).isEqualTo("authorization=Bearer%20" + SECRET);
		assertThat(OtelListValues.parsePairs(headers).pairs()).containsExactly(Map.entry("authorization", "Bearer " + SECRET));
	}

	@Test
	void aBadEndpointIsReportedByItsPropertyAndNotPassedOn() {
		this.yaml.setProperty("management.opentelemetry.tracing.export.otlp.endpoint", "collector:4318");
		this.yaml.setProperty("management.opentelemetry.tracing.export.otlp.headers.authorization",
				"Bearer " + SECRET);
		ChildTelemetrySettings settings = settings(Map.of());
		assertThat(settings.problems()).singleElement()
			.asString()
			.startsWith("management.opentelemetry.tracing.export.otlp.endpoint ")
			.contains("not an http or https URL")
			.doesNotContain("collector:4318");
		assertThat(settings.forServer("a", null, 0, 1)).doesNotContainKeys("OTEL_EXPORTER_OTLP_ENDPOINT",
				"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_HEADERS");
	}

	@Test
	void aBadHeaderIsReportedByItsPropertyWithoutItsValue() {
		this.yaml.setProperty("management.opentelemetry.tracing.export.otlp.endpoint",
				"http://collector:4318/v1/traces");
		this.yaml.setProperty("management.opentelemetry.tracing.export.otlp.headers[x token]", SECRET);
		ChildTelemetrySettings settings = settings(Map.of());
		assertThat(settings.problems()).singleElement()
			.asString()
			.isEqualTo("management.opentelemetry.tracing.export.otlp.headers: 'x token' is not a valid header name");
		assertThat(settings.forServer("a", null, 0, 1)).doesNotContainKey("OTEL_EXPORTER_OTLP_HEADERS");
	}

	@Test
	void badHeaderSyntaxInTheSupervisorsEnvIsReportedByTheVariable() {
		ChildTelemetrySettings settings = settings(Map.of("OTEL_EXPORTER_OTLP_HEADERS", "authorization:" + SECRET));
		assertThat(settings.problems()).singleElement()
			.asString()
			.isEqualTo("OTEL_EXPORTER_OTLP_HEADERS: entry 1 is not key=value");
	}

	@Test
	void anUnparsableSettingIsReportedByItsProperty() {
		this.yaml.setProperty("telemetry.shutdown-timeout", "soon");
		ChildTelemetrySettings settings = settings(Map.of());
		assertThat(settings.problems()).containsExactly("telemetry.shutdown-timeout is not a valid Duration");
		assertThat(settings.forServer("a", null, 0, 1)).doesNotContainKey("TELEMETRY_SHUTDOWN_TIMEOUT");
	}

	@Test
	void problemsAreLoggedOnceAndSecretsNever(CapturedOutput output) {
		this.yaml.setProperty("management.opentelemetry.tracing.export.otlp.endpoint",
				"http://collector:4318/v1/traces");
		this.yaml.setProperty("management.opentelemetry.tracing.export.otlp.headers.authorization",
				"Bearer " + SECRET);
		this.yaml.setProperty("management.opentelemetry.tracing.export.otlp.headers[bad name]", SECRET);
		ChildTelemetrySettings settings = settings(Map.of("OTEL_RESOURCE_ATTRIBUTES", "token=" + SECRET + ",x"));
		settings.validate();
		settings.validate();
		assertThat(output).containsOnlyOnce("'bad name' is not a valid header name")
			.containsOnlyOnce("OTEL_RESOURCE_ATTRIBUTES: entry 2 is not key=value")
			.doesNotContain(SECRET);
		assertThat(settings.toString()).doesNotContain(SECRET);
		assertThat(settings.problems()).noneMatch((problem) -> problem.contains(SECRET));
	}

	@Test
	void eachServerGetsItsOwnIdentityAndTheFleetsAttributes() {
		this.yaml.setProperty("telemetry.run-id", "run-7");
		this.yaml.setProperty("telemetry.resource-attributes.team", "rl");
		this.yaml.setProperty("management.opentelemetry.resource-attributes.deployment.environment", "staging");
		// what the supervisor says about itself is not passed on
		this.yaml.setProperty("management.opentelemetry.resource-attributes[process.pid]", "4242");
		this.yaml.setProperty("management.opentelemetry.resource-attributes[nv.dl.rank]", "9");
		ChildTelemetrySettings settings = settings(Map.of());
		assertThat(OtelListValues.parsePairs(settings.forServer("model-1", "model", 1, 2).get("OTEL_RESOURCE_ATTRIBUTES"))
			.pairs()).containsOnly(Map.entry("team", "rl"), Map.entry("nemo.run.id", "run-7"),
					Map.entry("nv.dl.run_id", "run-7"),
					Map.entry("deployment.environment", "staging"), Map.entry("nv.dl.rank", "1"),
					Map.entry("nv.dl.world_size", "2"), Map.entry("rl.worker_group", "model"));
	}

	@Test
	void resourceAttributesInTheSupervisorsEnvArePassedOnUnchanged() {
		assertThat(settings(Map.of("OTEL_RESOURCE_ATTRIBUTES", "team=rl")).forServer("model-1", "model", 1, 2))
			.containsEntry("OTEL_RESOURCE_ATTRIBUTES", "team=rl");
	}

	@Test
	void oneRunIdForTheWholeFleet() {
		ChildTelemetrySettings settings = settings(Map.of());
		Map<String, String> first = settings.forServer("model-0", "model", 0, 2);
		Map<String, String> second = settings.forServer("model-1", "model", 1, 2);
		String runId = first.get("NEMO_GYM_OTEL_RUN_ID");
		assertThat(runId).matches("[0-9a-f]{12}");
		assertThat(first).containsEntry("TELEMETRY_RUN_ID", runId);
		assertThat(second).containsEntry("NEMO_GYM_OTEL_RUN_ID", runId).containsEntry("TELEMETRY_RUN_ID", runId);
		assertThat(OtelListValues.parsePairs(second.get("OTEL_RESOURCE_ATTRIBUTES")).pairs()).containsEntry("nemo.run.id",
				runId);
	}

	@Test
	void runIdFollowsGymsRuleAndNeverReplacesTheSupervisorsEnv() {
		assertThat(settings(Map.of("SLURM_JOB_ID", "77")).forServer("a", null, 0, 1))
			.containsEntry("NEMO_GYM_OTEL_RUN_ID", "77")
			.containsEntry("TELEMETRY_RUN_ID", "77");
		assertThat(settings(Map.of("NEMO_GYM_OTEL_RUN_ID", "gym-run", "SLURM_JOB_ID", "77")).forServer("a", null, 0, 1))
			.containsEntry("NEMO_GYM_OTEL_RUN_ID", "gym-run")
			.containsEntry("TELEMETRY_RUN_ID", "gym-run");
		this.yaml.setProperty("telemetry.run-id", "ours");
		assertThat(settings(Map.of("NEMO_GYM_OTEL_RUN_ID", "preset")).forServer("a", null, 0, 1))
			.containsEntry("NEMO_GYM_OTEL_RUN_ID", "preset")
			.containsEntry("TELEMETRY_RUN_ID", "ours");
	}

	@Test
	void aGymServerIsToldInItsOwnWords() {
		this.yaml.setProperty("management.opentelemetry.tracing.export.otlp.endpoint",
				"http://collector:4318/v1/traces");
		ChildTelemetrySettings settings = settings(Map.of());
		Map<String, String> first = settings.forServer("py-0", "py", 0, 2);
		assertThat(first).containsEntry("NEMO_GYM_OTEL_ENABLED", "1")
			.containsEntry("NEMO_GYM_CONFIG_PATH", "py-0")
			.containsEntry("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318")
			.containsEntry("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf");
		assertThat(settings.forServer("py-1", "py", 1, 2).get("NEMO_GYM_OTEL_RUN_ID"))
			.isEqualTo(first.get("NEMO_GYM_OTEL_RUN_ID"))
			.isNotBlank();
		assertThat(settings(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://env:4318")).forServer("py-0", "py", 0, 1))
			.containsEntry("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf");
	}

	/**
	 * A supervisor that is itself a NeMo process (here with a gRPC sender: Boot's OpenTelemetry is
	 * on the test class path) speaks gRPC to an endpoint without a protocol, as its Python
	 * servers do, and says so to its servers; told nothing NeMo, it speaks and hands OTLP/HTTP.
	 */
	@Test
	void aSupervisorHandsTheProtocolItSpeaksItself() {
		assertThat(settings(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://env:4317", "NEMO_GYM_OTEL_SPAN_GROUPS",
				"default")).forServer("py-0", "py", 0, 1))
			.containsEntry("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc");
		assertThat(settings(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://env:4318", "NEMO_GYM_STARTUP_SPAWN_NS", "1"))
			.forServer("py-0", "py", 0, 1)).containsEntry("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf");
	}

	@Test
	void spanGroupsArePassedOnInBothWords() {
		this.yaml.setProperty("telemetry.span-groups", "per_rollout");
		assertThat(settings(Map.of()).forServer("py-0", "py", 0, 1)).containsEntry("TELEMETRY_SPAN_GROUPS", "per_rollout")
			.containsEntry("NEMO_GYM_OTEL_SPAN_GROUPS", "per_rollout");
	}

	@Test
	void aPresetSupervisorEnvValueIsNeverReplaced() {
		Map<String, String> supervisorEnv = Map.of("NEMO_GYM_OTEL_ENABLED", "yes", "OTEL_EXPORTER_OTLP_ENDPOINT",
				"http://env:4317", "OTEL_EXPORTER_OTLP_PROTOCOL", "grpc", "NEMO_GYM_OTEL_RUN_ID", "preset");
		Map<String, String> child = settings(supervisorEnv).forServer("py-0", "py", 0, 1);
		assertThat(child).containsEntry("NEMO_GYM_OTEL_ENABLED", "yes")
			.containsEntry("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")
			.containsEntry("NEMO_GYM_OTEL_RUN_ID", "preset");
		// what a supervisor adds on top of its own env (which the server inherits as it is)
		Map<String, String> added = ServerEnvBuilder.of(supervisorEnv).settings(child).toMap();
		assertThat(added).doesNotContainKeys("NEMO_GYM_OTEL_ENABLED", "OTEL_EXPORTER_OTLP_PROTOCOL",
				"NEMO_GYM_OTEL_RUN_ID", "OTEL_EXPORTER_OTLP_ENDPOINT");
	}

	private ChildTelemetrySettings settings(Map<String, String> processEnv) {
		return new ChildTelemetrySettings(this.yaml, processEnv);
	}

}
