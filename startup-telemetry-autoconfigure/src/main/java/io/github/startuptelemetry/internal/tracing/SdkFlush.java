package io.github.startuptelemetry.internal.tracing;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;

import org.springframework.util.ClassUtils;

/**
 * Starts exporting the startup spans now rather than at the batch processor's next tick, so
 * they leave even a server that dies right after ready. Does not wait for the export. Used by
 * both reports, the server's and the supervisor's.
 */
public final class SdkFlush {

	private static final boolean SDK_PRESENT = ClassUtils.isPresent("io.opentelemetry.sdk.OpenTelemetrySdk",
			SdkFlush.class.getClassLoader());

	private SdkFlush() {
	}

	public static void flush(OpenTelemetry openTelemetry) {
		if (SDK_PRESENT && openTelemetry instanceof OpenTelemetrySdk sdk) {
			sdk.getSdkTracerProvider().forceFlush();
		}
	}

}
