package io.github.startuptelemetry.timeline;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class JvmInfoTest {

	@Test
	void currentVersionIsTheRuntimeVersion() {
		assertThat(JvmInfo.current().version()).isEqualTo(Runtime.version().toString());
	}

	@Test
	void onlyStartupFlagsAreKeptInOrder() {
		JvmInfo jvm = JvmInfo.of("21", List.of("-Dsecret.token=abc", "-XX:TieredStopAtLevel=1", "-Xmx512m",
				"-javaagent:agent.jar", "-Xshare:off"));
		assertThat(jvm.flags()).containsExactly("-XX:TieredStopAtLevel=1", "-Xmx512m", "-Xshare:off");
		assertThat(jvm.tieredStopAtLevel()).isEqualTo(1);
		assertThat(jvm.cdsOff()).isTrue();
	}

}
