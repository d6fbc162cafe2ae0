package io.github.startuptelemetry.server;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.timeline.internal.PlatformPrelude;
import io.github.startuptelemetry.timeline.internal.PlatformStages;
import io.github.startuptelemetry.tracing.internal.StartupSpans;
import io.github.startuptelemetry.timeline.ServerTimeline;
import io.github.startuptelemetry.timeline.Stage;

/**
 * A server on a platform that ran stages before it (a pod): the platform is asked once the server
 * is ready, off the main thread, and the startup is reported with its stages ahead of the JVM's.
 */
class PlatformStagesReportTest {

	private static final long S = 1_000_000_000L;

	@Test
	void thePlatformsStagesComeAheadOfTheJvmsInTheSpansAndTheReport() throws Exception {
		try (ConfigurableApplicationContext context = start()) {
			App app = context.getBean(App.class);
			ServerTimeline report = app.reported.get(30, TimeUnit.SECONDS);
			assertThat(app.askedOn.get(1, TimeUnit.SECONDS)).isNotEqualTo("main");
			assertThat(report.stages()).extracting(Stage::name)
				.startsWith("pod_scheduling", "pod_setup", "interpreter_start");
			assertThat(report.startEpochNs()).isEqualTo(report.stages().get(0).startNs());
			for (int i = 1; i < report.stages().size(); i++) {
				assertThat(report.stages().get(i).startNs()).isEqualTo(report.stages().get(i - 1).endNs());
			}
			List<SpanData> spans = exported(context);
			SpanData root = spans.stream().filter((s) -> s.getName().equals("gym.server.startup")).findFirst().orElseThrow();
			assertThat(root.getStartEpochNanos()).isEqualTo(report.startEpochNs());
			assertThat(root.getAttributes().get(AttributeKey.stringKey("k8s.pod.name"))).isEqualTo("in-process-abcde");
			SpanData setup = spans.stream().filter((s) -> s.getName().equals("gym.server.startup.pod_setup")).findFirst()
				.orElseThrow();
			assertThat(setup.getParentSpanId()).isEqualTo(root.getSpanId());
			assertThat(setup.getAttributes().get(AttributeKey.doubleKey("startup.k8s.precision_ms"))).isEqualTo(1000.0);
			SpanData pull = spans.stream().filter((s) -> s.getName().equals("gym.server.startup.image_pull")).findFirst()
				.orElseThrow();
			assertThat(pull.getParentSpanId()).isEqualTo(setup.getSpanId());
			assertThat(pull.getAttributes().get(StartupSpans.STAGE)).isEqualTo("image_pull");
			assertThat(spans).filteredOn((s) -> s.getName().equals("gym.server.startup." + report.stages().get(3).name()))
				.singleElement()
				.satisfies((s) -> assertThat(s.getAttributes().get(AttributeKey.doubleKey("startup.k8s.precision_ms")))
					.isNull());
			assertThat(context.getBean(ServerStartupReporter.class).lastReport()).isEqualTo(report);
		}
	}

	@Test
	void aPlatformThatFailsLeavesTheJvmsStages() throws Exception {
		try (ConfigurableApplicationContext context = start("test.platform.fail=true")) {
			ServerTimeline report = context.getBean(App.class).reported.get(30, TimeUnit.SECONDS);
			assertThat(report.stages()).extracting(Stage::name).doesNotContain("pod_scheduling", "pod_setup");
			assertThat(exported(context)).extracting(SpanData::getName).contains("gym.server.startup")
				.doesNotContain("gym.server.startup.pod_setup");
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
		context.getBean(OpenTelemetrySdk.class).getSdkTracerProvider().forceFlush().join(10, TimeUnit.SECONDS);
		return context.getBean(InMemorySpanExporter.class).getFinishedSpanItems();
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class App {

		final CompletableFuture<ServerTimeline> reported = new CompletableFuture<>();

		final CompletableFuture<String> askedOn = new CompletableFuture<>();

		@Bean
		InMemorySpanExporter inMemorySpanExporter() {
			return InMemorySpanExporter.create();
		}

		@Bean
		Consumer<ServerTimeline> reportedTimeline() {
			return this.reported::complete;
		}

		/** A pod that was created 3 s before the JVM started, scheduled after 1 s, its container started 1 s before. */
		@Bean
		PlatformPrelude platform(org.springframework.core.env.Environment environment) {
			boolean fail = environment.getProperty("test.platform.fail", Boolean.class, false);
			return (own) -> {
				this.askedOn.complete(Thread.currentThread().getName());
				if (fail) {
					throw new IllegalStateException("the platform is down");
				}
				long jvm = own.get(0).startNs();
				List<Stage> pod = List.of(new Stage("pod_scheduling", jvm - 3 * S, jvm - 2 * S),
						new Stage("pod_setup", jvm - 2 * S, jvm - S));
				List<Stage> stages = PlatformStages.ahead(own, pod);
				return new PlatformStages(stages,
						Map.of("pod_setup", Map.of("startup.k8s.precision_ms", 1000.0), "interpreter_start",
								Map.of("startup.k8s.precision_ms", 1000.0)),
						List.of(new PlatformStages.Nested("pod_setup", new Stage("image_pull", jvm - 2 * S, jvm - S - S / 2),
								Map.of("startup.k8s.precision_ms", 1000.0))),
						Map.of("k8s.pod.name", "in-process-abcde"));
			};
		}

	}

}
