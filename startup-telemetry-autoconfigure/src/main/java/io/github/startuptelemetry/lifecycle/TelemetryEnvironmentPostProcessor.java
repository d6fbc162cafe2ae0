package io.github.startuptelemetry.lifecycle;

import java.util.Map;

import org.apache.commons.logging.Log;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;

import io.github.startuptelemetry.autoconfigure.internal.TelemetrySwitch;

/**
 * What the environment a process was started with means for its telemetry, as lowest-precedence
 * defaults: NeMo's settings become ours and the {@code OTEL_EXPORTER_OTLP_*} variables point Boot's
 * exporters ({@link OtlpExportDefaults}), then the process's identity goes on its resource
 * ({@link ResourceAttributeDefaults}). Nothing here may fail the application.
 */
class TelemetryEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

	/** The SDK's setting for which HTTP sender its exporters use when there are several. */
	static final String HTTP_SENDER_PROPERTY = "io.opentelemetry.exporter.internal.http.HttpSenderProvider";

	static final String OKHTTP_SENDER = "io.opentelemetry.exporter.sender.okhttp.internal.OkHttpHttpSenderProvider";

	private static final String OKHTTP_SENDER_RESOURCE = OKHTTP_SENDER.replace('.', '/') + ".class";

	private static final String JDK_SENDER_RESOURCE = "io/opentelemetry/exporter/sender/jdk/internal/JdkHttpSenderProvider.class";

	private final Log logger;

	TelemetryEnvironmentPostProcessor(DeferredLogFactory logFactory) {
		this.logger = logFactory.getLog(TelemetryEnvironmentPostProcessor.class);
	}

	/** After Boot's own, so that {@code application.yml} and the command line are known. */
	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

	@Override
	@SuppressWarnings({ "unchecked", "rawtypes" })
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		oneHttpSender(application.getClassLoader());
		// one post-processor for both steps, in this order: each reads what the one before settled, and
		// with telemetry off neither step's class is loaded
		if (!TelemetrySwitch.enabled(environment)) {
			return;
		}
		Map<String, String> env = (Map) environment.getSystemEnvironment();
		new OtlpExportDefaults(this.logger).apply(environment, env);
		new ResourceAttributeDefaults(this.logger).apply(environment, env, ProcessHandle.current().pid());
	}

	/**
	 * The starter brings OpenTelemetry's JDK HTTP sender; an application with Boot's OpenTelemetry
	 * support also has its OkHttp one, and with two the SDK logs a warning each time it builds an
	 * exporter and takes either. There, OkHttp is chosen, what Boot's exporters used before the
	 * starter came (nothing changes for them), unless the application chose itself. Telemetry on
	 * or off alike: Boot's exporters are built either way. A look at the class path, no class loaded.
	 */
	private static void oneHttpSender(ClassLoader classLoader) {
		try {
			if (System.getProperty(HTTP_SENDER_PROPERTY) == null
					&& System.getenv(HTTP_SENDER_PROPERTY.replace('.', '_').toUpperCase(java.util.Locale.ROOT)) == null
					&& classLoader != null && classLoader.getResource(OKHTTP_SENDER_RESOURCE) != null
					&& classLoader.getResource(JDK_SENDER_RESOURCE) != null) {
				System.setProperty(HTTP_SENDER_PROPERTY, OKHTTP_SENDER);
			}
		}
		catch (RuntimeException ex) {
			// the SDK warns and picks one: nothing worse
		}
	}

}
