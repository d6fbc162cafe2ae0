package io.github.startuptelemetry.launch;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

import io.github.startuptelemetry.autoconfigure.internal.TelemetryAutoConfigurationFilter;

/**
 * Matches when any {@code telemetry.supervisor.servers} or {@code telemetry.supervisor.fleet}
 * property is set, even an incomplete one, so that it fails validation instead of being skipped.
 * Applied through {@link ConditionalOnFleet}.
 */
class OnFleetCondition extends SpringBootCondition {

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		return TelemetryAutoConfigurationFilter.fleetDeclared(context.getEnvironment())
				? ConditionOutcome.match("telemetry.supervisor.servers or .fleet is set")
				: ConditionOutcome.noMatch("no telemetry.supervisor.servers or .fleet");
	}

}
