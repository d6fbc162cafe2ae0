package io.github.startuptelemetry.lifecycle;

import io.opentelemetry.api.OpenTelemetry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TelemetryHandleTest {

	private final OpenTelemetry first = OpenTelemetry.noop();

	private final OpenTelemetry second = OpenTelemetry.propagating(
			io.opentelemetry.context.propagation.ContextPropagators.noop());

	@AfterEach
	void clear() {
		TelemetryHandle.register(this.first).close();
	}

	@Test
	void holdsTheApplicationsOpenTelemetryUntilClosed() {
		TelemetryHandle.Registration registration = TelemetryHandle.register(this.first);
		assertThat(TelemetryHandle.get().openTelemetry()).isSameAs(this.first);
		assertThat(TelemetryHandle.get().tracer("test")).isNotNull();
		registration.close();
		assertThat(TelemetryHandle.get()).isNull();
	}

	@Test
	void closingAnOlderRegistrationLeavesTheLatest() {
		TelemetryHandle.Registration older = TelemetryHandle.register(this.first);
		TelemetryHandle.Registration latest = TelemetryHandle.register(this.second);
		older.close();
		assertThat(TelemetryHandle.get().openTelemetry()).isSameAs(this.second);
		latest.close();
		assertThat(TelemetryHandle.get()).isNull();
	}

}
