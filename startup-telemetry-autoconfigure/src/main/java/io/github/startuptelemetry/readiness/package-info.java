/**
 * The server warms up the path its supervisor will probe before it says it is ready.
 */
package io.github.startuptelemetry.readiness;
