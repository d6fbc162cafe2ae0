package io.github.startuptelemetry.server;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import org.springframework.boot.context.metrics.buffering.BufferingApplicationStartup;
import org.springframework.core.metrics.ApplicationStartup;
import org.springframework.core.metrics.StartupStep;

import io.github.startuptelemetry.autoconfigure.TelemetryProperties;
import io.github.startuptelemetry.timeline.StepTiming;

import static org.assertj.core.api.Assertions.assertThat;

class BeanSpanRecorderTest {

	private static final long MS = 1_000_000L;

	private final AtomicLong clock = new AtomicLong(1_000 * MS);

	private final BeanSpanRecorder recorder = new BeanSpanRecorder(Duration.ofMillis(20), this.clock::get);

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
