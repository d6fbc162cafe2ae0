package io.github.startuptelemetry.archfixture.api;

import io.github.startuptelemetry.archfixture.internal.secret.Secret;

/** An API type that shows an internal one. */
public class Leaky {

	public Secret secret() {
		return new Secret();
	}

	String fine() {
		return "package-private members may use anything";
	}

}
