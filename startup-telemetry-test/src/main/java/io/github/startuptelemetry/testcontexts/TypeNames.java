package io.github.startuptelemetry.testcontexts;

/**
 * How a test author names a type. Apart from {@link ContextFacts}, so that a test class's name
 * costs no more than this class on the test's time: the facts are read at the end of the run.
 */
final class TypeNames {

	private TypeNames() {
	}

	/** {@code org.example.Foo$Bar} → {@code Foo.Bar}. */
	static String simple(Class<?> type) {
		String name = type.getName();
		int dot = name.lastIndexOf('.');
		return name.substring(dot + 1).replace('$', '.');
	}

}
