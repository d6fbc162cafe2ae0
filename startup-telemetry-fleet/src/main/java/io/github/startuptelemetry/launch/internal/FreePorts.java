package io.github.startuptelemetry.launch.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.function.IntSupplier;

/**
 * Free TCP ports for processes that bind them later, never the same one twice from one supplier,
 * from below the kernel's ephemeral range, where nothing is assigned automatically before the
 * process binds it.
 */
public final class FreePorts {

	/** The first port above the well-known and commonly configured ones that may be taken. */
	static final int FROM = 20000;

	private FreePorts() {
	}

	/** A supplier of free ports below this machine's ephemeral range; not thread-safe. */
	public static IntSupplier belowEphemeralRange() {
		return below(ephemeralLow());
	}

	/** A supplier of free ports from {@link #FROM} up to {@code ephemeralLow - 1}. */
	static IntSupplier below(int ephemeralLow) {
		Set<Integer> given = new HashSet<>();
		int low = FROM;
		int high = ephemeralLow - 1;
		Random random = new Random();
		return () -> {
			try {
				if (high - low >= 1000) {
					int span = high - low + 1;
					int start = random.nextInt(span);
					for (int i = 0; i < span; i++) {
						int port = low + (start + i) % span;
						if (!given.contains(port) && bindable(port)) {
							given.add(port);
							return port;
						}
					}
				}
				// no room below the ephemeral range: a port the kernel picks
				while (true) {
					try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
						if (given.add(socket.getLocalPort())) {
							return socket.getLocalPort();
						}
					}
				}
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		};
	}

	/** Whether nothing listens on the port, on any address. */
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

	/** The first port of the kernel's ephemeral range (Linux; elsewhere the IANA default, 49152). */
	static int ephemeralLow() {
		try {
			// not Files.readString: a /proc file says its size is 0, and that read returns its first byte only
			String range = String.join(" ", Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")));
			return Integer.parseInt(range.strip().split("\\s+")[0]);
		}
		catch (IOException | RuntimeException ex) {
			return 49152;
		}
	}

}
