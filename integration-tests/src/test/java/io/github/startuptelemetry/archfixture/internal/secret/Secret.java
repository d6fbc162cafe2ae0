package io.github.startuptelemetry.archfixture.internal.secret;

/** An internal type, with a constant another package inlines. */
public class Secret {

	public static final String WORD = "hush";

}
