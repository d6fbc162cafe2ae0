package io.github.startuptelemetry.supervisor;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;

/**
 * Whether anything listens at a host and port yet, without blocking the caller: a non-blocking
 * TCP connect, finished right away when the kernel already knows the answer (as on loopback,
 * mostly), else by a later call, and given up after {@code timeoutNs}. A refused connect costs
 * the supervisor a few tens of microseconds, a tenth of a refused HTTP request. Not thread-safe:
 * one prober at a time.
 */
final class ListenCheck implements AutoCloseable {

	private final String host;

	private final int port;

	private final long timeoutNs;

	private SocketChannel pending;

	private long startedNs;

	ListenCheck(String host, int port, long timeoutNs) {
		this.host = host;
		this.port = port;
		this.timeoutNs = timeoutNs;
	}

	/** Where the connect stands: accepted (and closed again), refused, or still under way. */
	Result check() {
		try {
			if (this.pending == null) {
				this.pending = SocketChannel.open();
				this.pending.configureBlocking(false);
				this.startedNs = System.nanoTime();
				if (this.pending.connect(new InetSocketAddress(this.host, this.port))) {
					close();
					return Result.LISTENING;
				}
			}
			if (this.pending.finishConnect()) {
				close();
				return Result.LISTENING;
			}
			if (System.nanoTime() - this.startedNs > this.timeoutNs) {
				close();
				return Result.REFUSED;
			}
			return Result.PENDING;
		}
		catch (IOException | RuntimeException ex) {
			close();
			return Result.REFUSED;
		}
	}

	@Override
	public void close() {
		if (this.pending != null) {
			try {
				this.pending.close();
			}
			catch (IOException ex) {
				// nothing was sent on it
			}
			this.pending = null;
		}
	}

	/** Where a connect stands. */
	enum Result {

		/** Accepted: something listens. */
		LISTENING,

		/** Refused, unreachable or timed out: nothing listens (yet). */
		REFUSED,

		/** The handshake is under way (the kernel has not answered yet); ask again soon. */
		PENDING

	}

}
