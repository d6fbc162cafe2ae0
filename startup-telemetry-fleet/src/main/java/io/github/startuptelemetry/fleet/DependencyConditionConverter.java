package io.github.startuptelemetry.fleet;

import java.util.Locale;

import org.springframework.core.convert.converter.Converter;

import io.github.startuptelemetry.fleet.SupervisorProperties.DependencyCondition;

/**
 * Reads a {@code depends-on} value: {@code ready}, {@code started} or {@code completed} in any
 * case, and an empty value as {@code ready}. Anything else fails binding with the shape of the
 * property spelt out ({@link DependsOnListForm} takes a list's elements as names before this).
 */
final class DependencyConditionConverter implements Converter<String, DependencyCondition> {

	@Override
	public DependencyCondition convert(String source) {
		String value = source.strip().toUpperCase(Locale.ROOT).replace('-', '_');
		// Boot's own enum conversion would drop an empty value, and with it the dependency, without a word
		if (value.isEmpty()) {
			return DependencyCondition.READY;
		}
		for (DependencyCondition condition : DependencyCondition.values()) {
			if (condition.name().equals(value)) {
				return condition;
			}
		}
		throw new IllegalArgumentException("'" + source + "' is not a condition (ready, started or completed): "
				+ "depends-on maps each server this one waits for to its condition, e.g. depends-on.config=ready "
				+ "(in YAML, depends-on: {config: ready}), or lists the servers to be ready (depends-on: [config])");
	}

}
