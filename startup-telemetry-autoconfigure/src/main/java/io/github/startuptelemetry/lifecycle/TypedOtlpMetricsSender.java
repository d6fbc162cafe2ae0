package io.github.startuptelemetry.lifecycle;

import io.micrometer.registry.otlp.OtlpMetricsSender;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The OTLP meter registry's sender, typing each payload on its way out ({@link OtlpMetricsTypes})
 * through Micrometer's own extension point, so that the meters stay as they are in every other
 * registry. A payload that cannot be typed goes out as it came.
 */
final class TypedOtlpMetricsSender implements OtlpMetricsSender {

	private static final Log logger = LogFactory.getLog(TypedOtlpMetricsSender.class);

	private final OtlpMetricsSender delegate;

	TypedOtlpMetricsSender(OtlpMetricsSender delegate) {
		this.delegate = delegate;
	}

	@Override
	public void send(Request request) throws Exception {
		byte[] payload = request.getMetricsData();
		byte[] typed = typed(payload);
		this.delegate.send((typed != payload)
				? Request.builder(typed).address(request.getAddress()).headers(request.getHeaders()).build() : request);
	}

	private static byte[] typed(byte[] payload) {
		try {
			return OtlpMetricsTypes.typed(payload);
		}
		catch (Exception | LinkageError ex) {
			logger.debug("Sending an OTLP metrics payload untyped after a failure", ex);
			return payload;
		}
	}

}
