package io.github.startuptelemetry.supervisor;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ListenCheckTest {

	private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

	@Test
	void aPortNobodyListensOnIsRefused() throws Exception {
		int port;
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			port = socket.getLocalPort();
		}
		try (ListenCheck check = new ListenCheck("127.0.0.1", port, TIMEOUT_NS)) {
			assertThat(check.check()).isEqualTo(ListenCheck.Result.REFUSED);
			assertThat(check.check()).isEqualTo(ListenCheck.Result.REFUSED);
		}
	}

	@Test
	void aListeningPortIsFoundWithoutAnyoneAccepting() throws Exception {
		try (ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
				ListenCheck check = new ListenCheck("127.0.0.1", socket.getLocalPort(), TIMEOUT_NS)) {
			long deadline = System.nanoTime() + TIMEOUT_NS;
			ListenCheck.Result result = check.check();
			// the kernel may need a moment for the handshake: later calls finish the same connect
			while (result == ListenCheck.Result.PENDING && System.nanoTime() < deadline) {
				result = check.check();
			}
			assertThat(result).isEqualTo(ListenCheck.Result.LISTENING);
		}
	}

	@Test
	void anUnknownHostIsNotListeningAndNoError() {
		try (ListenCheck check = new ListenCheck("no-such-host.invalid", 80, TIMEOUT_NS)) {
			assertThat(check.check()).isEqualTo(ListenCheck.Result.REFUSED);
		}
	}

}
