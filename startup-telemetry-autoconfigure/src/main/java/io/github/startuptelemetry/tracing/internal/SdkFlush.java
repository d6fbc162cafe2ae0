package io.github.startuptelemetry.tracing.internal;

import java.util.concurrent.TimeUnit;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.SdkTracerProvider;

import org.springframework.util.ClassUtils;

/**
 * Starts exporting the startup spans now rather than at the batch processor's next tick, so
 * they leave even a server that dies right after ready ({@link #flush}), and the bounded close of
 * an SDK ({@link #close}). Used by both reports, the server's and the supervisor's, and by the
 * shutdown.
 */
public final class SdkFlush {

	private static final boolean SDK_PRESENT = ClassUtils.isPresent("io.opentelemetry.sdk.OpenTelemetrySdk",
			SdkFlush.class.getClassLoader());

	private SdkFlush() {
	}

	/**
	 * Start exporting the spans recorded so far; does not wait. Not the metrics: their reader
	 * exports them on its period and at close, as Micrometer's registry does (each export of a
	 * cumulative histogram repeats its points).
	 */
	public static void flush(OpenTelemetry openTelemetry) {
		if (SDK_PRESENT && openTelemetry instanceof OpenTelemetrySdk sdk) {
			sdk.getSdkTracerProvider().forceFlush();
		}
	}

	/**
	 * Export the spans recorded so far and wait for that, at most {@code timeoutNs}; whether it
	 * was done by then (failed or not: a collector that refuses answers at once). Without an SDK
	 * there is nothing to wait for.
	 */
	public static boolean flushAndWait(OpenTelemetry openTelemetry, long timeoutNs) {
		if (SDK_PRESENT && openTelemetry instanceof OpenTelemetrySdk sdk) {
			return sdk.getSdkTracerProvider().forceFlush().join(Math.max(0, timeoutNs), TimeUnit.NANOSECONDS).isDone();
		}
		return true;
	}

	/**
	 * Drain a tracer provider, waiting at most until {@code deadlineNs}. Twice: OpenTelemetry's
	 * {@code BatchSpanProcessor} (1.55) answers a flush that arrives while an earlier one still
	 * runs with that earlier flush, which only covers the spans queued when it began; the second
	 * starts after the first has ended, so it covers everything.
	 */
	public static void drain(SdkTracerProvider provider, long deadlineNs) {
		provider.forceFlush().join(left(deadlineNs), TimeUnit.NANOSECONDS);
		provider.forceFlush().join(left(deadlineNs), TimeUnit.NANOSECONDS);
	}

	/**
	 * Drain, then shut {@code openTelemetry} down (its metric reader exports once more as it
	 * closes), waiting at most until {@code deadlineNs}.
	 */
	public static void close(OpenTelemetry openTelemetry, long deadlineNs) {
		if (SDK_PRESENT && openTelemetry instanceof OpenTelemetrySdk sdk) {
			drain(sdk.getSdkTracerProvider(), deadlineNs);
			sdk.shutdown().join(left(deadlineNs), TimeUnit.NANOSECONDS);
		}
	}

	private static long left(long deadlineNs) {
		return Math.max(0, deadlineNs - System.nanoTime());
	}

}
