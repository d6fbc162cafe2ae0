package io.github.startuptelemetry.lifecycle;

import java.util.Locale;
import java.util.Map;

import org.apache.commons.logging.Log;

import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;

import io.github.startuptelemetry.autoconfigure.internal.TelemetrySwitch;

/**
 * What the environment a process was started with means for its telemetry, as lowest-precedence
 * defaults: NeMo's settings become ours and the {@code OTEL_EXPORTER_OTLP_*} variables point Boot's
 * exporters ({@link OtlpExportDefaults}), then the process's identity goes on its resource
 * ({@link ResourceAttributeDefaults}). Run by each Boot line's environment post-processor; nothing
 * here may fail the application.
 */
final class TelemetryEnvironmentDefaults {

	/** The SDK's setting for which HTTP sender its exporters use when there are several. */
	static final String HTTP_SENDER_PROPERTY = "io.opentelemetry.exporter.internal.http.HttpSenderProvider";

	/** Its name since the sender SPI moved into the SDK (1.59): 1.62 warns at the old one, later SDKs ignore it. */
	static final String SDK_HTTP_SENDER_PROPERTY = "io.opentelemetry.sdk.common.export.HttpSenderProvider";

	static final String OKHTTP_SENDER = "io.opentelemetry.exporter.sender.okhttp.internal.OkHttpHttpSenderProvider";

	private static final String OKHTTP_SENDER_RESOURCE = OKHTTP_SENDER.replace('.', '/') + ".class";

	private static final String JDK_SENDER_RESOURCE = "io/opentelemetry/exporter/sender/jdk/internal/JdkHttpSenderProvider.class";

	private static final String SDK_HTTP_SENDER_RESOURCE = SDK_HTTP_SENDER_PROPERTY.replace('.', '/') + ".class";

	private TelemetryEnvironmentDefaults() {
	}

	@SuppressWarnings({ "unchecked", "rawtypes" })
	static void apply(ConfigurableEnvironment environment, SpringApplication application, Log logger) {
		oneHttpSender(application.getClassLoader());
		// both steps here, in this order: each reads what the one before settled, and with telemetry
		// off neither step's class is loaded
		if (!TelemetrySwitch.enabled(environment)) {
			return;
		}
		Map<String, String> env = (Map) environment.getSystemEnvironment();
		new OtlpExportDefaults(logger).apply(environment, env);
		new ResourceAttributeDefaults(logger).apply(environment, env, ProcessHandle.current().pid());
	}

	/**
	 * The starter brings OpenTelemetry's JDK HTTP sender; an application with Boot's OpenTelemetry
	 * support also has its OkHttp one, and with two the SDK logs a warning each time it builds an
	 * exporter and takes either. There, OkHttp is chosen, what Boot's exporters used before the
	 * starter came (nothing changes for them), unless the application chose itself, under the
	 * setting's name in the SDK that is there. Telemetry on or off alike: Boot's exporters are
	 * built either way. A look at the class path, no class loaded.
	 */
	private static void oneHttpSender(ClassLoader classLoader) {
		try {
			if (classLoader == null || classLoader.getResource(OKHTTP_SENDER_RESOURCE) == null
					|| classLoader.getResource(JDK_SENDER_RESOURCE) == null
					|| chosen(HTTP_SENDER_PROPERTY) || chosen(SDK_HTTP_SENDER_PROPERTY)) {
				return;
			}
			System.setProperty((classLoader.getResource(SDK_HTTP_SENDER_RESOURCE) != null) ? SDK_HTTP_SENDER_PROPERTY
					: HTTP_SENDER_PROPERTY, OKHTTP_SENDER);
		}
		catch (RuntimeException ex) {
			// the SDK warns and picks one: nothing worse
		}
	}

	private static boolean chosen(String property) {
		return System.getProperty(property) != null
				|| System.getenv(property.replace('.', '_').toUpperCase(Locale.ROOT)) != null;
	}

}
