package io.github.startuptelemetry.archfixture.cycle;

/** Uses {@link Egg} in code; {@code Egg} names it only in Javadoc: no cycle. */
class Lonely {

	Egg egg;

}
