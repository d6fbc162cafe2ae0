package io.github.startuptelemetry.supervisor;

import java.net.URI;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import io.github.startuptelemetry.supervisor.ProbeClient.Reply;

/**
 * Probes a server's health URL until it answers 2xx, with a fast backoff: the first probe
 * {@code initial-interval} after the spawn, then a growing interval while nobody listens, at
 * most {@code max-interval} and at most what keeps the whole fleet under
 * {@value #LISTEN_CHECKS_PER_SECOND} such probes a second: a hundred servers nobody listens on
 * yet are looked at every 250 ms, the last few (the ones that hold "all ready" back) every
 * 10 ms. Once the server accepts connections it is in its last stages: the interval drops back
 * to {@code initial-interval}, also after a probe that timed out (a cold server's first request
 * can take over a second on a loaded box, and backing off then made readiness noticed a whole
 * {@code max-interval} late).
 * <p>
 * Built for a hundred servers at once: every probe of every server runs on one
 * {@link ProbeLoop} thread through a {@link ProbeClient}, never a thread per server (each
 * wake-up of its own thread made a probe cost several times more CPU). While nobody listens,
 * a probe is a refused connect and no request at all.
 * <p>
 * A server that will tell its supervisor itself (it asked the readiness callback for the
 * clock) is probed {@code relaxed}: every {@code max-interval}, only as the fallback.
 */
final class HealthProbe {

	/** Listen checks a second the fleet as a whole may make: about 1% of a core. */
	static final int LISTEN_CHECKS_PER_SECOND = 400;

	/** Servers probed whose port nobody listens on yet: the ones that cost listen checks. */
	private final AtomicInteger unheard = new AtomicInteger();

	private final ProbeClient client;

	private final ProbeLoop loop;

	private final SupervisorProperties.Probe settings;

	HealthProbe(ProbeClient client, ProbeLoop loop, SupervisorProperties.Probe settings) {
		this.client = client;
		this.loop = loop;
		this.settings = settings;
	}

	/**
	 * Probe {@code uri} until it answers 2xx (true) or {@code keepGoing}, asked before each
	 * probe, says stop (false). Completes exceptionally only when probing itself broke.
	 */
	CompletableFuture<Boolean> awaitHealthy(URI uri, BooleanSupplier keepGoing) {
		return awaitHealthy(uri, keepGoing, () -> false);
	}

	/**
	 * {@link #awaitHealthy(URI, BooleanSupplier)}, every {@code max-interval} whenever
	 * {@code relaxed}, asked after each probe, says so.
	 */
	CompletableFuture<Boolean> awaitHealthy(URI uri, BooleanSupplier keepGoing, BooleanSupplier relaxed) {
		Probing probing = new Probing(uri, keepGoing, relaxed);
		probing.after(initialMs());
		return probing.healthy;
	}

	/**
	 * The delay before the next probe, after one that got {@code answer}, while nobody listens
	 * yet for {@code servers} servers.
	 */
	long nextInterval(long interval, Answer answer, int servers) {
		if (answer != Answer.REFUSED) {
			return initialMs();
		}
		long fleetCap = servers * 1000L / LISTEN_CHECKS_PER_SECOND;
		long cap = Math.max(initialMs(), Math.min(this.settings.getMaxInterval().toMillis(), fleetCap));
		return Math.min(cap, interval + Math.max(1, interval / 2));
	}

	/** How many of the servers probed nobody listens on yet. */
	int unheard() {
		return this.unheard.get();
	}

	private long initialMs() {
		return Math.max(1, this.settings.getInitialInterval().toMillis());
	}

	private static Answer answer(Reply reply) {
		return switch (reply.kind()) {
			case REFUSED -> Answer.REFUSED;
			case NO_ANSWER -> Answer.NOT_READY;
			case ANSWERED -> reply.ok() ? Answer.HEALTHY : Answer.NOT_READY;
			case BROKEN -> throw reply.error();
		};
	}

	/** What one probe found. */
	enum Answer {

		/** Nobody listens yet. */
		REFUSED,

		/** It listens, but did not answer 2xx (in time). */
		NOT_READY,

		/** It answered 2xx. */
		HEALTHY

	}

	/**
	 * The probing of one server: one step at a time, each scheduled by the one before, so
	 * that its fields are never touched by two threads at once.
	 */
	private final class Probing {

		final CompletableFuture<Boolean> healthy = new CompletableFuture<>();

		private final URI uri;

		private final BooleanSupplier keepGoing;

		private final BooleanSupplier relaxed;

		private long interval = initialMs();

		/** Whether it answered the last probe: no longer among the {@link #unheard}. */
		private boolean listening;

		Probing(URI uri, BooleanSupplier keepGoing, BooleanSupplier relaxed) {
			this.uri = uri;
			this.keepGoing = keepGoing;
			this.relaxed = relaxed;
			HealthProbe.this.unheard.incrementAndGet();
		}

		void after(long delayMs) {
			try {
				HealthProbe.this.loop.schedule(this::probe, TimeUnit.MILLISECONDS.toNanos(delayMs));
			}
			catch (RejectedExecutionException ex) {
				end(false);
			}
		}

		private void probe() {
			try {
				if (!this.keepGoing.getAsBoolean()) {
					end(false);
				}
				else {
					HealthProbe.this.client.get(this.uri, 0, this::answered);
				}
			}
			catch (RuntimeException ex) {
				broken(ex);
			}
		}

		private void answered(Reply reply) {
			try {
				Answer answer = answer(reply);
				if (answer == Answer.HEALTHY) {
					end(true);
				}
				else {
					next(answer);
				}
			}
			catch (RuntimeException ex) {
				broken(ex);
			}
		}

		private void next(Answer answer) {
			setListening(answer != Answer.REFUSED);
			this.interval = nextInterval(this.interval, answer, HealthProbe.this.unheard.get());
			after(this.relaxed.getAsBoolean()
					? Math.max(this.interval, HealthProbe.this.settings.getMaxInterval().toMillis()) : this.interval);
		}

		private void setListening(boolean listening) {
			if (listening != this.listening) {
				this.listening = listening;
				HealthProbe.this.unheard.addAndGet(listening ? -1 : 1);
			}
		}

		private void end(boolean result) {
			setListening(true);
			this.healthy.complete(result);
		}

		private void broken(RuntimeException ex) {
			setListening(true);
			this.healthy.completeExceptionally(ex);
		}

	}

}
