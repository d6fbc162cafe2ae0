package io.github.startuptelemetry.archfixture.a;

import io.github.startuptelemetry.archfixture.api.Leaky;
import io.github.startuptelemetry.archfixture.b.B;

/** Half of a cycle, and a dependency on {@code api} its row does not allow. */
public class A {

	B b;

	Leaky leaky;

}
