package io.github.startuptelemetry.server;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.contract.StageNames;
import io.github.startuptelemetry.timeline.internal.ProcessTimeline;
import io.github.startuptelemetry.tracing.internal.StartupSpans;
import io.github.startuptelemetry.timeline.ServerTimeline;

/** Whole Spring applications in this JVM, through Boot's own OpenTelemetry auto-configuration. */
class ServerStartupInProcessTest {

	@Test
	void everyStartupIsExportedUnderBootsDefaultSampling() {
		int traces = 0;
		for (int i = 0; i < 10; i++) {
			try (ConfigurableApplicationContext context = start("management.tracing.sampling.probability=0.1")) {
				traces += (int) exported(context).stream().filter((s) -> s.getName().equals("gym.server.startup")).count();
			}
		}
		assertThat(traces).isEqualTo(10);
	}

	@Test
	void stagesFollowSpringsLifecycleAndTheUsersListenersStillRun() {
		try (ConfigurableApplicationContext context = start()) {
			assertThat(context.getBean(App.class).readyEvents).hasSize(1);
			ServerTimeline report = context.getBean(ServerStartupReporter.class).awaitReport(java.time.Duration.ofSeconds(30));
			assertThat(report.serverName()).isEqualTo("in-process");
			List<String> names = report.stages().stream().map((s) -> s.name()).toList();
			assertThat(names).endsWith(StageNames.ENVIRONMENT_PREPARED, StageNames.CONTEXT_PREPARED,
					StageNames.BEANS_INSTANTIATED, StageNames.CONTEXT_REFRESHED, StageNames.APPLICATION_STARTED,
					StageNames.APPLICATION_READY);
			assertThat(names).doesNotContain(StageNames.WEB_SERVER_STARTED);
			List<SpanData> spans = exported(context);
			SpanData root = spans.stream().filter((s) -> s.getName().equals("gym.server.startup")).findFirst().orElseThrow();
			assertThat(report.traceId()).isEqualTo(root.getTraceId());
			assertThat(spans).filteredOn((s) -> s.getAttributes().get(StartupSpans.STAGE) != null)
				.hasSize(names.size())
				.allSatisfy((s) -> assertThat(s.getParentSpanId()).isEqualTo(root.getSpanId()));
		}
	}

	@Test
	void countersOnByDefaultOffWithTheirSwitch() {
		try (ConfigurableApplicationContext context = start()) {
			ServerTimeline report = context.getBean(ServerStartupReporter.class).awaitReport(java.time.Duration.ofSeconds(30));
			assertThat(report.stages()).filteredOn((s) -> s.name().equals(StageNames.BEANS_INSTANTIATED))
				.singleElement()
				.satisfies((s) -> assertThat(s.jvm()).isNotNull());
		}
		try (ConfigurableApplicationContext context = start("telemetry.startup.counters=false")) {
			ServerTimeline report = context.getBean(ServerStartupReporter.class).awaitReport(java.time.Duration.ofSeconds(30));
			assertThat(report.stages()).isNotEmpty().allSatisfy((s) -> assertThat(s.jvm()).isNull());
			assertThat(exported(context)).filteredOn((s) -> s.getAttributes().get(StartupSpans.STAGE) != null)
				.isNotEmpty()
				.allSatisfy((s) -> assertThat(s.getAttributes().asMap().keySet())
					.noneMatch((key) -> key.getKey().startsWith("startup.jvm.")));
		}
	}

	@Test
	void disabledRecordsNothing() {
		try (ConfigurableApplicationContext context = start("telemetry.enabled=false")) {
			assertThat(context.getBeansOfType(ServerStartupReporter.class)).isEmpty();
			assertThat(exported(context)).isEmpty();
			assertThat(context.containsBean(ProcessTimeline.BEAN_NAME)).isFalse();
		}
	}

	private static ConfigurableApplicationContext start(String... properties) {
		List<String> all = new ArrayList<>(List.of("spring.application.name=in-process",
				"telemetry.startup.log-summary=false", "spring.main.banner-mode=off"));
		all.addAll(List.of(properties));
		return new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE)
			.properties(all.toArray(String[]::new))
			.run();
	}

	private static List<SpanData> exported(ConfigurableApplicationContext context) {
		// reported on the export thread, after ready
		context.getBeanProvider(ServerStartupReporter.class)
			.ifAvailable((reporter) -> reporter.awaitReport(java.time.Duration.ofSeconds(30)));
		context.getBean(OpenTelemetrySdk.class).getSdkTracerProvider().forceFlush().join(10, TimeUnit.SECONDS);
		return context.getBean(InMemorySpanExporter.class).getFinishedSpanItems();
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class App implements ApplicationListener<ApplicationReadyEvent> {

		final List<ApplicationReadyEvent> readyEvents = new ArrayList<>();

		@Bean
		InMemorySpanExporter inMemorySpanExporter() {
			return InMemorySpanExporter.create();
		}

		@Override
		public void onApplicationEvent(ApplicationReadyEvent event) {
			this.readyEvents.add(event);
		}

	}

}
