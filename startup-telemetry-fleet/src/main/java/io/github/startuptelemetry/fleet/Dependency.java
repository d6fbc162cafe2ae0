package io.github.startuptelemetry.fleet;

import java.util.List;

import io.github.startuptelemetry.contract.DependencyConditions;
import io.github.startuptelemetry.fleet.SupervisorProperties.DependencyCondition;

/**
 * One entry of a server's {@code depends-on}, expanded: the declared server it names, the
 * condition, and the servers that must each meet it (its replicas, or itself alone).
 *
 * @param name the declared server's name, as the user wrote it
 * @param condition when it counts as met
 * @param servers the servers it stands for
 */
record Dependency(String name, DependencyCondition condition, List<String> servers) {

	Dependency {
		servers = List.copyOf(servers);
	}

	/** The condition as reports and spans write it: {@code ready}, {@code started}, {@code completed}. */
	String conditionName() {
		return switch (this.condition) {
			case READY -> DependencyConditions.READY;
			case STARTED -> DependencyConditions.STARTED;
			case COMPLETED -> DependencyConditions.COMPLETED;
		};
	}

	/** {@code config:ready}, as the span attribute lists it. */
	@Override
	public String toString() {
		return this.name + ":" + conditionName();
	}

}
