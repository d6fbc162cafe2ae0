package io.github.startuptelemetry.archfixture.b;

import io.github.startuptelemetry.archfixture.a.A;

/** The other half of the cycle. */
public class B {

	A a;

}
