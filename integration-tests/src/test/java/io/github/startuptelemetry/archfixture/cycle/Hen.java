package io.github.startuptelemetry.archfixture.cycle;

/** Half of a cycle only the constant pool shows: the compiler inlines {@link Rooster#CROW}. */
class Hen {

	String wakeUp() {
		return Rooster.CROW;
	}

}
