package io.github.startuptelemetry.fleet;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;

import io.github.startuptelemetry.internal.Http11;

/**
 * The GETs of a fleet's probing (health, then the timeline), each answered on the
 * {@link ProbeLoop}: a plain {@code http} URL is a non-blocking socket there, with a tiny HTTP/1.1
 * request and a bounded read of the answer ({@link Http11}); only {@code https} goes through the
 * JDK's client, built on first use.
 */
final class ProbeClient {

	private static final String ACCEPT_ANY = Http11.header("Accept", "*/*");

	private final ProbeLoop loop;

	private final Duration timeout;

	private HttpClient https;

	/** By URI, the address of a host given as an IP address: the loop's own. */
	private final Map<URI, InetSocketAddress> literalAddresses = new HashMap<>();

	public ProbeClient(ProbeLoop loop, Duration timeout) {
		this.loop = loop;
		this.timeout = timeout;
	}

	/**
	 * GET {@code uri}, from any thread; {@code then} runs on the loop, once.
	 * @param maxBody the longest body read; 0 for the status alone
	 */
	void get(URI uri, int maxBody, Consumer<Reply> then) {
		if (!this.loop.inLoop()) {
			this.loop.execute(() -> get(uri, maxBody, then));
		}
		else if ("https".equalsIgnoreCase(uri.getScheme())) {
			viaHttps(uri, then);
		}
		else {
			new Get(uri, maxBody, then).start();
		}
	}

	/**
	 * Where to connect for {@code uri}: a host given by name is looked up for every GET (its
	 * address may appear or change while a server starts), one given as an IP address is parsed
	 * once, not on each of a server's dozen probes.
	 */
	private InetSocketAddress address(URI uri) {
		InetSocketAddress known = this.literalAddresses.get(uri);
		if (known != null) {
			return known;
		}
		int port = (uri.getPort() != -1) ? uri.getPort() : 80;
		InetSocketAddress address = new InetSocketAddress(uri.getHost(), port);
		if (!address.isUnresolved() && isAddressLiteral(uri.getHost())) {
			this.literalAddresses.put(uri, address);
		}
		return address;
	}

	/** An IPv6 address in brackets, or digits and dots (an IPv4 address: no host name is all digits). */
	static boolean isAddressLiteral(String host) {
		if (host == null || host.isEmpty()) {
			return false;
		}
		if (host.charAt(0) == '[') {
			return true;
		}
		for (int i = 0; i < host.length(); i++) {
			char c = host.charAt(i);
			if (c != '.' && (c < '0' || c > '9')) {
				return false;
			}
		}
		return true;
	}

	private void viaHttps(URI uri, Consumer<Reply> then) {
		if (this.https == null) {
			this.https = HttpClient.newBuilder()
				.version(HttpClient.Version.HTTP_1_1)
				.connectTimeout(this.timeout)
				.executor(this.loop)
				.build();
		}
		this.https.sendAsync(HttpRequest.newBuilder(uri).timeout(this.timeout).GET().build(),
				HttpResponse.BodyHandlers.ofString())
			.whenCompleteAsync((response, error) -> then.accept((response != null)
					? Reply.of(response.statusCode(), response.body()) : Reply.failed(error)), this.loop);
	}

	/**
	 * What a GET came to.
	 *
	 * @param kind how far it got
	 * @param status the status code, when answered
	 * @param body the body, when answered and asked for (else empty)
	 * @param error what broke, for {@link Kind#BROKEN}
	 */
	record Reply(Kind kind, int status, String body, RuntimeException error) {

		static Reply of(int status, String body) {
			return new Reply(Kind.ANSWERED, status, body, null);
		}

		/** A refusal, the usual answer while a server loads, or no answer: one shared value each. */
		private static final Reply REFUSED = new Reply(Kind.REFUSED, -1, "", null);

		private static final Reply NO_ANSWER = new Reply(Kind.NO_ANSWER, -1, "", null);

		static Reply of(Kind kind) {
			return switch (kind) {
				case REFUSED -> REFUSED;
				case NO_ANSWER -> NO_ANSWER;
				default -> new Reply(kind, -1, "", null);
			};
		}

		static Reply failed(Throwable error) {
			Throwable cause = (error instanceof CompletionException && error.getCause() != null) ? error.getCause()
					: error;
			if (cause instanceof ConnectException) {
				return of(Kind.REFUSED);
			}
			if (cause instanceof IOException) {
				return of(Kind.NO_ANSWER);
			}
			return new Reply(Kind.BROKEN, -1, "", new CompletionException(cause));
		}

		boolean ok() {
			return this.kind == Kind.ANSWERED && this.status >= 200 && this.status < 300;
		}

	}

