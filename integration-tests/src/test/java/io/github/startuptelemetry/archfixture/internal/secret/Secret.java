package io.github.startuptelemetry.archfixture.internal.secret;

/** An internal type. */
public class Secret {

}
