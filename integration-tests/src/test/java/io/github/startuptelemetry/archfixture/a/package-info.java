/** The one fixture package that is {@code @NullMarked}. */
@NullMarked
package io.github.startuptelemetry.archfixture.a;

import org.jspecify.annotations.NullMarked;
