package io.github.startuptelemetry.it.supervisor;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

import com.sun.net.httpserver.HttpServer;

/**
 * Servers that never get ready, for the supervisor's fault tests, run as a JVM of their own
 * from the test classes: {@code java -cp target/test-classes ...FaultyServer MODE PORT} (a
 * class, not a single-file source program: compiling at launch took seconds of the ready
 * timeout on a busy runner). {@code hang}: listens and accepts, never
 * answers. {@code unhealthy}: answers every request 503. Both print "listening on PORT".
 */
public final class FaultyServer {

	private FaultyServer() {
	}

	public static void main(String[] args) throws Exception {
		int port = Integer.parseInt(args[1]);
		if (args[0].equals("hang")) {
			ServerSocket server = new ServerSocket(port, 50, InetAddress.getLoopbackAddress());
			System.out.println("listening on " + port);
			List<Socket> held = new ArrayList<>();
			while (true) {
				held.add(server.accept());
			}
		}
		HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
		server.createContext("/", (exchange) -> {
			exchange.sendResponseHeaders(503, -1);
			exchange.close();
		});
		server.start();
		System.out.println("listening on " + port);
	}

}
