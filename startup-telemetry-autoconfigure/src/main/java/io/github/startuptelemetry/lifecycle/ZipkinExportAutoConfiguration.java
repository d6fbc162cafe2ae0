package io.github.startuptelemetry.lifecycle;

import io.opentelemetry.exporter.zipkin.ZipkinSpanExporter;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

import io.github.startuptelemetry.autoconfigure.ConditionalOnTelemetryEnabled;
import io.github.startuptelemetry.autoconfigure.TelemetryProperties;
import io.github.startuptelemetry.autoconfigure.internal.ConditionalOnBootOpenTelemetryTracing;
import io.github.startuptelemetry.export.internal.ZipkinExporter;
import io.github.startuptelemetry.lifecycle.internal.HttpUrl;

/**
 * A Zipkin span exporter beside Boot's own exporters ({@code telemetry.export.zipkin.endpoint}),
 * for looking at startups locally when no collector runs, in an application with Boot's tracing
 * (without it the starter's own SDK adds the exporter). Opt-in: it backs off, before its class is
 * loaded, without {@code opentelemetry-exporter-zipkin} on the class path.
 */
@AutoConfiguration
@ConditionalOnClass(name = "io.opentelemetry.exporter.zipkin.ZipkinSpanExporter")
@ConditionalOnBootOpenTelemetryTracing
@ConditionalOnTelemetryEnabled
@ConditionalOnProperty(name = "telemetry.export.zipkin.endpoint")
@EnableConfigurationProperties(TelemetryProperties.class)
public final class ZipkinExportAutoConfiguration {

	private static final Log logger = LogFactory.getLog(ZipkinExportAutoConfiguration.class);

	@Bean
	@ConditionalOnMissingBean(ZipkinSpanExporter.class)
	SpanExporter startupTelemetryZipkinSpanExporter(TelemetryProperties properties) {
		String endpoint = properties.getExport().getZipkin().getEndpoint();
		if (!isHttpUrl(endpoint)) {
			logger.warn("Ignoring telemetry.export.zipkin.endpoint: not an http(s) URL");
			return SpanExporter.composite();
		}
		try {
			return ZipkinExporter.create(endpoint);
		}
		catch (RuntimeException | LinkageError ex) {
			// e.g. the exporter without any sender on the class path
			logger.warn("Ignoring telemetry.export.zipkin.endpoint: no Zipkin sender could be created (" + ex
					+ "); add io.zipkin.reporter2:zipkin-sender-urlconnection");
			return SpanExporter.composite();
		}
	}

	static boolean isHttpUrl(String value) {
		return value != null && HttpUrl.isValid(value.strip());
	}

}
