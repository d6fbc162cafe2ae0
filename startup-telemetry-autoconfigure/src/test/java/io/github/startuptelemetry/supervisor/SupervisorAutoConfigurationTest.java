package io.github.startuptelemetry.supervisor;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Lazy;
import org.springframework.stereotype.Component;

import io.github.startuptelemetry.contract.MetricNames;
import io.github.startuptelemetry.contract.SpanAttributes;
import io.github.startuptelemetry.contract.SpanNames;
import io.github.startuptelemetry.report.ServerReport;
import io.github.startuptelemetry.server.StartupTelemetryAutoConfiguration;
import io.github.startuptelemetry.supervisor.slurm.SlurmLauncherAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** What {@link SupervisorAutoConfiguration} provides, and how a bad fleet fails a start. */
class SupervisorAutoConfigurationTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SupervisorAutoConfiguration.class,
				SupervisorTracingAutoConfiguration.class, FleetLauncherAutoConfiguration.class));

	private final InMemorySpanExporter exporter = InMemorySpanExporter.create();

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
		.setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(this.exporter)).build())
		.build();

	@AfterEach
	void closeSdk() {
		this.sdk.close();
	}

	@Test
	void launchersCanAlwaysAutowireSupervisorStartupAndNoFleetRunsUnlessConfigured() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(SupervisorStartup.class).doesNotHaveBean(FleetLauncher.class);
			assertThat(context.getBean(SupervisorStartup.class)).isInstanceOf(OpenTelemetrySupervisorStartup.class);
		});
		this.runner.withPropertyValues("telemetry.enabled=false")
			.run((context) -> assertThat(context.getBean(SupervisorStartup.class)).isInstanceOf(DisabledSupervisorStartup.class));
		this.runner.withPropertyValues("telemetry.supervisor.servers[0].name=a", "telemetry.supervisor.servers[0].command=x")
			.run((context) -> assertThat(context).hasSingleBean(FleetLauncher.class));
	}

	@Test
	void aLauncherNameNoLauncherHasOrSlurmOutsideAnAllocationFailsTheSupervisorNamingTheProperty() {
		ApplicationContextRunner fleet = this.runner
			.withConfiguration(AutoConfigurations.of(SlurmLauncherAutoConfiguration.class))
			.withPropertyValues("telemetry.supervisor.servers[0].name=a", "telemetry.supervisor.servers[0].command=x");
		fleet.run((context) -> assertThat(context).hasSingleBean(FleetLauncher.class)
			.hasBean("localServerLauncher")
			.hasBean("slurmServerLauncher"));
		fleet.withPropertyValues("telemetry.supervisor.launcher=nope")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("telemetry.supervisor.launcher")
				.hasMessageContaining("no launcher is named 'nope'; known: local, slurm"));
		assumeTrue(System.getenv("SLURM_JOB_ID") == null, "these tests run inside a Slurm allocation");
		fleet.withPropertyValues("telemetry.supervisor.servers[0].launcher=slurm")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("telemetry.supervisor.servers[0].launcher")
				.hasMessageContaining("SLURM_JOB_ID is not set")
				.hasMessageContaining("salloc"));
	}

	@Test
	void withoutAFleetThereIsNoLauncher() {
		this.runner.withConfiguration(AutoConfigurations.of(SlurmLauncherAutoConfiguration.class))
			.run((context) -> assertThat(context).doesNotHaveBean(ServerLauncher.class));
	}

	@Test
	void serversInheritTheSupervisorsExportSettings() {
		this.runner.withPropertyValues("management.opentelemetry.tracing.export.otlp.endpoint=http://collector:4318/v1/traces")
			.run((context) -> assertThat(context.getBean(SupervisorStartup.class).serverEnv("model-0", "model"))
				.containsEntry("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318")
				.containsEntry("OTEL_SERVICE_NAME", "model-0"));
	}

	@Test
	void aSupervisorWithTelemetryOffTurnsItsServersOffToo() {
		this.runner.withPropertyValues("telemetry.enabled=false")
			.run((context) -> assertThat(context.getBean(SupervisorStartup.class).serverEnv("model-0", "model"))
				.containsEntry("TELEMETRY_ENABLED", "false")
				.doesNotContainKeys("NEMO_GYM_STARTUP_TRACEPARENT", "OTEL_EXPORTER_OTLP_ENDPOINT"));
	}

	@Test
	void theSupervisorsZipkinEndpointIsPassedOn() {
		this.runner.withPropertyValues("telemetry.export.zipkin.endpoint=http://127.0.0.1:9411/api/v2/spans")
			.run((context) -> assertThat(context.getBean(SupervisorStartup.class).serverEnv("model-0", "model"))
				.containsEntry("TELEMETRY_EXPORT_ZIPKIN_ENDPOINT", "http://127.0.0.1:9411/api/v2/spans"));
	}

	@Test
	void theHtmlReportGoesToTheWorkingDirectoryByDefault() {
		this.runner.withPropertyValues("telemetry.supervisor.servers[0].name=a", "telemetry.supervisor.servers[0].command=x")
			.run((context) -> assertThat(context.getBean(SupervisorProperties.class).getReport().getHtml())
				.isEqualTo(Path.of("startup-report.html")));
	}

	@Test
	void aServerWithoutCommandFailsTheStartNamingTheProperty() {
		assertFailure("servers[1].command", "must not be empty", "telemetry.supervisor.servers[0].name=a",
				"telemetry.supervisor.servers[0].command=x", "telemetry.supervisor.servers[1].name=b");
	}

	@Test
	void aDuplicateNameFailsTheStartNamingTheProperty() {
		assertFailure("servers[1].name", "'model-1' is already taken by telemetry.supervisor.servers[0]",
				"telemetry.supervisor.servers[0].name=model", "telemetry.supervisor.servers[0].replicas=2",
				"telemetry.supervisor.servers[0].command=x", "telemetry.supervisor.servers[1].name=model-1",
				"telemetry.supervisor.servers[1].command=x");
	}

	@Test
	void aBadHealthUrlFailsTheStartNamingTheProperty() {
		assertFailure("servers[0].health-url", "must be an absolute http or https URL",
				"telemetry.supervisor.servers[0].name=a", "telemetry.supervisor.servers[0].command=x",
				"telemetry.supervisor.servers[0].health-url=localhost:{port}/health");
	}

	@Test
	void noReplicasFailsTheStartNamingTheProperty() {
		assertFailure("servers[0].replicas", "must be at least 1", "telemetry.supervisor.servers[0].name=a",
				"telemetry.supervisor.servers[0].command=x", "telemetry.supervisor.servers[0].replicas=0");
	}

	@Test
	void aBadRegressionThresholdOrBaselineFailsTheStartNamingTheProperty() {
		assertFailure("report.max-regression", "'fast' is neither a percentage nor a duration",
				"telemetry.supervisor.servers[0].name=a",
				"telemetry.supervisor.servers[0].command=x", "telemetry.supervisor.report.max-regression=fast");
		assertFailure("report.stage-max-regression[beans_instantiated]", "must be a percentage of at least 0%",
				"telemetry.supervisor.servers[0].name=a",
				"telemetry.supervisor.servers[0].command=x", "telemetry.supervisor.report.stage-max-regression.beans_instantiated=-5%");
		assertFailure("report.baseline[0]", "is not a readable startup report: /nonexistent/base.json",
				"telemetry.supervisor.servers[0].name=a",
				"telemetry.supervisor.servers[0].command=x", "telemetry.supervisor.report.baseline=/nonexistent/base.json");
	}

	@ParameterizedTest
	@ValueSource(strings = { "-1", "65536" })
	void aPortOutOfRangeFailsTheStartNamingTheProperty(String port) {
		assertFailure("servers[0].port", "must be 0 (the server binds any free port",
				"telemetry.supervisor.servers[0].name=a", "telemetry.supervisor.servers[0].command=x",
				"telemetry.supervisor.servers[0].port=" + port);
	}

	@Test
	void aFixedPortForReplicasFailsTheStartNamingTheProperty() {
		assertFailure("servers[0].port", "for a single server, a port from 1 to 65535",
				"telemetry.supervisor.servers[0].name=a", "telemetry.supervisor.servers[0].command=x",
				"telemetry.supervisor.servers[0].replicas=2", "telemetry.supervisor.servers[0].port=8080");
	}

	@Test
	void portZeroForReplicasAndAFixedPortForOneServerAreFine() {
		this.runner
			.withPropertyValues("telemetry.supervisor.servers[0].name=a", "telemetry.supervisor.servers[0].command=x",
					"telemetry.supervisor.servers[0].replicas=3", "telemetry.supervisor.servers[0].port=0",
					"telemetry.supervisor.servers[1].name=b", "telemetry.supervisor.servers[1].command=x",
					"telemetry.supervisor.servers[1].port=8080")
			.run((context) -> assertThat(context.getBean(SupervisorProperties.class).getServers())
				.extracting(SupervisorProperties.Server::getPort)
				.containsExactly(0, 8080));
	}

	@ParameterizedTest
	@ValueSource(strings = { "$(touch pwned)", "a;b", "`id`", "it's", "a\"b", "../up", "a b", "-flag", ".hidden" })
	void aNameOrTypeAShellOrFileSystemWouldReadAsSyntaxFailsTheStart(String unsafe) {
		assertFailure("servers[0].name", "must be letters, digits, '.', '_' and '-'",
				"telemetry.supervisor.servers[0].name=" + unsafe, "telemetry.supervisor.servers[0].command=x");
		assertFailure("servers[0].type", "it names the server's log file and may be pasted into its setup command",
				"telemetry.supervisor.servers[0].name=a", "telemetry.supervisor.servers[0].type=" + unsafe,
				"telemetry.supervisor.servers[0].command=x");
	}

	@Test
	void aLauncherUsingSupervisorStartupTakesTheProcessTimelineOver() {
		try (ConfigurableApplicationContext context = application(LauncherApplication.class)) {
			SupervisorStartup startup = context.getBean(LauncherApplication.Launcher.class).startup();
			startup.beginTrace();
			startup.finish();
		}
		SpanData root = only(SpanNames.SUPERVISOR_ROOT);
		List<SpanData> stages = this.exporter.getFinishedSpanItems()
			.stream()
			.filter((span) -> span.getParentSpanId().equals(root.getSpanId()))
			.toList();
		assertThat(stages).extracting(SpanData::getName)
			.containsSubsequence("gym.startup.environment_prepared", "gym.startup.context_prepared",
					"gym.startup.beans_instantiated", "gym.startup.context_refreshed",
					"gym.startup.application_started", "gym.startup.application_ready");
		assertThat(stages).extracting(SpanData::getStartEpochNanos).contains(root.getStartEpochNanos());
		assertThat(this.exporter.getFinishedSpanItems()).noneMatch((span) -> span.getName().startsWith("gym.server"));
	}

	/**
	 * Whether a process is a supervisor follows from its bean definitions: a launcher that gets
	 * its SupervisorStartup lazily, and first uses it after the application is ready, decides
	 * exactly like one that has it injected at creation.
	 */
	@ParameterizedTest
	@ValueSource(classes = { LauncherApplication.class, ProviderLauncherApplication.class,
			LazyLauncherApplication.class, FieldLauncherApplication.class })
	void eagerAndLazyLaunchersMakeTheSameSupervisor(Class<?> application) {
		try (ConfigurableApplicationContext context = application(application)) {
			// the supervisor's lazy metrics, created and warmed up by its role while the context refreshed
			assertThat(context.getBeanFactory().containsSingleton("supervisorStartupMetrics")).isTrue();
			assertThat(((SupervisorStartupMetrics) context.getBean("supervisorStartupMetrics")).warmingUp()).isTrue();
			SupervisorStartup startup = context.getBean(StartupSource.class).startup();
			startUpOneServer(startup);
		}
		assertThat(this.registry.find(MetricNames.STARTUP_DURATION).tag(SpanAttributes.SERVER_NAME, "model-0").summary())
			.as("recorded by the startup's metrics listener").isNotNull();
		SpanData root = only(SpanNames.SUPERVISOR_ROOT);
		assertThat(this.exporter.getFinishedSpanItems())
			.filteredOn((span) -> span.getParentSpanId().equals(root.getSpanId()))
			.extracting(SpanData::getName)
			.contains("gym.startup.context_prepared", "gym.startup.application_ready");
		assertThat(this.exporter.getFinishedSpanItems()).noneMatch((span) -> span.getName().startsWith("gym.server"));
	}

	@Test
	void anApplicationsOwnServerListenerRunsBesideTheMetrics() {
		try (ConfigurableApplicationContext context = application(ListeningLauncherApplication.class)) {
			startUpOneServer(context.getBean(StartupSource.class).startup());
			assertThat(context.getBean(ListeningLauncherApplication.class).seen).containsExactly("model-0");
		}
		assertThat(this.registry.find(MetricNames.STARTUP_DURATION).tag(SpanAttributes.SERVER_NAME, "model-0").summary()).isNotNull();
	}

	@Test
	void aPlainServersOwnConsumersAreNotHandedTheSupervisorsMetrics() {
		try (ConfigurableApplicationContext context = application(ConsumingServerApplication.class)) {
			assertThat(context.getBean(ConsumingServerApplication.Hooks.class).hooks()).isEmpty();
			assertThat(context.getBeanFactory().containsSingleton("supervisorStartupMetrics")).isFalse();
		}
	}

	private static void startUpOneServer(SupervisorStartup startup) {
		startup.beginTrace();
		startup.serverEnv("model-0", "model");
		startup.serverReady("model-0");
		startup.finish();
	}

	@Test
	void anApplicationThatNeverUsesSupervisorStartupStillReportsItselfAsAServer() {
		try (ConfigurableApplicationContext context = application(ServerApplication.class)) {
			assertThat(only(SpanNames.SERVER_ROOT)).isNotNull();
			assertThat(context.getBeanFactory().containsSingleton("supervisorStartupMetrics")).isFalse();
		}
		assertThat(this.exporter.getFinishedSpanItems()).noneMatch((span) -> span.getName().startsWith("gym.startup"));
	}

	private ConfigurableApplicationContext application(Class<?> source) {
		return new SpringApplicationBuilder(source).web(WebApplicationType.NONE)
			.initializers((context) -> {
				context.getBeanFactory().registerSingleton("openTelemetry", this.sdk);
				context.getBeanFactory().registerSingleton("meterRegistry", this.registry);
			})
			.run("--spring.main.banner-mode=off", "--telemetry.startup.log-summary=false");
	}

	private SpanData only(String name) {
		List<SpanData> spans = this.exporter.getFinishedSpanItems()
			.stream()
			.filter((span) -> span.getName().equals(name))
			.toList();
		assertThat(spans).hasSize(1);
		return spans.get(0);
	}

	private void assertFailure(String field, String reason, String... properties) {
		this.runner.withPropertyValues(properties).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("on field '" + field + "'")
				.hasMessageContaining(reason);
		});
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ StartupTelemetryAutoConfiguration.class, SupervisorAutoConfiguration.class,
			SupervisorTracingAutoConfiguration.class, FleetLauncherAutoConfiguration.class })
	static class ServerApplication {

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ StartupTelemetryAutoConfiguration.class, SupervisorAutoConfiguration.class,
			SupervisorTracingAutoConfiguration.class, FleetLauncherAutoConfiguration.class })
	static class LauncherApplication {

		/** A launcher of its own: autowiring SupervisorStartup makes this process a supervisor. */
		@Bean
		Launcher launcher(SupervisorStartup startup) {
			return new Launcher(startup);
		}

		record Launcher(SupervisorStartup startup) implements StartupSource {

		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ StartupTelemetryAutoConfiguration.class, SupervisorAutoConfiguration.class,
			SupervisorTracingAutoConfiguration.class, FleetLauncherAutoConfiguration.class })
	static class ListeningLauncherApplication {

		final List<String> seen = new CopyOnWriteArrayList<>();

		@Bean
		StartupSource launcher(SupervisorStartup startup) {
			return () -> startup;
		}

		/** A server listener of the application's own, as architecture.md says one may add. */
		@Bean
		Consumer<ServerReport> serverNames() {
			return (server) -> this.seen.add(server.name());
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ StartupTelemetryAutoConfiguration.class, SupervisorAutoConfiguration.class,
			SupervisorTracingAutoConfiguration.class, FleetLauncherAutoConfiguration.class })
	static class ConsumingServerApplication {

		/** Consumers of its own kind, of which it has none. */
		@Bean
		Hooks hooks(ObjectProvider<Consumer<String>> hooks) {
			return new Hooks(hooks.orderedStream().toList());
		}

		record Hooks(List<Consumer<String>> hooks) {

		}

	}

	/** Where a test launcher gets its SupervisorStartup from, asked only after the start. */
	interface StartupSource {

		SupervisorStartup startup();

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ StartupTelemetryAutoConfiguration.class, SupervisorAutoConfiguration.class,
			SupervisorTracingAutoConfiguration.class, FleetLauncherAutoConfiguration.class })
	static class ProviderLauncherApplication {

		/** Resolves SupervisorStartup only when first used, after the application is ready. */
		@Bean
		StartupSource launcher(ObjectProvider<SupervisorStartup> startup) {
			return startup::getObject;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ StartupTelemetryAutoConfiguration.class, SupervisorAutoConfiguration.class,
			SupervisorTracingAutoConfiguration.class, FleetLauncherAutoConfiguration.class })
	static class LazyLauncherApplication {

		/** A lazy-resolution proxy: the SupervisorStartup bean is created at its first call. */
		@Bean
		StartupSource launcher(@Lazy SupervisorStartup startup) {
			return () -> startup;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ StartupTelemetryAutoConfiguration.class, SupervisorAutoConfiguration.class,
			SupervisorTracingAutoConfiguration.class, FleetLauncherAutoConfiguration.class })
	@Import(FieldLauncher.class)
	static class FieldLauncherApplication {

	}

	/** {@code @Autowired} on a field of a lazy component, as a launcher author might write it. */
	@Component
	@Lazy
	static class FieldLauncher implements StartupSource {

		@Autowired
		private ObjectProvider<SupervisorStartup> startup;

		@Override
		public SupervisorStartup startup() {
			return this.startup.getObject();
		}

	}

}
