package io.github.startuptelemetry.timeline.internal;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Cristian's method: the supervisor's answer lies somewhere in the round trip, so the offset is
 * its midpoint's and the uncertainty half the round trip; only an offset larger than that (and
 * the JVM's millisecond start time) moves any stamp.
 */
class ClockOffsetTest {

	private static final long T = 1_800_000_000_000_000_000L;

	@Test
	void aServerAheadHasAPositiveOffsetKnownToHalfTheRoundTrip() {
		// sent at T, the supervisor read T - 5 s + 1 ms (1 ms after the midpoint), received 2 ms later
		ClockOffset clock = ClockOffset.cristian(T, T - 5_000_000_000L + 1_000_000L, T + 2_000_000L);
		assertThat(clock.offsetNs()).isEqualTo(5_000_000_000L);
		assertThat(clock.uncertaintyNs()).isEqualTo(1_000_000L);
		assertThat(clock.offsetMs()).isEqualTo(5000.0);
		assertThat(clock.uncertaintyMs()).isEqualTo(1.0);
	}

	@Test
	void aServerBehindHasANegativeOffset() {
		ClockOffset clock = ClockOffset.cristian(T, T + 5_000_000_000L + 500_000L, T + 1_000_000L);
		assertThat(clock.offsetNs()).isEqualTo(-5_000_000_000L);
		assertThat(clock.uncertaintyNs()).isEqualTo(500_000L);
	}

	@Test
	void anOddRoundTripRoundsTheUncertaintyUp() {
		assertThat(ClockOffset.cristian(T, T, T + 3).uncertaintyNs()).isEqualTo(2);
	}

	@Test
	void aClockThatWentBackwardsDuringTheRoundTripCountsAsNoRoundTrip() {
		ClockOffset clock = ClockOffset.cristian(T, T - 7, T - 1_000);
		assertThat(clock.uncertaintyNs()).isZero();
		assertThat(clock.offsetNs()).isEqualTo(7);
	}

	@Test
	void aNegativeUncertaintyIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> new ClockOffset(0, -1));
	}

	@Test
	void anOffsetTheMeasurementAndTheJvmStartTimeExplainMovesNothing() {
		ClockOffset sameHost = new ClockOffset(2_500_000L, 1_000_000L);
		assertThat(sameHost.significant()).isFalse();
		assertThat(sameHost.toServerClock(T)).isEqualTo(T);
		assertThat(sameHost.toSupervisorClock(T)).isEqualTo(T);
	}

	@Test
	void aLargerOffsetMovesStampsBothWays() {
		ClockOffset ahead = new ClockOffset(5_000_000_000L, 1_000_000L);
		assertThat(ahead.significant()).isTrue();
		assertThat(ahead.toServerClock(T)).isEqualTo(T + 5_000_000_000L);
		assertThat(ahead.toSupervisorClock(ahead.toServerClock(T))).isEqualTo(T);
		assertThat(new ClockOffset(-3_000_001L, 1_000_000L).significant()).isTrue();
	}

}
