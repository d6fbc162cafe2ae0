package io.github.startuptelemetry.supervisor;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.ConfigurationPropertyState;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when any {@code telemetry.supervisor.servers} or {@code telemetry.supervisor.fleet}
 * property is set, even an incomplete one: a fleet with a server that lacks its command must
 * fail validation, not be skipped.
 */
public class OnFleetCondition extends SpringBootCondition {

	private static final ConfigurationPropertyName SERVERS = ConfigurationPropertyName.of("telemetry.supervisor.servers");

	private static final ConfigurationPropertyName FLEET = ConfigurationPropertyName.of("telemetry.supervisor.fleet");

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(context.getEnvironment())) {
			if (source.containsDescendantOf(SERVERS) == ConfigurationPropertyState.PRESENT
					|| source.containsDescendantOf(FLEET) == ConfigurationPropertyState.PRESENT) {
				return ConditionOutcome.match("telemetry.supervisor.servers or .fleet is set");
			}
		}
		return ConditionOutcome.noMatch("no telemetry.supervisor.servers or .fleet");
	}

}
