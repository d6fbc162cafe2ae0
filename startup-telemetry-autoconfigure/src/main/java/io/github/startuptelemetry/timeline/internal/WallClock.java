package io.github.startuptelemetry.timeline.internal;

import java.time.Instant;
import java.util.function.LongSupplier;

/**
 * Wall-clock epoch nanoseconds, the unit of the env contract: a supervisor and the servers it
 * spawns compare times across processes, so a monotonic clock would not do.
 */
public final class WallClock implements LongSupplier {

	private static final WallClock INSTANCE = new WallClock();

	private WallClock() {
	}

	/** The clock as a {@link LongSupplier} (the one instance: no lambda to load for it). */
	public static LongSupplier source() {
		return INSTANCE;
	}

	/** The same as {@link #nowNs()}. */
	@Override
	public long getAsLong() {
		return nowNs();
	}

	public static long nowNs() {
		Instant now = Instant.now();
		return now.getEpochSecond() * 1_000_000_000L + now.getNano();
	}

}
