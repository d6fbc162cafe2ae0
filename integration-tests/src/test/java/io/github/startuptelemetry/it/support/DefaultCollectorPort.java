package io.github.startuptelemetry.it.support;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Assumptions;

/**
 * Listens where an OpenTelemetry SDK sends by default ({@code localhost:4318}, on IPv4 and IPv6
 * loopback where it can) and records who connects, by process (Linux: the connecting socket's
 * inode, found among the processes' file descriptors while the connection is open): a process
 * configured with no endpoint must make no connection, whatever other processes on a shared
 * machine send to that port. Skips the test, visibly, when the port is taken by something else.
 */
public final class DefaultCollectorPort implements AutoCloseable {

	public static final int PORT = 4318;

	private final List<ServerSocket> sockets = new ArrayList<>();

	private final AtomicInteger connections = new AtomicInteger();

	/** The process that opened each connection accepted so far, or -1 when it could not be told. */
	private final List<Long> owners = new java.util.concurrent.CopyOnWriteArrayList<>();

	private DefaultCollectorPort() {
	}

	public static DefaultCollectorPort listen() throws IOException {
		DefaultCollectorPort port = new DefaultCollectorPort();
		try {
			port.bind(InetAddress.getByName("127.0.0.1"));
		}
		catch (IOException ex) {
			port.close();
			Assumptions.abort("port " + PORT + " is taken on this machine: " + ex.getMessage());
		}
		try {
			port.bind(InetAddress.getByName("::1"));
		}
		catch (IOException ex) {
			// no IPv6 loopback here: localhost is 127.0.0.1 only
		}
		return port;
	}

	private void bind(InetAddress address) throws IOException {
		ServerSocket socket = new ServerSocket();
		socket.bind(new InetSocketAddress(address, PORT));
		this.sockets.add(socket);
		Thread accepting = new Thread(() -> {
			while (!socket.isClosed()) {
				try (Socket accepted = socket.accept()) {
					this.connections.incrementAndGet();
					this.owners.add(owner(accepted.getPort()));
				}
				catch (IOException ex) {
					// closed
				}
			}
		}, "default-collector-port");
		accepting.setDaemon(true);
		accepting.start();
	}

	/** Connections accepted so far, from any process. */
	public int connections() {
		return this.connections.get();
	}

	/** Connections accepted so far that process {@code pid} opened. */
	public long connectionsFrom(long pid) {
		return this.owners.stream().filter((owner) -> owner == pid).count();
	}

	/** The processes that connected (-1: not told), for a message. */
	public List<Long> owners() {
		return List.copyOf(this.owners);
	}

	/** The pid whose open socket has local port {@code clientPort} and talks to {@link #PORT}, or -1. */
	private static long owner(int clientPort) {
		try {
			java.util.Set<String> inodes = new java.util.HashSet<>();
			for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
				java.nio.file.Path path = java.nio.file.Path.of(table);
				if (!java.nio.file.Files.isReadable(path)) {
					continue;
				}
				for (String line : java.nio.file.Files.readAllLines(path)) {
					String[] fields = line.strip().split("\\s+");
					if (fields.length > 9 && fields[1].endsWith(String.format(":%04X", clientPort))
							&& fields[2].endsWith(String.format(":%04X", PORT))) {
						inodes.add("socket:[" + fields[9] + "]");
					}
				}
			}
			if (inodes.isEmpty()) {
				return -1;
			}
			try (java.util.stream.Stream<java.nio.file.Path> processes = java.nio.file.Files.list(java.nio.file.Path.of("/proc"))) {
				for (java.nio.file.Path process : processes.filter((p) -> p.getFileName().toString().matches("[0-9]+")).toList()) {
					try (java.util.stream.Stream<java.nio.file.Path> fds = java.nio.file.Files.list(process.resolve("fd"))) {
						for (java.nio.file.Path fd : fds.toList()) {
							try {
								if (inodes.contains(java.nio.file.Files.readSymbolicLink(fd).toString())) {
									return Long.parseLong(process.getFileName().toString());
								}
							}
							catch (IOException ex) {
								// closed meanwhile
							}
						}
					}
					catch (IOException | SecurityException ex) {
						// gone, or not ours to read
					}
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			// not Linux: not told
		}
		return -1;
	}

	@Override
	public void close() throws IOException {
		for (ServerSocket socket : this.sockets) {
			socket.close();
		}
	}

}
