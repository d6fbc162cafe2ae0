package io.github.startuptelemetry.supervisor;

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

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.startuptelemetry.contract.MetricNames;
import io.github.startuptelemetry.contract.SpanAttributes;
import io.github.startuptelemetry.contract.SpanNames;
import io.github.startuptelemetry.report.ServerReport;
import io.github.startuptelemetry.server.StartupTelemetryAutoConfiguration;

/** What {@link SupervisorAutoConfiguration} provides, and when a process is a supervisor. */
class SupervisorAutoConfigurationTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SupervisorAutoConfiguration.class,
				SupervisorTracingAutoConfiguration.class));

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
	void launchersCanAlwaysAutowireSupervisorStartup() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(SupervisorStartup.class);
			assertThat(context.getBean(SupervisorStartup.class)).isInstanceOf(OpenTelemetrySupervisorStartup.class);
		});
		this.runner.withPropertyValues("telemetry.enabled=false")
			.run((context) -> assertThat(context.getBean(SupervisorStartup.class)).isInstanceOf(DisabledSupervisorStartup.class));
	}

	@Test
	void theRoleIsABeanOnlyWhereABeanDeclaresSupervisorStartup() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(SupervisorRole.class)
			.hasSingleBean(SupervisorStartup.class));
		this.runner.withUserConfiguration(ProvidedLauncher.class)
			.run((context) -> assertThat(context).hasSingleBean(SupervisorRole.class));
		this.runner.withUserConfiguration(ProvidedLauncher.class)
			.withPropertyValues("telemetry.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(SupervisorRole.class));
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
			assertThat(context.getBeanFactory().containsSingleton("supervisorStartupMetrics")).isFalse();
			// reported on the export thread after ready: done once the context has closed (the bounded shutdown waits for it)
			context.close();
			assertThat(only(SpanNames.SERVER_ROOT)).isNotNull();
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

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ StartupTelemetryAutoConfiguration.class, SupervisorAutoConfiguration.class,
			SupervisorTracingAutoConfiguration.class })
	static class ServerApplication {

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ StartupTelemetryAutoConfiguration.class, SupervisorAutoConfiguration.class,
			SupervisorTracingAutoConfiguration.class })
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
			SupervisorTracingAutoConfiguration.class })
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
			SupervisorTracingAutoConfiguration.class })
	static class ConsumingServerApplication {

		/** Consumers of its own kind, of which it has none. */
		@Bean
		Hooks hooks(ObjectProvider<Consumer<String>> hooks) {
			return new Hooks(hooks.orderedStream().toList());
		}

		record Hooks(List<Consumer<String>> hooks) {

		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ProvidedLauncher {

		@Bean
		StartupSource launcher(ObjectProvider<SupervisorStartup> startup) {
			return startup::getObject;
		}

	}

	/** Where a test launcher gets its SupervisorStartup from, asked only after the start. */
	interface StartupSource {

		SupervisorStartup startup();

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ StartupTelemetryAutoConfiguration.class, SupervisorAutoConfiguration.class,
			SupervisorTracingAutoConfiguration.class })
	static class ProviderLauncherApplication {

		/** Resolves SupervisorStartup only when first used, after the application is ready. */
		@Bean
		StartupSource launcher(ObjectProvider<SupervisorStartup> startup) {
			return startup::getObject;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ StartupTelemetryAutoConfiguration.class, SupervisorAutoConfiguration.class,
			SupervisorTracingAutoConfiguration.class })
	static class LazyLauncherApplication {

		/** A lazy-resolution proxy: the SupervisorStartup bean is created at its first call. */
		@Bean
		StartupSource launcher(@Lazy SupervisorStartup startup) {
			return () -> startup;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ StartupTelemetryAutoConfiguration.class, SupervisorAutoConfiguration.class,
			SupervisorTracingAutoConfiguration.class })
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
