package io.github.startuptelemetry.export.internal;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProviderBuilder;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import org.apache.commons.logging.Log;

import io.github.startuptelemetry.contract.ResourceAttributes;
import io.github.startuptelemetry.tracing.internal.StartupSampler;
import io.github.startuptelemetry.tracing.internal.TypedResource;

/**
 * The starter's own OpenTelemetry SDK, for a process that has none of its own and somewhere to
 * export to: the SDK's own configuration of the {@code OTEL_*} settings with Spring's on top
 * ({@link ExportSettings}), only the signals those export. Not global; loaded only when built.
 */
final class OwnSdk {

	private static final Log logger = ExportLog.logger();

	/**
	 * The SDK's exporters log every failed export at SEVERE with its stack trace; {@link ExportLog}
	 * says it instead. Held here: a JUL logger only keeps its level while someone references it.
	 */
	private static final Logger[] SILENCED = { Logger.getLogger("io.opentelemetry.exporter.internal.http.HttpExporter"),
			Logger.getLogger("io.opentelemetry.exporter.internal.grpc.GrpcExporter") };

	/** The longest attribute value a span of the starter's own SDK carries, unless the process says otherwise. */
	static final int ATTRIBUTE_VALUE_LENGTH = 8192;

	/** The most events a span of the starter's own SDK keeps, unless the process says otherwise. */
	static final int SPAN_EVENTS = 16;

	/** The most series an instrument of the starter's own SDK has, unless the process says otherwise. */
	static final int METRIC_SERIES = 100_000;

	/** The SDK's setting for the series an instrument may have (2,000 by default). */
	static final String CARDINALITY_LIMIT = "otel.java.metrics.cardinality.limit";

	private OwnSdk() {
	}

	/**
	 * An SDK for {@code settings} (which {@link ExportSettings#exports() export} something).
	 * @throws RuntimeException when the settings cannot be built (an unsupported protocol, say)
	 */
	static OpenTelemetrySdk build(ExportSettings settings) {
		for (Logger silenced : SILENCED) {
			silenced.setLevel(Level.OFF);
		}
		String destination = settings.destination();
		ProtocolAdvice advice = new ProtocolAdvice(settings);
		advice.beforeExport();
		ExportLog spans = new ExportLog("spans", destination, advice);
		ExportLog metrics = new ExportLog("metrics", destination, advice);
		OpenTelemetrySdk sdk = AutoConfiguredOpenTelemetrySdk.builder()
			.disableShutdownHook()
			// OTLP/HTTP over the JDK's client even where OkHttp's sender is there too (for gRPC)
			.setServiceClassLoader(HttpSenderFilter.jdkOnly(AutoConfiguredOpenTelemetrySdk.class.getClassLoader()))
			// the standard's default (the SDK for Java's own default is still gRPC), but in a NeMo
			// process that can speak gRPC: there gRPC, as its Python servers default to
			.addPropertiesSupplier(() -> Map.of("otel.exporter.otlp.protocol", settings.protocols().defaultProtocol()))
			.addPropertiesCustomizer((config) -> properties(config, settings))
			.addResourceCustomizer((resource, config) -> resource(resource, config, settings))
			.addSamplerCustomizer((sampler, config) -> StartupSampler.wrap(sampler))
			.addSpanExporterCustomizer(
					(exporter, config) -> QuietExporters.spans(BoundedRequests.spans(exporter), spans))
			.addMetricExporterCustomizer(
					(exporter, config) -> QuietExporters.metrics(BoundedRequests.metrics(exporter), metrics))
			.addTracerProviderCustomizer((builder, config) -> zipkin(builder, settings, spans))
			.build()
			.getOpenTelemetrySdk();
		if (logger.isDebugEnabled()) {
			logger.debug("Built the starter's OpenTelemetry SDK for " + settings);
		}
		return sdk;
	}

