package io.github.startuptelemetry.archfixture.cycle;

/** The other half, in code. */
class Rooster {

	static final String CROW = "cock-a-doodle-doo";

	Hen hen;

}
