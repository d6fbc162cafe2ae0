package io.github.startuptelemetry.autoconfigure;

import io.opentelemetry.exporter.zipkin.ZipkinSpanExporter;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import zipkin2.reporter.urlconnection.URLConnectionSender;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

import io.github.startuptelemetry.lifecycle.HttpUrl;

/**
 * A Zipkin span exporter beside Boot's own exporters, for looking at startups locally when no
 * OpenTelemetry collector runs ({@code telemetry.export.zipkin.endpoint}). Boot's tracing
 * auto-configuration hands every {@link SpanExporter} bean to its span processor. The sender is
 * the JDK's {@code URLConnection}: no second HTTP client. A malformed endpoint is logged once
 * and skipped; it never fails the application.
 */
@AutoConfiguration
@ConditionalOnClass(name = { "io.opentelemetry.exporter.zipkin.ZipkinSpanExporter",
		"zipkin2.reporter.urlconnection.URLConnectionSender" })
@ConditionalOnBooleanProperty(name = "telemetry.enabled", matchIfMissing = true)
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
		return ZipkinSpanExporter.builder().setSender(URLConnectionSender.create(endpoint)).build();
	}

	static boolean isHttpUrl(String value) {
		return value != null && HttpUrl.isValid(value.strip());
	}

}
