package io.github.startuptelemetry.launch.internal;

import java.util.List;
import java.util.function.IntSupplier;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class FreePortsTest {

	@Test
	void portsStayBelowTheEphemeralRangeSoNoOutgoingConnectionTakesThemMeanwhile() {
		int low = FreePorts.ephemeralLow();
		// the whole range read (a /proc/sys integer read a byte at a time gave 3, and every port came from the range)
		assertThat(low).isBetween(1024, 65535);
		IntSupplier ports = FreePorts.below(low);
		List<Integer> handed = List.of(ports.getAsInt(), ports.getAsInt(), ports.getAsInt());
		assertThat(handed).doesNotHaveDuplicates();
		if (low - FreePorts.FROM > 1000) {
			assertThat(handed).allSatisfy((port) -> assertThat(port).isBetween(FreePorts.FROM, low - 1));
		}
	}

	@Test
	void withNoRoomBelowTheEphemeralRangeTheKernelPicks() {
		IntSupplier ports = FreePorts.below(20500);
		assertThat(List.of(ports.getAsInt(), ports.getAsInt())).doesNotHaveDuplicates()
			.allSatisfy((port) -> assertThat(port).isPositive());
	}

}
