/**
 * The supervisor's side of the ready callback: the token-guarded {@code /clock} and
 * {@code /ready} endpoint its servers call.
 * <p>
 * Internal: not API. Public only because Java has no narrower visibility across packages; it
 * may change in any release without notice.
 */
package io.github.startuptelemetry.internal.callback;
