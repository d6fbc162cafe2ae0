package io.github.startuptelemetry.testcontexts.internal;

import java.util.List;

/**
 * One aspect in which a context's configuration differs from an earlier one's.
 *
 * @param aspect what part of the configuration ({@code bean overrides}, {@code active profiles}, ...)
 * @param added what the context has and the earlier had not
 * @param removed what the earlier had and the context has not
 */
public record Difference(String aspect, List<String> added, List<String> removed) {

	public Difference {
		added = List.copyOf(added);
		removed = List.copyOf(removed);
	}

	/** {@code bean overrides: + @MockitoBean GreetingService (field greeting)}. */
	public String text() {
		StringBuilder text = new StringBuilder(this.aspect).append(':');
		this.added.forEach((value) -> text.append(" + ").append(value));
		this.removed.forEach((value) -> text.append(" − ").append(value));
		return text.toString();
	}

}
