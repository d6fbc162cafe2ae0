package io.github.startuptelemetry.archfixture.cycle;

/** The other half; it names {@link Lonely} only here, in Javadoc, which makes no cycle. */
class Egg {

	Chicken mother;

}
