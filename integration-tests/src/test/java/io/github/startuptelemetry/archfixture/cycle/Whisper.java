package io.github.startuptelemetry.archfixture.cycle;

import io.github.startuptelemetry.archfixture.internal.secret.Secret;

/** Depends on {@code internal.secret}, which its package may not use, through an inlined constant alone. */
class Whisper {

	String word() {
		return Secret.WORD;
	}

}
