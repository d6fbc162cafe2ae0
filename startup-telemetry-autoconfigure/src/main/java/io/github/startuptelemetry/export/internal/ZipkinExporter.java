package io.github.startuptelemetry.export.internal;

import io.opentelemetry.exporter.zipkin.ZipkinSpanExporter;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import zipkin2.reporter.urlconnection.URLConnectionSender;

import org.springframework.util.ClassUtils;

/**
 * The optional Zipkin span exporter ({@code telemetry.export.zipkin.endpoint}), for Boot's SDK and
 * the starter's own alike: with the JDK's {@code URLConnection} sender when it is on the class
 * path (no second HTTP client), else the exporter's default sender. Loaded only when the endpoint
 * is set and the exporter is on the class path.
 */
public final class ZipkinExporter {

	/** The exporter's class, present only when the application added it. */
	public static final String EXPORTER_CLASS = "io.opentelemetry.exporter.zipkin.ZipkinSpanExporter";

	private static final String URL_CONNECTION_SENDER = "zipkin2.reporter.urlconnection.URLConnectionSender";

	private ZipkinExporter() {
	}

	/** Whether the application has the Zipkin exporter. */
	public static boolean available() {
		return ClassUtils.isPresent(EXPORTER_CLASS, ZipkinExporter.class.getClassLoader());
	}

	/**
	 * An exporter to {@code endpoint} (a valid http(s) URL).
	 * @throws RuntimeException or LinkageError when no sender can be created
	 */
	public static SpanExporter create(String endpoint) {
		if (ClassUtils.isPresent(URL_CONNECTION_SENDER, ZipkinExporter.class.getClassLoader())) {
			return UrlConnection.exporter(endpoint.strip());
		}
		return ZipkinSpanExporter.builder().setEndpoint(endpoint.strip()).build();
	}

	/** Only loaded when {@code zipkin-sender-urlconnection} is on the class path. */
	private static final class UrlConnection {

		static SpanExporter exporter(String endpoint) {
			return ZipkinSpanExporter.builder().setSender(URLConnectionSender.create(endpoint)).build();
		}

	}

}
