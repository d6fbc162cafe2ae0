/**
 * What every launcher shares: the launch shell with its orphan guard, and the free ports a
 * fleet's {@code {port}} takes.
 * <p>
 * Internal: not API. Public only because Java has no narrower visibility across packages; it
 * may change in any release without notice.
 */
@NullMarked
package io.github.startuptelemetry.launch.internal;

import org.jspecify.annotations.NullMarked;
