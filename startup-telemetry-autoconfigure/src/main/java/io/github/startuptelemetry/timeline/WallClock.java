package io.github.startuptelemetry.timeline;

import java.time.Instant;

/**
 * Wall-clock epoch nanoseconds, the unit of the env contract: a supervisor and the servers it
 * spawns compare times across processes, so a monotonic clock would not do.
 */
public final class WallClock {

	private WallClock() {
	}

	public static long nowNs() {
		Instant now = Instant.now();
		return now.getEpochSecond() * 1_000_000_000L + now.getNano();
	}

}
