package io.github.startuptelemetry.lifecycle;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.tracing.exporter.FinishedSpan;
import io.micrometer.tracing.exporter.SpanExportingPredicate;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.opentelemetry.autoconfigure.OpenTelemetrySdkAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.startuptelemetry.autoconfigure.TelemetryProperties;
import io.github.startuptelemetry.server.StartupTelemetryAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

class TelemetryLifecycleAutoConfigurationTest {

	private static final String BOOT_METER_REGISTRY_CLOSER = MetricsAutoConfiguration.class.getName()
			+ "$MeterRegistryCloser";

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(OpenTelemetrySdkAutoConfiguration.class, TelemetryLifecycleAutoConfiguration.class));

	@Test
	void setsTheHandleWhileTheContextRuns() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(TelemetryHandle.Registration.class)
				.hasSingleBean(BoundedTelemetryShutdown.class);
			assertThat(TelemetryHandle.get().openTelemetry()).isSameAs(context.getBean(OpenTelemetry.class));
		});
		assertThat(TelemetryHandle.get()).isNull();
	}

	@Test
	void typesLensIntAttributesOfTheResourceAsInts() {
		this.runner
			.withPropertyValues("management.opentelemetry.resource-attributes[nv.dl.rank]= +007 ",
					"management.opentelemetry.resource-attributes[nv.dl.world_size]=2",
					"management.opentelemetry.resource-attributes[nv.dl.local_rank]=3.5",
					"management.opentelemetry.resource-attributes[process.pid]=1234",
					"management.opentelemetry.resource-attributes[nemo.run.id]=007")
			.run((context) -> {
				Attributes attributes = context.getBean(Resource.class).getAttributes();
				assertThat(attributes.get(AttributeKey.longKey("nv.dl.rank"))).isEqualTo(7L);
				assertThat(attributes.get(AttributeKey.longKey("nv.dl.world_size"))).isEqualTo(2L);
				assertThat(attributes.get(AttributeKey.longKey("process.pid"))).isEqualTo(1234L);
				assertThat(attributes.get(AttributeKey.stringKey("nv.dl.local_rank"))).isEqualTo("3.5");
				assertThat(attributes.get(AttributeKey.stringKey("nemo.run.id"))).isEqualTo("007");
				assertThat(attributes.get(AttributeKey.stringKey("nv.dl.rank"))).isNull();
			});
	}

	@Test
	void startupSpansAreExportedOnlyWithTheStartupSpanGroup() {
		FinishedSpan startup = mock(FinishedSpan.class);
		given(startup.getName()).willReturn("gym.server.startup.main_start");
		FinishedSpan request = mock(FinishedSpan.class);
		given(request.getName()).willReturn("http get /");
		this.runner.run((context) -> assertThat(context.getBean(SpanExportingPredicate.class).isExportable(startup))
			.isTrue());
		this.runner.withPropertyValues("telemetry.span-groups=per_rollout").run((context) -> {
			SpanExportingPredicate predicate = context.getBean(SpanExportingPredicate.class);
			assertThat(predicate.isExportable(startup)).isFalse();
			assertThat(predicate.isExportable(request)).isTrue();
		});
	}

	@Test
	void backsOffFromTheUsersHandle() {
		this.runner.withUserConfiguration(UserHandleConfiguration.class)
			.run((context) -> assertThat(context).getBeanNames(TelemetryHandle.Registration.class)
				.containsExactly("myHandle"));
	}

	@Test
	void noHandleWithoutOpenTelemetry() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(TelemetryLifecycleAutoConfiguration.class))
			.run((context) -> assertThat(context).doesNotHaveBean(TelemetryHandle.Registration.class)
				.hasSingleBean(BoundedTelemetryShutdown.class));
	}

	@Test
	void offWhenTelemetryIsOff() {
		this.runner.withPropertyValues("telemetry.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(TelemetryHandle.Registration.class)
				.doesNotHaveBean(BoundedTelemetryShutdown.class));
		assertThat(TelemetryHandle.get()).isNull();
	}

	@Test
	void offNeedsNoOpenTelemetrySdk() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(StartupTelemetryAutoConfiguration.class,
					TelemetryLifecycleAutoConfiguration.class))
			.withClassLoader(new FilteredClassLoader("io.opentelemetry.sdk"))
			.withPropertyValues("telemetry.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(BoundedTelemetryShutdown.class)
				.doesNotHaveBean(TelemetryProperties.class));
	}

	@Test
	void closesTheTelemetryBeansItselfAndLeavesExplicitDestroyMethodsAlone() {
		AtomicReference<ExporterConfiguration> exporters = new AtomicReference<>();
		this.runner.withUserConfiguration(ExporterConfiguration.class).run((context) -> {
			exporters.set(context.getBean(ExporterConfiguration.class));
			assertThat(context.getBeanFactory().getBeanDefinition("inferred").getDestroyMethodName()).isEmpty();
			assertThat(context.getBeanFactory().getBeanDefinition("explicit").getDestroyMethodName())
				.isEqualTo("shutdown");
		});
		assertThat(exporters.get().inferred.shutdowns).hasValue(1);
		assertThat(exporters.get().explicit.shutdowns).hasValue(1);
	}

	@Test
	void stopsWaitingAtTheBudget() throws InterruptedException {
		BlockingExporter blocking = new BlockingExporter();
		try {
			this.runner.withPropertyValues("telemetry.shutdown-timeout=100ms")
				.withBean(BlockingExporter.class, () -> blocking)
				.run((context) -> assertThat(context).hasSingleBean(BlockingExporter.class));
			// the context has closed while the exporter is still shutting down
			assertThat(blocking.entered.await(30, TimeUnit.SECONDS)).as("exporter shutdown started").isTrue();
			assertThat(blocking.release.getCount()).isOne();
		}
		finally {
			blocking.release.countDown();
		}
	}

	/**
	 * Boot's closer stays (Boot 4.1 hands it each registry) but no longer hears the context's close:
	 * each registry is closed once, by the bounded shutdown's thread, not on the closing thread.
	 */
	@Test
	void closesMeterRegistriesInsteadOfBootsCloser() {
		ClosingRegistry registry = new ClosingRegistry();
		this.runner.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class))
			.withBean(ClosingRegistry.class, () -> registry)
			.run((context) -> assertThat(context.getBeanNamesForType(Class.forName(BOOT_METER_REGISTRY_CLOSER)))
				.isNotEmpty());
		assertThat(registry.isClosed()).isTrue();
		assertThat(registry.closedBy).singleElement().asString().startsWith("telemetry-shutdown-");
	}

	/** A registry that says which threads closed it. */
	static class ClosingRegistry extends SimpleMeterRegistry {

		final List<String> closedBy = new CopyOnWriteArrayList<>();

		@Override
		public void close() {
			this.closedBy.add(Thread.currentThread().getName());
			super.close();
		}

	}

	/**
	 * A startup that fails while the singletons are created: the shutdown closes what exists (the
	 * exporter created before the failing bean) and asks for nothing that was never created (the
	 * startup's export, defined after it): a bean factory in destruction refuses to create one, and
	 * Spring logs that refusal as a failed destroy method, which a user reads as the cause.
	 */
	@Test
	@ExtendWith(OutputCaptureExtension.class)
	void aFailedStartupClosesWhatExistsAndCreatesNothingWhileItCloses(CapturedOutput output) {
		RecordingExporter exporter = new RecordingExporter();
		new ApplicationContextRunner().withBean("earlyExporter", RecordingExporter.class, () -> exporter)
			.withBean("failing", Object.class, () -> {
				throw new IllegalStateException("this bean fails on purpose");
			})
			.withConfiguration(AutoConfigurations.of(TelemetryLifecycleAutoConfiguration.class))
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessage("this bean fails on purpose"));
		assertThat(exporter.shutdowns).as("the exporter's shutdown, once").hasValue(1);
		assertThat(output).doesNotContain("Invocation of destroy method failed", "startupTelemetryExport",
				"Singleton bean creation not allowed");
	}

	/**
	 * A build's AOT processing refreshes the context for AOT (the bean factory post-processors run,
	 * no bean is created) and closes it: nothing to close, nothing created, nothing said.
	 */
	@Test
	@ExtendWith(OutputCaptureExtension.class)
	void aContextRefreshedForAotProcessingClosesQuietly(CapturedOutput output) {
		try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
			context.register(TelemetryLifecycleAutoConfiguration.class);
			context.refreshForAotProcessing(new RuntimeHints());
			assertThat(context.getBeanFactory().containsSingleton("startupTelemetryExport")).isFalse();
		}
		assertThat(output).doesNotContain("Invocation of destroy method failed", "startupTelemetryExport",
				"Singleton bean creation not allowed");
	}

	@Configuration(proxyBeanMethods = false)
	static class UserHandleConfiguration {

		@Bean
		TelemetryHandle.Registration myHandle(OpenTelemetry openTelemetry) {
			return TelemetryHandle.register(openTelemetry);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ExporterConfiguration {

		final RecordingExporter inferred = new RecordingExporter();

		final RecordingExporter explicit = new RecordingExporter();

		@Bean
		RecordingExporter inferred() {
			return this.inferred;
		}

		@Bean(destroyMethod = "shutdown")
		RecordingExporter explicit() {
			return this.explicit;
		}

	}

	static class RecordingExporter implements SpanExporter {

		final AtomicInteger shutdowns = new AtomicInteger();

		@Override
		public CompletableResultCode export(Collection<SpanData> spans) {
			return CompletableResultCode.ofSuccess();
		}

		@Override
		public CompletableResultCode flush() {
			return CompletableResultCode.ofSuccess();
		}

		@Override
		public CompletableResultCode shutdown() {
			this.shutdowns.incrementAndGet();
			return CompletableResultCode.ofSuccess();
		}

	}

	/** An exporter whose shutdown hangs, like one stuck on a collector that never answers. */
	static class BlockingExporter extends RecordingExporter {

		final CountDownLatch entered = new CountDownLatch(1);

		final CountDownLatch release = new CountDownLatch(1);

		@Override
		public CompletableResultCode shutdown() {
			this.entered.countDown();
			try {
				this.release.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			return super.shutdown();
		}

	}

}
