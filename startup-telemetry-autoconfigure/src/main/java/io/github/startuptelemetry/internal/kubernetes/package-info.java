/**
 * What the Kubernetes support's server side and launcher share: whether this process runs in a
 * pod ({@code InCluster}, JDK only), the times of a pod's startup read from the API
 * ({@code PodTimes}, with the kubelet's {@code Pulled} message parsed by {@code PulledMessage}),
 * and the one way a fabric8 client is built ({@code KubernetesClients}, over the JDK's HTTP
 * client). Everything but {@code InCluster} and {@code PulledMessage} needs fabric8
 * ({@code startup-telemetry-kubernetes}) and is loaded only where it is on the class path.
 * <p>
 * Internal: not API. Public only because Java has no narrower visibility across packages; it
 * may change in any release without notice.
 */
package io.github.startuptelemetry.internal.kubernetes;
