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
 * loopback where it can) and counts who connects: a process configured with no endpoint must make
 * no connection. Skips the test, visibly, when the port is taken by something else on this machine.
 */
public final class DefaultCollectorPort implements AutoCloseable {

	public static final int PORT = 4318;

	private final List<ServerSocket> sockets = new ArrayList<>();

	private final AtomicInteger connections = new AtomicInteger();

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
				}
				catch (IOException ex) {
					// closed
				}
			}
		}, "default-collector-port");
		accepting.setDaemon(true);
		accepting.start();
	}

	/** Connections accepted so far. */
	public int connections() {
		return this.connections.get();
	}

	@Override
	public void close() throws IOException {
		for (ServerSocket socket : this.sockets) {
			socket.close();
		}
	}

}
