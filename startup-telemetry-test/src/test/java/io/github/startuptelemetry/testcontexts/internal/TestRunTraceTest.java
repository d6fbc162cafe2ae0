package io.github.startuptelemetry.testcontexts.internal;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.tracing.internal.StartupSpans;

/** A test JVM's run as one trace: its root, a span per context with its stages and slow beans, explicit times. */
class TestRunTraceTest {

	@Test
	void oneTracePerJvmWithAContextSpanEach() {
		InMemorySpanExporter exporter = InMemorySpanExporter.create();
		try (OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
			.setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build())
			.build()) {
			TestReport report = Reports.jvm(100, 0);
			String traceId = TestRunTrace.spans(sdk, report, report.jvms().get(0));
			List<SpanData> spans = exporter.getFinishedSpanItems();
			assertThat(spans).allSatisfy((span) -> {
				assertThat(span.getTraceId()).isEqualTo(traceId);
				assertThat(span.getKind()).isEqualTo(SpanKind.INTERNAL);
			});
			SpanData root = spans.stream().filter((span) -> span.getName().equals("startup.tests")).findFirst().orElseThrow();
			assertThat(root.getStartEpochNanos()).isEqualTo(Reports.T0);
			assertThat(root.getEndEpochNanos()).isEqualTo(Reports.T0 + 11_000 * Reports.MS);
			List<SpanData> contexts = spans.stream().filter((span) -> span.getName().equals("startup.tests.context")).toList();
			assertThat(contexts).extracting((span) -> span.getAttributes().get(StartupSpans.TEST_CONTEXT))
				.containsExactlyInAnyOrder(Reports.BASE, Reports.MOCKED);
			assertThat(contexts).allSatisfy((span) -> assertThat(span.getParentSpanId()).isEqualTo(root.getSpanId()));
			SpanData mocked = contexts.stream()
				.filter((span) -> Reports.MOCKED.equals(span.getAttributes().get(StartupSpans.TEST_CONTEXT)))
				.findFirst()
				.orElseThrow();
			assertThat(mocked.getAttributes().get(StartupSpans.TEST_CONTEXT_WHY))
				.isEqualTo("differs from #1 (ATest) in bean overrides");
			assertThat(mocked.getAttributes().get(StartupSpans.TEST_CLASSES)).containsExactly("CTest");
			Set<String> underMocked = spans.stream()
				.filter((span) -> span.getParentSpanId().equals(mocked.getSpanId()))
				.map(SpanData::getName)
				.collect(Collectors.toSet());
			assertThat(underMocked).contains("startup.tests.context.beans_instantiated",
					"startup.tests.context.application_ready");
			assertThat(spans).extracting(SpanData::getName).contains("startup.tests.context.bean.catalogue");
		}
	}

}
