package io.github.startuptelemetry.lifecycle;

import java.util.Map;

import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.mock.env.MockEnvironment;

import io.github.startuptelemetry.internal.HostName;

import static org.assertj.core.api.Assertions.assertThat;

class ResourceAttributeDefaultsTest {

	private final MockEnvironment environment = new MockEnvironment();

	private final ResourceAttributeDefaults postProcessor = postProcessor();

	@Test
	void addsThisProcesssIdentityToBootsResourceAttributes() {
		this.environment.setProperty("telemetry.rank", "1");
		this.environment.setProperty("telemetry.worker-group", "model");
		this.environment.setProperty("telemetry.run-id", "run-7");
		this.environment.setProperty("telemetry.resource-attributes.team", "rl");
		this.postProcessor.apply(this.environment, Map.of("WORLD_SIZE", "2", "LOCAL_RANK", "0"), 42);
		assertThat(attributes()).containsOnly(Map.entry("nv.dl.rank", "1"), Map.entry("nv.dl.world_size", "2"),
				Map.entry("nv.dl.local_rank", "0"), Map.entry("rl.worker_group", "model"),
				Map.entry("nemo.run.id", "run-7"), Map.entry("nv.dl.run_id", "run-7"), Map.entry("process.pid", "42"),
				// nemo-lens's instance id and host name, as Gym's servers carry them
				Map.entry("service.instance.id", "run-7-rank1"), Map.entry("host.name", HostName.local()),
				// named nowhere: Boot's default, what its summary line calls it too
				Map.entry("service.name", "unknown_service"), Map.entry("team", "rl"));
	}

	@Test
	void aServiceNamedAnywhereKeepsItsName() {
		this.environment.setProperty("spring.application.name", "api");
		this.postProcessor.apply(this.environment, Map.of(), 42);
		assertThat(attributes()).doesNotContainKey("service.name");
		MockEnvironment otel = new MockEnvironment();
		postProcessor().apply(otel, Map.of("OTEL_SERVICE_NAME", "api"), 42);
		assertThat(attributes(otel)).doesNotContainKey("service.name");
	}

	@Test
	void runIdFollowsGymsRule() {
		this.postProcessor.apply(this.environment, Map.of("SLURM_JOB_ID", "1234"), 42);
		assertThat(attributes()).containsEntry("nemo.run.id", "1234").containsEntry("nv.dl.run_id", "1234");
		assertThat(this.environment.getProperty("telemetry.run-id")).isEqualTo("1234");
	}

	@Test
	void slurmsAttributesOnlyInASlurmJob() {
		this.postProcessor.apply(this.environment, Map.of("SLURM_JOB_ID", "4242", "SLURM_CLUSTER_NAME", "eos"), 42);
		assertThat(attributes()).containsEntry("slurm.job.id", "4242").containsKey("nv.dl.job.uuid");
		MockEnvironment withoutJob = new MockEnvironment();
		postProcessor().apply(withoutJob, Map.of("SLURM_JOB_NAME", "train", "SLURM_PROCID", "3"), 42);
		assertThat(attributes(withoutJob)).noneSatisfy((key, value) -> assertThat(key).startsWith("slurm."))
			.doesNotContainKey("nv.dl.job.uuid");
	}

	@Test
	void anEmptyOtelResourceAttributesChangesNothing() {
		for (String empty : new String[] { "", "  " }) {
			MockEnvironment environment = new MockEnvironment();
			environment.setProperty("telemetry.rank", "1");
			postProcessor().apply(environment, Map.of("OTEL_RESOURCE_ATTRIBUTES", empty), 42);
			assertThat(attributes(environment)).as("OTEL_RESOURCE_ATTRIBUTES='%s'", empty)
				.containsEntry("nv.dl.rank", "1")
				.containsEntry("process.pid", "42");
		}
	}

	@Test
	void withoutAnyRunIdThisProcessMintsOne() {
		this.postProcessor.apply(this.environment, Map.of(), 42);
		assertThat(attributes().get("nemo.run.id")).matches("[0-9a-f]{12}");
		assertThat(this.environment.getProperty("telemetry.run-id")).isEqualTo(attributes().get("nemo.run.id"));
	}

	@Test
	void leavesAttributesTheUserSetAlone() {
		this.environment.setProperty("management.opentelemetry.resource-attributes.nv.dl.rank", "user");
		this.environment.setProperty("telemetry.rank", "1");
		this.environment.setProperty("telemetry.world-size", "2");
		this.postProcessor.apply(this.environment, Map.of("OTEL_RESOURCE_ATTRIBUTES", "nv.dl.world_size=8"), 42);
		assertThat(attributes()).containsEntry("nv.dl.rank", "user").doesNotContainKey("nv.dl.world_size");
	}

	@Test
	void anInvalidSettingIsIgnored() {
		this.environment.setProperty("telemetry.rank", "first");
		this.postProcessor.apply(this.environment, Map.of("RANK", "3"), 42);
		assertThat(attributes()).containsEntry("nv.dl.rank", "3").containsEntry("process.pid", "42");
	}

	@Test
	void nothingWhenTelemetryIsOff() {
		this.environment.setProperty("telemetry.enabled", "false");
		this.postProcessor.apply(this.environment, Map.of("RANK", "3"), 42);
		assertThat(attributes()).isEmpty();
	}

	private static ResourceAttributeDefaults postProcessor() {
		return new ResourceAttributeDefaults(LogFactory.getLog(ResourceAttributeDefaults.class));
	}

	private Map<String, String> attributes() {
		return attributes(this.environment);
	}

	private static Map<String, String> attributes(MockEnvironment environment) {
		return Binder.get(environment)
			.bind("management.opentelemetry.resource-attributes", Bindable.mapOf(String.class, String.class))
			.orElse(Map.of());
	}

}
