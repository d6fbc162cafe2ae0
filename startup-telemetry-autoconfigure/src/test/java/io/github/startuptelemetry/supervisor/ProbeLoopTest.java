package io.github.startuptelemetry.supervisor;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link ProbeLoop}'s timers. */
class ProbeLoopTest {

	private final ProbeLoop loop = new ProbeLoop("probe-loop-test");

	@AfterEach
	void stop() {
		this.loop.close();
	}

	@Test
	void aCancelledTimerNeverRunsAndTheOthersRunInTimeOrder() throws Exception {
		List<String> ran = new CopyOnWriteArrayList<>();
		CountDownLatch last = new CountDownLatch(1);
		this.loop.execute(() -> {
			ProbeLoop.Scheduled cancelled = this.loop.schedule(() -> ran.add("cancelled"), TimeUnit.MILLISECONDS.toNanos(5));
			this.loop.schedule(() -> ran.add("second"), TimeUnit.MILLISECONDS.toNanos(20));
			this.loop.schedule(() -> ran.add("first"), TimeUnit.MILLISECONDS.toNanos(10));
			this.loop.schedule(() -> {
				ran.add("last");
				last.countDown();
			}, TimeUnit.MILLISECONDS.toNanos(30));
			cancelled.cancel();
		});
		assertThat(last.await(60, TimeUnit.SECONDS)).isTrue();
		assertThat(ran).containsExactly("first", "second", "last");
	}

}
