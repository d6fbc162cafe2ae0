/**
 * The switch read before a context exists, and the auto-configuration import filter that
 * drops what cannot apply by name, before a class file is read.
 * <p>
 * Internal: not API. Public only because Java has no narrower visibility across packages; it
 * may change in any release without notice.
 */
@NullMarked
package io.github.startuptelemetry.autoconfigure.internal;

import org.jspecify.annotations.NullMarked;
