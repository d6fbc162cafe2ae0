package io.github.startuptelemetry.server;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import org.springframework.boot.context.metrics.buffering.BufferingApplicationStartup;
import org.springframework.core.metrics.ApplicationStartup;
import org.springframework.core.metrics.StartupStep;

import io.github.startuptelemetry.autoconfigure.TelemetryProperties;
import io.github.startuptelemetry.timeline.JvmCounters;
import io.github.startuptelemetry.timeline.StepTiming;

import static org.assertj.core.api.Assertions.assertThat;

class BeanSpanRecorderTest {

	private static final long MS = 1_000_000L;

	private final AtomicLong clock = new AtomicLong(1_000 * MS);

	/** The thread CPU clock: counts its reads, advances only when told. */
	private final AtomicLong cpu = new AtomicLong(500 * MS);

	private final AtomicLong cpuReads = new AtomicLong();

	private final BeanSpanRecorder recorder = new BeanSpanRecorder(Duration.ofMillis(20), this.clock::get, () -> {
		this.cpuReads.incrementAndGet();
		return this.cpu.get();
	});

	private final ApplicationStartup startup = this.recorder.wrap(ApplicationStartup.DEFAULT);

	@Test
	void keepsSlowBeansAndDropsFastOnes() {
		this.recorder.open();
		bean("fast", 5);
		bean("slow", 30);
		List<StepTiming> spans = this.recorder.close((name) -> "com.example." + name);
		assertThat(spans).singleElement().satisfies((span) -> {
			assertThat(span.beanName()).isEqualTo("slow");
			assertThat(span.beanType()).isEqualTo("com.example.slow");
			assertThat(span.step()).isEqualTo("spring.beans.instantiate");
			assertThat(span.durationMs()).isEqualTo(30.0);
		});
	}

	@Test
	void aSlowBeanInsideASlowBeanIsItsChildAndCountedOnce() {
		this.recorder.open();
		StartupStep outer = start("spring.beans.instantiate", "outer");
		advance(10);
		bean("inner", 50);
		advance(15);
		outer.end();
		StepTiming span = this.recorder.close((name) -> null).get(0);
		assertThat(span.beanName()).isEqualTo("outer");
		assertThat(span.durationMs()).isEqualTo(75.0);
		assertThat(span.selfMs()).isEqualTo(25.0);
		assertThat(span.children()).extracting(StepTiming::beanName).containsExactly("inner");
	}

	@Test
	void fastStepsInsideASlowBeanAreDroppedButTheirTimeIsNotItsOwn() {
		this.recorder.open();
		StartupStep outer = start("spring.beans.instantiate", "outer");
		bean("fast", 5);
		bean("inner", 40);
		advance(30);
		outer.end();
		StepTiming span = this.recorder.close((name) -> null).get(0);
		assertThat(span.beanName()).isEqualTo("outer");
		assertThat(span.children()).extracting(StepTiming::beanName).containsExactly("inner");
		assertThat(span.selfMs()).isEqualTo(30.0);
	}

	@Test
	void applicationStepsAreKeptAndSpringsOwnAreNot() {
		this.recorder.open();
		StartupStep warmup = this.startup.start("sample.model.warmup");
		StartupStep refresh = this.startup.start("spring.context.refresh");
		advance(40);
		refresh.end();
		warmup.end();
		assertThat(refresh).isSameAs(ApplicationStartup.DEFAULT.start("anything"));
		assertThat(this.recorder.close((name) -> null)).singleElement().satisfies((span) -> {
			assertThat(span.step()).isEqualTo("sample.model.warmup");
			assertThat(span.beanName()).isNull();
			assertThat(span.label()).isEqualTo("sample.model.warmup");
		});
	}