	/**
	 * Spring's settings over the process's {@code otel.*} ones, and only the exporters that have
	 * somewhere to go: with nothing configured, the SDK's defaults would export to
	 * {@code localhost:4318}. An exporter the process switched off ({@code OTEL_*_EXPORTER=none})
	 * stays off.
	 */
	static Map<String, String> properties(ConfigProperties config, ExportSettings settings) {
		Map<String, String> properties = new LinkedHashMap<>(settings.otelProperties());
		limits(config, properties);
		properties.put("otel.traces.exporter",
				(settings.otlpTraces() && !"none".equals(config.getString("otel.traces.exporter"))) ? "otlp" : "none");
		properties.put("otel.metrics.exporter",
				(settings.exportsMetrics() && !"none".equals(config.getString("otel.metrics.exporter"))) ? "otlp"
						: "none");
		properties.put("otel.logs.exporter", "none");
		return properties;
	}

	/**
	 * Limits for what only carries the starter's own telemetry, each unless the process set it:
	 * an attribute value (a failure's stack trace, an env value) of at most
	 * {@value #ATTRIBUTE_VALUE_LENGTH} characters and {@value #SPAN_EVENTS} events a span (a startup
	 * span has one at most); and a histogram may have {@value #METRIC_SERIES} series, not the
	 * SDK's 2,000: the supervisor's {@code gym.server.startup_duration_ms} is tagged per server
	 * (NeMo Gym's contract), so a fleet of more than 2,000 would fold the rest into one overflow
	 * series.
	 */
	private static void limits(ConfigProperties config, Map<String, String> properties) {
		if (config.getInt("otel.span.attribute.value.length.limit") == null
				&& config.getInt("otel.attribute.value.length.limit") == null) {
			properties.put("otel.span.attribute.value.length.limit", Integer.toString(ATTRIBUTE_VALUE_LENGTH));
		}
		if (config.getInt("otel.span.event.count.limit") == null) {
			properties.put("otel.span.event.count.limit", Integer.toString(SPAN_EVENTS));
		}
		if (config.getInt(CARDINALITY_LIMIT) == null) {
			properties.put(CARDINALITY_LIMIT, Integer.toString(METRIC_SERIES));
		}
	}

	/**
	 * The SDK's resource (its defaults, {@code OTEL_RESOURCE_ATTRIBUTES}, {@code OTEL_SERVICE_NAME})
	 * with Spring's resource attributes over it, the process's service name when nothing named
	 * one and its namespace ({@code spring.application.group}) when nothing set one, as Boot's
	 * resource has them, typed.
	 */
	static Resource resource(Resource resource, ConfigProperties config, ExportSettings settings) {
		AttributesBuilder attributes = resource.getAttributes().toBuilder();
		settings.resourceAttributes().forEach((key, value) -> attributes.put(AttributeKey.stringKey(key), value));
		boolean named = config.getString("otel.service.name") != null
				|| config.getMap("otel.resource.attributes").containsKey(ResourceAttributes.SERVICE_NAME)
				|| settings.resourceAttributes().containsKey(ResourceAttributes.SERVICE_NAME);
		if (!named) {
			attributes.put(AttributeKey.stringKey(ResourceAttributes.SERVICE_NAME), settings.serviceName());
		}
		AttributeKey<String> namespace = AttributeKey.stringKey(ResourceAttributes.SERVICE_NAMESPACE);
		if (settings.serviceNamespace() != null && resource.getAttribute(namespace) == null
				&& !settings.resourceAttributes().containsKey(ResourceAttributes.SERVICE_NAMESPACE)) {
			attributes.put(namespace, settings.serviceNamespace());
		}
		return TypedResource.typed(Resource.create(attributes.build(), resource.getSchemaUrl()));
	}

	/** Zipkin beside OTLP, when its endpoint is set and the application has the exporter. */
	private static SdkTracerProviderBuilder zipkin(SdkTracerProviderBuilder builder, ExportSettings settings,
			ExportLog otlp) {
		String endpoint = settings.zipkinEndpoint();
		if (endpoint == null) {
			return builder;
		}
		if (!ZipkinExporter.available()) {
			logger.warn("Ignoring telemetry.export.zipkin.endpoint: the application lacks "
					+ "io.opentelemetry:opentelemetry-exporter-zipkin");
			return builder;
		}
		ExportLog zipkin = new ExportLog("spans", ExportSettings.redact(endpoint));
		return builder.addSpanProcessor(
				BatchSpanProcessor.builder(QuietExporters.spans(ZipkinExporter.create(endpoint), zipkin)).build());
	}

}
