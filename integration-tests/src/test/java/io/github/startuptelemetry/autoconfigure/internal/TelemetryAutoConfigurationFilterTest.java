package io.github.startuptelemetry.autoconfigure.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurationImportFilter;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnCloudPlatform;
import org.springframework.boot.autoconfigure.condition.ConditionEvaluationReport;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.cloud.CloudPlatform;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.autoconfigure.ConditionalOnTelemetryEnabled;
import io.github.startuptelemetry.fleet.FleetLauncherAutoConfiguration;
import io.github.startuptelemetry.launch.ConditionalOnFleet;
import io.github.startuptelemetry.launch.kubernetes.KubernetesLauncherAutoConfiguration;
import io.github.startuptelemetry.launch.local.LocalLauncherAutoConfiguration;
import io.github.startuptelemetry.launch.slurm.SlurmLauncherAutoConfiguration;
import io.github.startuptelemetry.server.StartupTelemetryAutoConfiguration;
import io.github.startuptelemetry.server.kubernetes.PodStagesAutoConfiguration;
import io.github.startuptelemetry.supervisor.SupervisorAutoConfiguration;
import io.github.startuptelemetry.supervisor.SupervisorStartup;

/** What {@link TelemetryAutoConfigurationFilter} drops, what it keeps, and that Boot asks it. */
class TelemetryAutoConfigurationFilterTest {

	private static final String SUPERVISOR = SupervisorAutoConfiguration.class.getName();

	private static final String FLEET = FleetLauncherAutoConfiguration.class.getName();

	private static final String SLURM = SlurmLauncherAutoConfiguration.class.getName();

	private static final String LOCAL = LocalLauncherAutoConfiguration.class.getName();

	private static final String SERVER = StartupTelemetryAutoConfiguration.class.getName();

	private static final String KUBERNETES = KubernetesLauncherAutoConfiguration.class.getName();

	private static final String POD_STAGES = PodStagesAutoConfiguration.class.getName();

	private static final String BOOTS = "org.springframework.boot.opentelemetry.autoconfigure.OpenTelemetrySdkAutoConfiguration";

	@Test
	void offDropsTheTelemetryOnesAndKeepsTheSupervisorsApiAndAnythingNotOurs() {
		List<String> ours = imports();
		List<String> kept = kept(new MockEnvironment().withProperty("telemetry.enabled", "false"), ours, BOOTS);
		assertThat(kept).containsExactly(SUPERVISOR, BOOTS);
		assertThat(kept(new MockEnvironment().withProperty("telemetry.enabled", " OFF "), ours)).containsExactly(SUPERVISOR);
	}

	@Test
	void onWithoutAFleetDropsOnlyTheFleetsOwn() {
		List<String> ours = imports();
		List<String> expected = ours.stream()
			.filter((name) -> !name.equals(FLEET) && !name.equals(SLURM) && !name.equals(LOCAL)
					&& !name.equals(KUBERNETES) && !name.equals(POD_STAGES))
			.toList();
		assertThat(kept(new MockEnvironment(), ours)).isEqualTo(expected);
		// not a boolean: on, as TelemetrySwitch reads it (the condition still decides)
		assertThat(kept(new MockEnvironment().withProperty("telemetry.enabled", "maybe"), ours)).isEqualTo(expected);
	}

	@Test
	void anIncompleteFleetIsKeptSoThatItFailsValidationAndTelemetryOffStillRunsIt() {
		assertThat(kept(new MockEnvironment().withProperty("telemetry.supervisor.servers[0].name", "a"), imports()))
			.contains(FLEET, LOCAL, SLURM, KUBERNETES, SUPERVISOR);
		assertThat(kept(new MockEnvironment().withProperty("telemetry.supervisor.fleet.servers", "x")
			.withProperty("telemetry.enabled", "false"), imports()))
			.containsExactly(SUPERVISOR, FLEET, LOCAL, SLURM, KUBERNETES);
	}

	@Test
	void aServersPodStagesOnlyWhereBootMightDetectKubernetesAndWithTelemetryOn() {
		assertThat(kept(new MockEnvironment().withProperty("KUBERNETES_SERVICE_HOST", "10.96.0.1"), imports()))
			.contains(POD_STAGES);
		assertThat(kept(new MockEnvironment().withProperty("spring.main.cloud-platform", "kubernetes"), imports()))
			.contains(POD_STAGES);
		assertThat(kept(new MockEnvironment().withProperty("KUBERNETES_SERVICE_HOST", "10.96.0.1")
			.withProperty("telemetry.enabled", "false"), imports())).doesNotContain(POD_STAGES);
		assertThat(kept(new MockEnvironment(), imports())).doesNotContain(POD_STAGES);
	}

	@Test
	void nullCandidatesAndAMissingEnvironmentKeepEverything() {
		TelemetryAutoConfigurationFilter filter = new TelemetryAutoConfigurationFilter();
		assertThat(filter.match(new String[] { SERVER, null, SLURM }, null)).containsExactly(true, true, true);
		filter.setEnvironment(new MockEnvironment().withProperty("telemetry.enabled", "false"));
		assertThat(filter.match(new String[] { null, SERVER, "io.github.startuptelemetry.Other" }, null))
			.containsExactly(true, false, true);
	}

