/**
 * The launch shell every launcher runs where the server runs: it times the setup step, forks
 * the orphan guard and execs the server.
 * <p>
 * Internal: not API. Public only because Java has no narrower visibility across packages; it
 * may change in any release without notice.
 */
package io.github.startuptelemetry.internal.launch;
