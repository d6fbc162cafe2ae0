/**
 * The one HTTP/1.1 framing of the starter's hand-written clients (the fleet's probes, a
 * server's ready callback and its readiness warm-up, the callback endpoint's warm-up): request
 * heads, the status line, {@code Content-Length} and chunked bodies. JDK only.
 * <p>
 * Internal: not API. Public only because Java has no narrower visibility across packages; it
 * may change in any release without notice.
 */
package io.github.startuptelemetry.internal.http;
