package io.github.startuptelemetry.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free loopback ports for the processes a test starts, chosen as the supervisor chooses its
 * servers' ({@code FleetPlan.freePorts}): below the kernel's ephemeral range, never twice in a
 * test JVM. A port is chosen here and bound by a process seconds later; in the ephemeral range
 * any outgoing connection of the tests running beside it could take it meanwhile.
 */
public final class Ports {

	private static final int LOW = 20000;

	private static final Set<Integer> GIVEN = new HashSet<>();

	private Ports() {
	}

	public static synchronized int free() {
		int high = ephemeralLow() - 1;
		if (high - LOW >= 1000) {
			for (int attempt = 0; attempt < 1000; attempt++) {
				int port = ThreadLocalRandom.current().nextInt(LOW, high + 1);
				if (!GIVEN.contains(port) && bindable(port)) {
					GIVEN.add(port);
					return port;
				}
			}
		}
		while (true) {
			try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
				if (GIVEN.add(socket.getLocalPort())) {
					return socket.getLocalPort();
				}
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
	}

	private static boolean bindable(int port) {
		try (ServerSocket socket = new ServerSocket()) {
			socket.setReuseAddress(true);
			socket.bind(new InetSocketAddress(port), 1);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	/** The range's first port (a /proc/sys integer must be read whole: not Files.readString). */
	private static int ephemeralLow() {
		try {
			return Integer.parseInt(String.join(" ", Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")))
				.strip()
				.split("\\s+")[0]);
		}
		catch (IOException | RuntimeException ex) {
			return 49152;
		}
	}

}
