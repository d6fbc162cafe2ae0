package io.github.startuptelemetry.readiness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.boot.web.server.WebServer;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.event.SmartApplicationListener;

import io.github.startuptelemetry.internal.BootLine;
import io.github.startuptelemetry.internal.DaemonThreads;

/**
 * Makes "ready" mean "answers at once": as soon as the web server is up, requests the probed path
 * once over loopback on a thread of its own, and holds {@code ApplicationStartedEvent} until that
 * request is answered or the timeout passed. Never fails a startup.
 */
final class ReadinessWarmUp implements SmartApplicationListener, ApplicationContextAware {

	private static final Log logger = LogFactory.getLog(ReadinessWarmUp.class);

	private static final Executor OWN_THREAD = DaemonThreads.ownThread("startup-telemetry-warm-up");

	private final WarmUpProperties properties;

	private final List<Request> requests = new ArrayList<>();

	private ApplicationContext context;

	ReadinessWarmUp(WarmUpProperties properties) {
		this.properties = properties;
	}

	@Override
	public void setApplicationContext(ApplicationContext context) {
		this.context = context;
	}

	@Override
	public boolean supportsEventType(Class<? extends ApplicationEvent> eventType) {
		return BootLine.isWebServerInitialized(eventType)
				|| ApplicationStartedEvent.class.isAssignableFrom(eventType);
	}

	@Override
	public void onApplicationEvent(ApplicationEvent event) {
		try {
			if (BootLine.isWebServerInitialized(event.getClass())) {
				// the event's source is the web server on every Boot line
				start(((WebServer) event.getSource()).getPort());
			}
			else if (event instanceof ApplicationStartedEvent started && started.getApplicationContext() == this.context) {
				awaitAll();
			}
		}
		catch (Exception | LinkageError ex) {
			logger.debug("Readiness warm-up skipped", ex);
		}
	}

	private synchronized void start(int port) {
		String path = this.properties.getPath();
		if (port <= 0 || !LoopbackRequest.isValidPath(path)) {
			return;
		}
		long startNs = System.nanoTime();
		CompletableFuture<Integer> status = CompletableFuture.supplyAsync(() -> {
			try {
				return LoopbackRequest.get(port, path, this.properties.getTimeout());
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}, OWN_THREAD);
		this.requests.add(new Request(port, path, startNs, status));
	}

	private synchronized void awaitAll() {
		for (Request request : this.requests) {
			request.await(this.properties.getTimeout().toNanos());
		}
		this.requests.clear();
	}

	/** One warm-up request under way. */
	private record Request(int port, String path, long startNs, CompletableFuture<Integer> status) {

		void await(long timeoutNs) {
			try {
				int code = this.status.get(Math.max(0, this.startNs + timeoutNs - System.nanoTime()), TimeUnit.NANOSECONDS);
				logger.debug("Warmed up GET " + this.path + " on port " + this.port + " (" + code + ") in "
						+ (System.nanoTime() - this.startNs) / 1_000_000 + " ms");
			}
			catch (TimeoutException ex) {
				logger.debug("Readiness warm-up of port " + this.port + " still running; not waiting any longer");
			}
			catch (ExecutionException ex) {
				logger.debug("Readiness warm-up of port " + this.port + " failed", ex.getCause());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

	}

}