	/** The reply an answer read so far makes; {@code null} while more of it is needed. */
	static Reply reply(Http11.Response response) {
		if (response == null) {
			return null;
		}
		return (response == Http11.MALFORMED) ? Reply.of(Kind.NO_ANSWER) : Reply.of(response.status(), response.body());
	}

	/** How far a GET got. */
	enum Kind {

		/** Nobody listens (refused, unreachable, unknown host, or no handshake in time). */
		REFUSED,

		/** It accepted, but sent no well-formed answer in time (a timeout, a reset, garbage). */
		NO_ANSWER,

		/** It answered with a status. */
		ANSWERED,

		/** Probing itself broke: not the server's doing. */
		BROKEN

	}

	/** One plain GET on the loop: its fields are the loop thread's. */
	private final class Get implements Runnable {

		private final URI uri;

		private final int maxBody;

		private final Consumer<Reply> then;

		/** What the server sent; allocated once it accepted (a refused connect, the usual probe, needs none). */
		private ByteBuffer received;

		private ProbeLoop.Scheduled timeout;

		private ByteBuffer request;

		private SocketChannel channel;

		private SelectionKey key;

		private boolean connected;

		private boolean done;

		Get(URI uri, int maxBody, Consumer<Reply> then) {
			this.uri = uri;
			this.maxBody = maxBody;
			this.then = then;
		}

		void start() {
			InetSocketAddress address = address(this.uri);
			if (address.isUnresolved()) {
				finish(Reply.of(Kind.REFUSED));
				return;
			}
			try {
				this.channel = SocketChannel.open();
				this.channel.configureBlocking(false);
				// on loopback the kernel mostly knows the answer at once: a refusal then costs no
				// registration and no timer
				boolean connected = this.channel.connect(address) || this.channel.finishConnect();
				this.key = ProbeClient.this.loop.register(this.channel, this);
				this.timeout = ProbeClient.this.loop.schedule(this::timedOut, ProbeClient.this.timeout.toNanos());
				if (connected) {
					connected();
				}
				else {
					this.key.interestOps(SelectionKey.OP_CONNECT);
				}
			}
			catch (IOException | RuntimeException ex) {
				finish(Reply.of(this.connected ? Kind.NO_ANSWER : Kind.REFUSED));
			}
		}

		/** The channel is ready for what it waits for. */
		@Override
		public void run() {
			if (this.done) {
				return;
			}
			try {
				if (!this.connected) {
					if (this.channel.finishConnect()) {
						connected();
					}
				}
				else if (this.request.hasRemaining()) {
					send();
				}
				else {
					receive();
				}
			}
			catch (IOException | RuntimeException ex) {
				finish(Reply.of(this.connected ? Kind.NO_ANSWER : Kind.REFUSED));
			}
		}

		private void connected() throws IOException {
			this.connected = true;
			this.received = ByteBuffer.allocate(1024);
			this.request = ByteBuffer.wrap(Http11.requestHead("GET", Http11.target(this.uri), Http11.host(this.uri),
					ACCEPT_ANY));
			send();
		}

		private void send() throws IOException {
			this.channel.write(this.request);
			this.key.interestOps(this.request.hasRemaining() ? SelectionKey.OP_WRITE : SelectionKey.OP_READ);
		}

		private void receive() throws IOException {
			int read;
			while ((read = this.channel.read(this.received)) > 0) {
				Reply reply = reply(Http11.response(this.received.array(), this.received.position(), this.maxBody,
						false));
				if (reply != null) {
					finish(reply);
					return;
				}
				if (!this.received.hasRemaining()) {
					this.received = ByteBuffer.allocate(this.received.capacity() * 2)
						.put(this.received.array(), 0, this.received.position());
				}
			}
			if (read < 0) {
				Reply reply = reply(Http11.response(this.received.array(), this.received.position(), this.maxBody, true));
				finish((reply != null) ? reply : Reply.of(Kind.NO_ANSWER));
			}
		}

		/**
		 * Out of time: nobody listens if not connected yet; else the answer so far, should it be
		 * whole once its end is assumed (a server that kept the connection open and gave no length).
		 */
		private void timedOut() {
			if (this.done) {
				return;
			}
			Reply reply = this.connected
					? reply(Http11.response(this.received.array(), this.received.position(), this.maxBody, true)) : null;
			finish((reply != null) ? reply : Reply.of(this.connected ? Kind.NO_ANSWER : Kind.REFUSED));
		}

		private void finish(Reply reply) {
			if (this.done) {
				return;
			}
			this.done = true;
			if (this.timeout != null) {
				// answered: its timer need not wake the loop
				this.timeout.cancel();
			}
			if (this.channel != null) {
				try {
					this.channel.close();
				}
				catch (IOException ex) {
					// nothing left to say on it
				}
			}
			this.then.accept(reply);
		}

	}

}
