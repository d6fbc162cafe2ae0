package io.github.startuptelemetry.archfixture.cycle;

/** Half of a cycle inside one package, through an anonymous class: it counts as this class. */
class Chicken {

	Runnable lay() {
		return new Runnable() {

			@Override
			public void run() {
				new Egg();
			}

		};
	}

}
