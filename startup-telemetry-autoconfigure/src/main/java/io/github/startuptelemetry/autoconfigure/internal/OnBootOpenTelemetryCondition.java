package io.github.startuptelemetry.autoconfigure.internal;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

import io.github.startuptelemetry.internal.BootLine;

/** Whether one of Boot's OpenTelemetry auto-configurations is on the class path: a look for the class file, nothing loaded. */
abstract class OnBootOpenTelemetryCondition extends SpringBootCondition {

	private final String configuration;

	OnBootOpenTelemetryCondition(String configuration) {
		this.configuration = configuration;
	}

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		return BootLine.onClassPath(this.configuration)
				? ConditionOutcome.match(this.configuration + " is on the class path")
				: ConditionOutcome.noMatch(this.configuration + " is not on the class path");
	}

	/** Applied through {@link ConditionalOnBootOpenTelemetry}. */
	static final class Sdk extends OnBootOpenTelemetryCondition {

		Sdk() {
			super(BootLine.OPENTELEMETRY_SDK_CONFIGURATION);
		}

	}

	/** Applied through {@link ConditionalOnBootOpenTelemetryTracing}. */
	static final class Tracing extends OnBootOpenTelemetryCondition {

		Tracing() {
			super(BootLine.OPENTELEMETRY_TRACING_CONFIGURATION);
		}

	}

}
