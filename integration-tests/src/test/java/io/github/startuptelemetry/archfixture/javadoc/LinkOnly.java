package io.github.startuptelemetry.archfixture.javadoc;

import java.util.List;

import io.github.startuptelemetry.archfixture.b.B;

/** Imports {@link B} for this link alone; {@code List} is used in code. */
class LinkOnly {

	List<String> names = List.of();

}
