package io.github.startuptelemetry.launch;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

import io.github.startuptelemetry.autoconfigure.internal.TelemetryAutoConfigurationFilter;

/**
 * Matches when any {@code telemetry.supervisor.servers} or {@code telemetry.supervisor.fleet}
 * property is set, even an incomplete one: a fleet with a server that lacks its command must
 * fail validation, not be skipped. In an application's auto-configuration the
 * {@link TelemetryAutoConfigurationFilter} has already applied the same test by name; the
 * condition is for a configuration imported directly, and for the nested ones. Applied through
 * {@link ConditionalOnFleet}.
 */
class OnFleetCondition extends SpringBootCondition {

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		return TelemetryAutoConfigurationFilter.fleetDeclared(context.getEnvironment())
				? ConditionOutcome.match("telemetry.supervisor.servers or .fleet is set")
				: ConditionOutcome.noMatch("no telemetry.supervisor.servers or .fleet");
	}

}
