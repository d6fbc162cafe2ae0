package io.github.startuptelemetry.bench;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.github.startuptelemetry.contract.SpanNames;
import io.github.startuptelemetry.contract.StartupEnv;
import io.github.startuptelemetry.timeline.internal.JvmCounterReader;
import io.github.startuptelemetry.timeline.internal.StageTimeline;
import io.github.startuptelemetry.timeline.internal.SpawnHandOff;
import io.github.startuptelemetry.timeline.internal.TraceParent;
import io.github.startuptelemetry.tracing.internal.StartupSpans;
import io.github.startuptelemetry.timeline.JvmCounters;
import io.github.startuptelemetry.timeline.Stage;

/**
 * The paths a server runs on every start: a {@code mark} per lifecycle event, parsing the env
 * contract once, and emitting one server's eleven spans through a real SDK (batch processor,
 * exporter that drops everything so only our cost and the SDK's remain).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class HotPathBenchmarks {

	private static final long JVM_START = 1_800_000_000_000_000_000L;

	private final Map<String, String> env = Map.of(StartupEnv.SPAWN_NS,
			Long.toString(JVM_START - 900_000_000L), StartupEnv.SETUP_DONE_NS,
			Long.toString(JVM_START - 100_000_000L), StartupEnv.TRACEPARENT,
			"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");

	private List<Stage> stages;

	private SdkTracerProvider tracerProvider;

	private Tracer tracer;

	private StageTimeline timeline;

	private int marks;

	@Setup(Level.Trial)
	public void setUp() {
		StageTimeline model = new StageTimeline(JVM_START - 900_000_000L);
		for (String name : List.of("venv_setup", "interpreter_start", "main_start", "environment_prepared",
				"context_prepared", "beans_instantiated", "web_server_started", "context_refreshed",
				"application_started", "application_ready")) {
			model.mark(name, model.endNs() + 100_000_000L);
		}
		this.stages = model.stages();
		this.tracerProvider = SdkTracerProvider.builder()
			.addSpanProcessor(BatchSpanProcessor.builder(new DroppingExporter()).build())
			.build();
		this.tracer = this.tracerProvider.get(SpanNames.SCOPE);
	}

	@Setup(Level.Iteration)
	public void newTimeline() {
		this.timeline = new StageTimeline();
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		this.tracerProvider.shutdown().join(5, TimeUnit.SECONDS);
	}

	@Benchmark
	public StageTimeline mark() {
		this.timeline.mark("stage");
		if (++this.marks == 64) {
			// a startup has about ten marks: keep the list short, as in real use
			this.marks = 0;
			this.timeline = new StageTimeline();
		}
		return this.timeline;
	}

	/** What a stage boundary adds for the JVM counters: one read of the platform MXBeans. */
	@Benchmark
	public JvmCounters jvmCounters() {
		return JvmCounterReader.read();
	}

	@Benchmark
	public SpawnHandOff.Prelude parseEnv() {
		return SpawnHandOff.from(this.env).prelude(JVM_START, false);
	}

	@Benchmark
	public Span emitOneServersSpans() {
		Attributes attributes = Attributes.of(StartupSpans.SERVER_NAME, "model-0", StartupSpans.SERVER_TYPE, "model");
		Span root = StartupSpans.start(this.tracer, SpanNames.SERVER_ROOT, this.stages.get(0).startNs(),
				StartupSpans.parentContext(TraceParent.parse(this.env.get(StartupEnv.TRACEPARENT)).orElse(null)),
				attributes);
		StartupSpans.stageSpans(this.tracer, this.stages, root, SpanNames.SERVER_ROOT, attributes);
		root.end(this.stages.get(this.stages.size() - 1).endNs(), TimeUnit.NANOSECONDS);
		return root;
	}

	static final class DroppingExporter implements SpanExporter {

		@Override
		public CompletableResultCode export(java.util.Collection<SpanData> spans) {
			return CompletableResultCode.ofSuccess();
		}

		@Override
		public CompletableResultCode flush() {
			return CompletableResultCode.ofSuccess();
		}

		@Override
		public CompletableResultCode shutdown() {
			return CompletableResultCode.ofSuccess();
		}

	}

}
