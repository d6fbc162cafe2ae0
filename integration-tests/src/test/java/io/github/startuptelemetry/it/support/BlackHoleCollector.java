package io.github.startuptelemetry.it.support;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A collector that is there and never answers: it accepts every connection on loopback and
 * then neither reads nor writes, the way a hung or overloaded collector looks to an exporter.
 * {@link #refusingBaseUrl()} gives the other failure, a port where nothing listens.
 */
public final class BlackHoleCollector implements AutoCloseable {

	private final ServerSocket server;

	private final List<Socket> accepted = new CopyOnWriteArrayList<>();

	private final Object arrivals = new Object();

	private BlackHoleCollector(ServerSocket server) {
		this.server = server;
	}

	public static BlackHoleCollector start() throws IOException {
		BlackHoleCollector collector = new BlackHoleCollector(
				new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
		Thread acceptor = new Thread(collector::acceptForever, "black-hole-collector");
		acceptor.setDaemon(true);
		acceptor.start();
		return collector;
	}

	/** A base URL on loopback where connections are refused (the port was free a moment ago). */
	public static String refusingBaseUrl() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return "http://127.0.0.1:" + socket.getLocalPort();
		}
	}

	public String baseUrl() {
		return "http://127.0.0.1:" + this.server.getLocalPort();
	}

	/** Wait until an exporter has connected; fail after {@code timeout}. */
	public void awaitConnection(Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		synchronized (this.arrivals) {
			while (this.accepted.isEmpty()) {
				long left = deadline - System.nanoTime();
				if (left <= 0) {
					throw new AssertionError("No connection to the black hole within " + timeout);
				}
				this.arrivals.wait(Math.max(1, left / 1_000_000));
			}
		}
	}

	private void acceptForever() {
		while (!this.server.isClosed()) {
			try {
				this.accepted.add(this.server.accept());
				synchronized (this.arrivals) {
					this.arrivals.notifyAll();
				}
			}
			catch (IOException ex) {
				// closed
			}
		}
	}

	@Override
	public void close() throws IOException {
		this.server.close();
		for (Socket socket : this.accepted) {
			socket.close();
		}
	}

}
