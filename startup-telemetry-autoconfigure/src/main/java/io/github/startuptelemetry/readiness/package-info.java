/**
 * The server warms up the path its supervisor will probe before it says it is ready.
 */
@NullMarked
package io.github.startuptelemetry.readiness;

import org.jspecify.annotations.NullMarked;