	@Test
	void everyAutoConfigurationOfOursIsListedWithTheConditionItIsDroppedFor() throws Exception {
		Set<String> listed = new HashSet<>(TelemetryAutoConfigurationFilter.TELEMETRY_ONLY);
		listed.addAll(TelemetryAutoConfigurationFilter.FLEET_ONLY);
		listed.addAll(TelemetryAutoConfigurationFilter.KUBERNETES_ONLY);
		listed.add(SUPERVISOR);
		List<String> launchers = imports().stream()
			.filter((name) -> name.startsWith(TelemetryAutoConfigurationFilter.LAUNCHERS))
			.toList();
		assertThat(launchers).contains(LOCAL, SLURM, KUBERNETES);
		listed.addAll(launchers);
		assertThat(imports()).containsExactlyInAnyOrderElementsOf(listed);
		for (String name : TelemetryAutoConfigurationFilter.TELEMETRY_ONLY) {
			assertThat(MergedAnnotations.from(Class.forName(name)).isPresent(ConditionalOnTelemetryEnabled.class))
				.as(name).isTrue();
		}
		for (String name : TelemetryAutoConfigurationFilter.KUBERNETES_ONLY) {
			MergedAnnotations annotations = MergedAnnotations.from(Class.forName(name));
			assertThat(annotations.isPresent(ConditionalOnTelemetryEnabled.class)).as(name).isTrue();
			assertThat(annotations.get(ConditionalOnCloudPlatform.class).getEnum("value", CloudPlatform.class))
				.as(name).isEqualTo(CloudPlatform.KUBERNETES);
		}
		for (String name : listed) {
			if (TelemetryAutoConfigurationFilter.FLEET_ONLY.contains(name) || launchers.contains(name)) {
				assertThat(Class.forName(name).isAnnotationPresent(ConditionalOnFleet.class)).as(name).isTrue();
			}
		}
		assertThat(SpringFactoriesLoader.loadFactories(AutoConfigurationImportFilter.class, null))
			.hasAtLeastOneElementOfType(TelemetryAutoConfigurationFilter.class);
	}

	@Test
	void bootAsksTheFilterBeforeItReadsAClassFile() {
		try (ConfigurableApplicationContext off = start(Imports.class, "--telemetry.enabled=false")) {
			// dropped by the filter: never parsed, so no condition of it is in the report
			assertThat(ConditionEvaluationReport.get(off.getBeanFactory()).getConditionAndOutcomesBySource())
				.doesNotContainKeys(SERVER, FLEET, LOCAL, SLURM);
			// a launcher of the user's still gets the do-nothing startup
			assertThat(off.getBean(SupervisorStartup.class).getClass().getSimpleName())
				.isEqualTo("DisabledSupervisorStartup");
		}
		try (ConfigurableApplicationContext on = start(Imports.class)) {
			assertThat(ConditionEvaluationReport.get(on.getBeanFactory()).getConditionAndOutcomesBySource())
				.containsKey(SERVER)
				.doesNotContainKeys(FLEET, LOCAL, SLURM);
		}
	}

	private static ConfigurableApplicationContext start(Class<?> source, String... args) {
		String[] all = Arrays.copyOf(args, args.length + 2);
		all[args.length] = "--spring.main.banner-mode=off";
		all[args.length + 1] = "--telemetry.startup.log-summary=false";
		return new SpringApplicationBuilder(source).web(WebApplicationType.NONE).run(all);
	}

	private static List<String> kept(MockEnvironment environment, List<String> ours, String... others) {
		String[] candidates = new String[ours.size() + others.length];
		ours.toArray(candidates);
		System.arraycopy(others, 0, candidates, ours.size(), others.length);
		TelemetryAutoConfigurationFilter filter = new TelemetryAutoConfigurationFilter();
		filter.setEnvironment(environment);
		boolean[] match = filter.match(candidates, null);
		return java.util.stream.IntStream.range(0, candidates.length)
			.filter((i) -> match[i])
			.mapToObj((i) -> candidates[i])
			.toList();
	}

	/** The three modules' imports files, in module order (a server's, the fleet's, Kubernetes'). */
	private static List<String> imports() {
		List<String> modules = List.of("startup-telemetry-autoconfigure", "startup-telemetry-fleet",
				"startup-telemetry-kubernetes");
		try {
			List<java.net.URL> files = java.util.Collections.list(TelemetryAutoConfigurationFilterTest.class.getClassLoader()
				.getResources("META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports"));
			List<String> names = new java.util.ArrayList<>();
			for (String module : modules) {
				java.net.URL file = files.stream()
					.filter((url) -> url.toString().contains("/" + module + "/") || url.toString().contains("/" + module + "-"))
					.findFirst()
					.orElseThrow(() -> new IllegalStateException("no imports file of " + module + " in " + files));
				try (InputStream in = file.openStream()) {
					new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
						.map(String::strip)
						.filter((line) -> !line.isEmpty() && !line.startsWith("#"))
						.forEach(names::add);
				}
			}
			return names;
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ StartupTelemetryAutoConfiguration.class, SupervisorAutoConfiguration.class,
			FleetLauncherAutoConfiguration.class, LocalLauncherAutoConfiguration.class,
			SlurmLauncherAutoConfiguration.class })
	static class Imports {

	}

}
