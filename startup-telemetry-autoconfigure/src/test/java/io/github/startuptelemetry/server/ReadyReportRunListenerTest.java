package io.github.startuptelemetry.server;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import io.github.startuptelemetry.contract.StageNames;
import io.github.startuptelemetry.timeline.internal.WallClock;
import io.github.startuptelemetry.timeline.ServerTimeline;

/**
 * The report comes after Boot flips readiness, so that it never holds readiness back, yet before
 * {@code SpringApplication.run} returns; the timeline still ends at {@code ApplicationReadyEvent}.
 */
class ReadyReportRunListenerTest {

	@Test
	void theStartupIsReportedOnceTheApplicationAcceptsTraffic() {
		try (ConfigurableApplicationContext context = start(App.class)) {
			Recorded recorded = context.getBean(Recorded.class);
			ServerTimeline report = context.getBean(ServerStartupReporter.class).awaitReport(java.time.Duration.ofSeconds(30));
			assertThat(recorded.readinessAtReport).containsExactly(ReadinessState.ACCEPTING_TRAFFIC);
			assertThat(report.stages().get(report.stages().size() - 1).name()).isEqualTo(StageNames.APPLICATION_READY);
			// the stage ended at the ready event, before the report
			assertThat(report.readyEpochNs()).isLessThanOrEqualTo(recorded.readyListenerEndNs.get(0));
		}
	}

	/** Boot never calls the run listener then; the report comes as the failed start closes the context. */
	@Test
	void aStartFailedByAReadyListenerIsStillReported() {
		Recorded recorded = new Recorded();
		assertThatIllegalStateException().isThrownBy(() -> start(FailingApp.class, recorded))
			.withMessage("the application's own ready listener failed");
		assertThat(recorded.readinessAtReport).containsExactly(ReadinessState.REFUSING_TRAFFIC);
	}

	private static ConfigurableApplicationContext start(Class<?> app, Object... singletons) {
		return new SpringApplicationBuilder(app).web(WebApplicationType.NONE)
			.initializers((context) -> {
				for (Object singleton : singletons) {
					context.getBeanFactory().registerSingleton(singleton.getClass().getSimpleName(), singleton);
				}
			})
			.properties("telemetry.startup.log-summary=false", "spring.main.banner-mode=off")
			.run();
	}

	/** What the application saw: readiness when the report came, when its ready listener ended. */
	static class Recorded {

		final List<ReadinessState> readinessAtReport = new CopyOnWriteArrayList<>();

		final List<Long> readyListenerEndNs = new CopyOnWriteArrayList<>();

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class App implements ApplicationListener<ApplicationReadyEvent> {

		private final Recorded recorded = new Recorded();

		@Bean
		Recorded recorded() {
			return this.recorded;
		}

		@Bean
		Consumer<ServerTimeline> readinessAtReport(ApplicationAvailability availability) {
			return (report) -> this.recorded.readinessAtReport.add(availability.getReadinessState());
		}

		@Override
		public void onApplicationEvent(ApplicationReadyEvent event) {
			this.recorded.readyListenerEndNs.add(WallClock.nowNs());
		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class FailingApp implements ApplicationListener<ApplicationReadyEvent> {

		@Bean
		Consumer<ServerTimeline> readinessAtReport(Recorded recorded, ApplicationAvailability availability) {
			return (report) -> recorded.readinessAtReport.add(availability.getReadinessState());
		}

		@Override
		public void onApplicationEvent(ApplicationReadyEvent event) {
			throw new IllegalStateException("the application's own ready listener failed");
		}

	}

}
