package io.github.startuptelemetry.kubernetes.internal;

import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The kubelet's Pulled messages, as its versions word them. */
class PulledMessageTest {

	@Test
	void todaysMessageHasThePullAndItsWait() {
		PulledMessage message = PulledMessage.parse("Successfully pulled image \"registry.example.com/model:1.4\" in "
				+ "4.183s (7.871s including waiting). Image size: 123456789 bytes.");
		assertThat(message).isEqualTo(new PulledMessage(4_183_000_000L, 7_871_000_000L));
		assertThat(message.waitingNs()).isEqualTo(3_688_000_000L);
	}

	@Test
	void anOlderKubeletsMessageHasThePullOnly() {
		assertThat(PulledMessage.parse("Successfully pulled image \"nginx\" in 812ms"))
			.isEqualTo(new PulledMessage(812_000_000L, 812_000_000L));
		assertThat(PulledMessage.parse("Successfully pulled image \"nginx\" in 1m2.5s (1m2.5s including waiting)"))
			.isEqualTo(new PulledMessage(62_500_000_000L, 62_500_000_000L));
	}

	@Test
	void anImageAlreadyPresentOrAnotherMessageIsNoPull() {
		assertThat(PulledMessage.parse("Container image \"nginx\" already present on machine")).isNull();
		assertThat(PulledMessage.parse("Successfully pulled image \"nginx\" in no time")).isNull();
		assertThat(PulledMessage.parse(null)).isNull();
	}

	@Test
	void goDurations() {
		assertThat(PulledMessage.goDurationNs("1h2m3.5s")).hasValue(3_723_500_000_000L);
		assertThat(PulledMessage.goDurationNs("0s")).hasValue(0);
		assertThat(PulledMessage.goDurationNs("1.5µs")).hasValue(1_500);
		assertThat(PulledMessage.goDurationNs("250us")).hasValue(250_000);
		assertThat(PulledMessage.goDurationNs("7ns")).hasValue(7);
		assertThat(PulledMessage.goDurationNs("4.18")).isEqualTo(OptionalLong.empty());
		assertThat(PulledMessage.goDurationNs("s")).isEqualTo(OptionalLong.empty());
		assertThat(PulledMessage.goDurationNs("")).isEqualTo(OptionalLong.empty());
	}

}
