/**
 * The starter's one JSON text writer and bounded parser, JDK only.
 * <p>
 * Internal: not API. Public only because Java has no narrower visibility across packages; it
 * may change in any release without notice.
 */
package io.github.startuptelemetry.internal.json;
