/**
 * A server in a Kubernetes pod adds its pod's stages ({@code pod_scheduling}, {@code pod_setup}
 * with the {@code image_pull} inside it) ahead of its JVM's: once it is ready, off its main thread,
 * it reads its own pod (and its events, when allowed) once, with the fabric8 client
 * ({@code startup-telemetry-kubernetes}). Outside Kubernetes none of this is loaded; without the
 * client, or without the permission to read the pod, the server reports its own stages as before
 * and says why at debug level.
 */
package io.github.startuptelemetry.server.kubernetes;
