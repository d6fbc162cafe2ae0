package io.github.startuptelemetry.server.kubernetes;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.kubernetes.internal.PodTimes;

/** PID 1's start from {@code /proc}, as the kernel writes it, on the reading process's own clock. */
class ContainerStartTest {

	@TempDir
	Path proc;

	@Test
	void pid1sStartIsItsTicksSinceBootAgainstTheUptimeNow() throws Exception {
		// a command with a space and a parenthesis in it: fields are counted after the last ')'
		proc("java (server) x", "1 (java (server) x) S 0 1 1 0 -1 4194560 2000 0 0 0 30 6 0 0 20 0 20 0 123456 "
				+ "4294967295 900 18446744073709551615 1 1 0 0 0 0 0 4096 0 0 0 17 1 0 0 0 0 0", "1300.25 2400.10\n");
		long now = 1_700_000_000_000_000_000L;
		PodTimes.Boundary start = new ContainerStart(this.proc).read(now);
		// started at 1234.56 s after boot, read at 1300.25 s: 65.69 s ago
		assertThat(start.epochNs()).isEqualTo(now - 65_690_000_000L);
		assertThat(start.resolutionMs()).isEqualTo(10.0);
		assertThat(start.source()).isEqualTo("container_process");
	}

	@Test
	void aSharedProcessNamespacesPauseProcessOrAnUnreadableProcIsNoStart() throws Exception {
		proc("pause", "1 (pause) S 0 1 1 0 -1 4194560 2000 0 0 0 30 6 0 0 20 0 1 0 100 0 0", "100.00 0.00\n");
		assertThat(new ContainerStart(this.proc).read(0)).isNull();
		assertThat(new ContainerStart(this.proc.resolve("missing")).read(0)).isNull();
		assertThat(ContainerStart.startTicks("1 (java) S 0")).isNull();
	}

	private void proc(String comm, String stat, String uptime) throws Exception {
		Files.createDirectories(this.proc.resolve("1"));
		Files.writeString(this.proc.resolve("1/comm"), comm + "\n");
		Files.writeString(this.proc.resolve("1/stat"), stat + "\n");
		Files.writeString(this.proc.resolve("uptime"), uptime);
	}

}
