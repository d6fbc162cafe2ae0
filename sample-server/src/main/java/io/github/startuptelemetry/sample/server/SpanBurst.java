package io.github.startuptelemetry.sample.server;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Tracer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Test aid ({@code sample.span-burst=N}): once ready, queues N ended spans for export, the
 * backlog a busy server has when it is told to stop. Off unless set.
 */
@Component
@ConditionalOnProperty("sample.span-burst")
class SpanBurst {

	private static final Log logger = LogFactory.getLog(SpanBurst.class);

	private final OpenTelemetry openTelemetry;

	private final int count;

	SpanBurst(OpenTelemetry openTelemetry, @Value("${sample.span-burst}") int count) {
		this.openTelemetry = openTelemetry;
		this.count = count;
	}

	@EventListener(ApplicationReadyEvent.class)
	void burst() {
		Tracer tracer = this.openTelemetry.getTracer("sample-server");
		for (int i = 0; i < this.count; i++) {
			tracer.spanBuilder("sample.burst").setAttribute("sample.burst.index", i).startSpan().end();
		}
		logger.info("Queued " + this.count + " spans");
	}

}