	@Test
	void followsNothingOutsideItsWindow() {
		StartupStep before = this.startup.start("sample.early");
		assertThat(before).isSameAs(ApplicationStartup.DEFAULT.start("anything"));
		this.recorder.open();
		this.recorder.close((name) -> null);
		StartupStep after = this.startup.start("sample.late");
		assertThat(after).isSameAs(ApplicationStartup.DEFAULT.start("anything"));
	}

	@Test
	void theApplicationsBufferingStartupKeepsWorking() {
		BufferingApplicationStartup buffering = new BufferingApplicationStartup(10);
		ApplicationStartup wrapped = this.recorder.wrap(buffering);
		assertThat(wrapped).isInstanceOf(BufferingApplicationStartup.class);
		this.recorder.open();
		StartupStep step = wrapped.start("spring.beans.instantiate").tag("beanName", "slow");
		advance(30);
		step.end();
		assertThat(this.recorder.close((name) -> null)).extracting(StepTiming::beanName).containsExactly("slow");
		assertThat(((BufferingApplicationStartup) wrapped).getBufferedTimeline().getEvents())
			.extracting((event) -> event.getStartupStep().getName())
			.containsExactly("spring.beans.instantiate");
		assertThat(buffering.getBufferedTimeline().getEvents()).hasSize(1);
	}

	@Test
	void aKeptStepSaysHowMuchOfItWasItsThreadsCpuTimeAndAFastOneCostsOneRead() {
		this.recorder.open();
		StartupStep loader = start("spring.beans.instantiate", "loader");
		advance(30);
		this.cpu.addAndGet(4 * MS);
		bean("fast", 5);
		loader.end();
		long readsBefore = this.cpuReads.get();
		bean("busy", 0);
		StartupStep busy = start("spring.beans.instantiate", "worker");
		advance(25);
		this.cpu.addAndGet(24 * MS);
		busy.end();
		assertThat(this.cpuReads.get() - readsBefore).as("a fast step: its start only; a kept one: both ends").isEqualTo(3);
		List<StepTiming> spans = this.recorder.close((name) -> null);
		assertThat(spans).extracting(StepTiming::beanName).containsExactly("loader", "worker");
		assertThat(spans.get(0).threadCpuMs()).as("mostly waiting").isEqualTo(4.0);
		assertThat(spans.get(1).threadCpuMs()).as("working").isEqualTo(24.0);
	}

	@Test
	void aStepEndedOnAnotherThreadHasNoCpuTime() throws Exception {
		this.recorder.open();
		StartupStep step = this.startup.start("sample.async.load");
		advance(40);
		Thread other = new Thread(step::end);
		other.start();
		other.join();
		assertThat(this.recorder.close((name) -> null)).singleElement()
			.satisfies((span) -> assertThat(span.threadCpuNs()).isEqualTo(JvmCounters.UNAVAILABLE));
	}

	@Test
	void withoutAThreadCpuClockNoStepHasCpuTime() {
		BeanSpanRecorder recorder = new BeanSpanRecorder(Duration.ofMillis(20), this.clock::get, null);
		ApplicationStartup startup = recorder.wrap(ApplicationStartup.DEFAULT);
		recorder.open();
		StartupStep step = startup.start("spring.beans.instantiate").tag("beanName", "slow");
		advance(30);
		step.end();
		assertThat(recorder.close((name) -> null)).singleElement()
			.satisfies((span) -> assertThat(span.threadCpuMs()).isEqualTo(JvmCounters.UNAVAILABLE));
	}

	@Test
	void defaultThresholdIsTheDocumentedOne() {
		assertThat(new TelemetryProperties().getStartup().getBeanSpans().getThreshold())
			.isEqualTo(Duration.ofMillis(20));
	}

	private void bean(String name, long ms) {
		StartupStep step = start("spring.beans.instantiate", name);
		advance(ms);
		step.end();
	}

	private StartupStep start(String step, String beanName) {
		return this.startup.start(step).tag("beanName", beanName);
	}

	private void advance(long ms) {
		this.clock.addAndGet(ms * MS);
	}

}
