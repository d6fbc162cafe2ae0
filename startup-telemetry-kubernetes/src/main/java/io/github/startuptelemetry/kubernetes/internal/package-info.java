/**
 * What both Kubernetes halves share: whether this process runs in a pod, a pod's startup
 * times from its status and events, and the one way a fabric8 client is built.
 * <p>
 * Internal: not API. Public only because Java has no narrower visibility across packages; it
 * may change in any release without notice.
 */
@NullMarked
package io.github.startuptelemetry.kubernetes.internal;

import org.jspecify.annotations.NullMarked;
