package io.github.startuptelemetry.fleet;

import java.net.URI;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import io.github.startuptelemetry.fleet.ProbeClient.Reply;

/**
 * Probes a server's health URL until it answers 2xx, on the fleet's one {@link ProbeLoop} thread:
 * while nobody listens, as often as the server's share of the fleet's budget allows, within
 * {@code initial-interval} and {@code max-interval}, and every {@code initial-interval} once it
 * accepts connections. Whatever each server asks for, the fleet as a whole makes at most
 * {@code max-per-second} probes a second: each probe takes the next free slot, in the order they
 * come due, so that a fleet too big for the budget is probed in turn, each server as often as the
 * others.
 */
final class HealthProbe {

	/** Servers probed whose port nobody listens on yet: the ones that cost listen checks. */
	private final AtomicInteger unheard = new AtomicInteger();

	private final ProbeClient client;

	private final ProbeLoop loop;

	private final ProbeSettings settings;

	/** Probings waiting out a refusal's backoff, for {@link #tighten()}: the loop thread's own. */
	private final Set<Probing> backingOff = new HashSet<>();

	/** The cap the waits were last cut to, or the longest wait since: the loop thread's own. */
	private long tightenedCapMs;

	/** The fleet's next free probe slot ({@link System#nanoTime()}): the loop thread's own. */
	private long nextSlotNs = System.nanoTime();

	/** The time between two of the fleet's probes at its budget. */
	private final long slotNs;

	public HealthProbe(ProbeClient client, ProbeLoop loop, ProbeSettings settings) {
		this.client = client;
		this.loop = loop;
		this.settings = settings;
		this.slotNs = TimeUnit.SECONDS.toNanos(1) / settings.perSecond();
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
	public CompletableFuture<Boolean> awaitHealthy(URI uri, BooleanSupplier keepGoing, BooleanSupplier relaxed) {
		Probing probing = new Probing(uri, keepGoing, relaxed);
		probing.after(initialMs());
		return probing.healthy;
	}

	/**
	 * The delay before the next probe, after one that got {@code answer}, while nobody listens
	 * yet for {@code servers} servers.
	 */
	long nextInterval(Answer answer, int servers) {
		// No ramp up to the fleet's share: in a hundred-server fleet one asked for three times the budget in
		// the first 0.7 s and found nobody on servers that take a second to listen. A probe that timed out
		// drops back too: a cold first request can take over a second on a loaded box, and backing off then
		// noticed readiness a whole max-interval late.
		return (answer != Answer.REFUSED) ? initialMs() : capMs(servers);
	}

	/** The longest wait after a refusal while nobody listens yet for {@code servers} servers. */
	private long capMs(int servers) {
		long fleetCap = servers * 1000L / this.settings.perSecond();
		return Math.max(initialMs(), Math.min(this.settings.maxInterval().toMillis(), fleetCap));
	}

	/**
	 * Fewer servers are unheard: cut the waits chosen for a bigger crowd to the new cap, once it
	 * is a quarter below the last one (a dozen times from a hundred servers down to a few, not at
	 * every server heard). On the loop thread.
	 */
	private void tighten() {
		long cap = capMs(this.unheard.get());
		if (cap * 4 > this.tightenedCapMs * 3) {
			return;
		}
		this.tightenedCapMs = cap;
		long now = System.nanoTime();
		for (Probing probing : this.backingOff) {
			probing.cutTo(cap, now);
		}
	}

	/**
	 * The fleet's next free probe slot from {@code nowNs}, taken: now, when the fleet is within its
	 * budget, else after the probes already given a slot. On the loop thread.
	 */
	private long takeSlot(long nowNs) {
		long slot = (this.nextSlotNs - nowNs > 0) ? this.nextSlotNs : nowNs;
		this.nextSlotNs = slot + this.slotNs;
		return slot;
	}

	/** How many of the servers probed nobody listens on yet. */
	int unheard() {
		return this.unheard.get();
	}

	private long initialMs() {
		return Math.max(1, this.settings.initialInterval().toMillis());
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

		/** Counts the waits scheduled: a wait cut short leaves its first timer stale. */
		private int generation;

		private long probedNs;

		private long dueNs;

		Probing(URI uri, BooleanSupplier keepGoing, BooleanSupplier relaxed) {
			this.uri = uri;
			this.keepGoing = keepGoing;
			this.relaxed = relaxed;
			HealthProbe.this.unheard.incrementAndGet();
		}

		void after(long delayMs) {
			at(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delayMs), false);
		}

		/** Probe at {@code atNs}; {@code slotted}: with the fleet's slot for then, taken already. */
		private void at(long atNs, boolean slotted) {
			int wait = ++this.generation;
			this.dueNs = atNs;
			try {
				HealthProbe.this.loop.scheduleAt(() -> {
					if (wait == this.generation) {
						probe(slotted);
					}
				}, atNs);
			}
			catch (RejectedExecutionException ex) {
				end(false);
			}
		}

		/** Probe at most {@code capMs} after the last probe, if due later. */
		void cutTo(long capMs, long nowNs) {
			long dueNs = this.probedNs + TimeUnit.MILLISECONDS.toNanos(capMs);
			if (dueNs - this.dueNs < 0) {
				this.interval = Math.min(this.interval, capMs);
				after(TimeUnit.NANOSECONDS.toMillis(Math.max(0, dueNs - nowNs)));
			}
		}

		private void probe(boolean slotted) {
			HealthProbe.this.backingOff.remove(this);
			try {
				if (!this.keepGoing.getAsBoolean()) {
					end(false);
					return;
				}
				long now = System.nanoTime();
				long slot = slotted ? now : takeSlot(now);
				if (slot - now > 0) {
					// the fleet is at its budget: this probe waits its turn (out of reach of a cut)
					at(slot, true);
					return;
				}
				this.probedNs = now;
				HealthProbe.this.client.get(this.uri, 0, this::answered);
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
			this.interval = nextInterval(answer, HealthProbe.this.unheard.get());
			if (this.relaxed.getAsBoolean()) {
				after(Math.max(this.interval, HealthProbe.this.settings.maxInterval().toMillis()));
				return;
			}
			if (answer == Answer.REFUSED) {
				HealthProbe.this.backingOff.add(this);
				HealthProbe.this.tightenedCapMs = Math.max(HealthProbe.this.tightenedCapMs, this.interval);
			}
			after(this.interval);
		}

		private void setListening(boolean listening) {
			if (listening != this.listening) {
				this.listening = listening;
				HealthProbe.this.unheard.addAndGet(listening ? -1 : 1);
				if (listening && HealthProbe.this.loop.inLoop()) {
					HealthProbe.this.backingOff.remove(this);
					tighten();
				}
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
