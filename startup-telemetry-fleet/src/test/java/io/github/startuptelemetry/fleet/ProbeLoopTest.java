package io.github.startuptelemetry.fleet;

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
			// due times from one reading of the clock: a pause between the calls changes nothing
			long now = System.nanoTime();
			ProbeLoop.Scheduled cancelled = this.loop.scheduleAt(() -> ran.add("cancelled"), now + ms(5));
			this.loop.scheduleAt(() -> ran.add("second"), now + ms(20));
			this.loop.scheduleAt(() -> ran.add("first"), now + ms(10));
			this.loop.scheduleAt(() -> {
				ran.add("last");
				last.countDown();
			}, now + ms(30));
			cancelled.cancel();
		});
		assertThat(last.await(60, TimeUnit.SECONDS)).isTrue();
		assertThat(ran).containsExactly("first", "second", "last");
	}

	private static long ms(long millis) {
		return TimeUnit.MILLISECONDS.toNanos(millis);
	}

}
