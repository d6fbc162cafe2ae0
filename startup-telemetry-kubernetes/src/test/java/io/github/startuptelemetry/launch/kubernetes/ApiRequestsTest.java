package io.github.startuptelemetry.launch.kubernetes;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The supervisor's own bound on its requests at once, which the JDK's HTTP client lacks. */
class ApiRequestsTest {

	@Test
	void noMoreRequestsThanTheLimitAreInFlightAtOnce() throws Exception {
		ApiRequests requests = new ApiRequests(3);
		AtomicInteger inFlight = new AtomicInteger();
		AtomicInteger most = new AtomicInteger();
		CountDownLatch release = new CountDownLatch(1);
		CountDownLatch started = new CountDownLatch(3);
		List<Thread> threads = new ArrayList<>();
		for (int i = 0; i < 10; i++) {
			Thread thread = new Thread(() -> requests.run(() -> {
				most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
				started.countDown();
				try {
					release.await(30, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				inFlight.decrementAndGet();
			}));
			thread.start();
			threads.add(thread);
		}
		assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
		assertThat(requests.inFlight()).isEqualTo(3);
		release.countDown();
		for (Thread thread : threads) {
			thread.join(30_000);
		}
		assertThat(most.get()).isEqualTo(3);
		assertThat(requests.inFlight()).isZero();
	}

}
