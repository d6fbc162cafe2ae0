package io.github.startuptelemetry.kubernetes.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.KubernetesAttributes;

/**
 * Whether this process runs in a Kubernetes pod, and the pod's own names, from what every pod is
 * given ({@code KUBERNETES_SERVICE_HOST} and the mounted service account), read where the fabric8
 * client reads them so that the two agree. JDK only: asked before any fabric8 class is loaded.
 */
public final class InCluster {

	/** Where a pod's service account is mounted. */
	static final String SERVICE_ACCOUNT = "/var/run/secrets/kubernetes.io/serviceaccount/";

	/** fabric8's override of the token file ({@code kubernetes.auth.serviceAccount.token}). */
	static final String ENV_TOKEN_FILE = "KUBERNETES_AUTH_SERVICEACCOUNT_TOKEN";

	/** fabric8's override of the namespace file ({@code kubenamespace}). */
	static final String ENV_NAMESPACE_FILE = "KUBENAMESPACE";

	private InCluster() {
	}

	/**
	 * Whether {@code env} is a pod's with a service account: {@code KUBERNETES_SERVICE_HOST} set and
	 * the token file there. A pod that mounts no token (automountServiceAccountToken: false) cannot
	 * read its own pod, so it does not count.
	 */
	public static boolean detected(Map<String, String> env) {
		String host = env.get(KubernetesAttributes.ENV_SERVICE_HOST);
		return host != null && !host.isBlank() && Files.isRegularFile(tokenFile(env));
	}

	/** Why {@code env} is not a pod's with a service account, for a debug line; {@code null} when it is. */
	public static @Nullable String notDetected(Map<String, String> env) {
		String host = env.get(KubernetesAttributes.ENV_SERVICE_HOST);
		if (host == null || host.isBlank()) {
			return KubernetesAttributes.ENV_SERVICE_HOST + " is not set";
		}
		if (!Files.isRegularFile(tokenFile(env))) {
			return "no service account token at " + tokenFile(env) + " (automountServiceAccountToken: false?)";
		}
		return null;
	}

	static Path tokenFile(Map<String, String> env) {
		String file = env.get(ENV_TOKEN_FILE);
		return Path.of((file != null && !file.isBlank()) ? file : SERVICE_ACCOUNT + "token");
	}

	/** The pod's namespace, from its service account; {@code null} when unreadable. */
	public static @Nullable String namespace(Map<String, String> env) {
		String file = env.get(ENV_NAMESPACE_FILE);
		try {
			String namespace = Files.readString(Path.of((file != null && !file.isBlank()) ? file : SERVICE_ACCOUNT
					+ "namespace"), StandardCharsets.UTF_8).strip();
			return namespace.isEmpty() ? null : namespace;
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
	}

	/**
	 * The pod's own name: the Downward API's ({@value KubernetesAttributes#ENV_POD_NAME}) when the
	 * pod has it, else {@code HOSTNAME}, which is the pod's name unless its spec sets a hostname.
	 */
	public static @Nullable String podName(Map<String, String> env) {
		String name = env.get(KubernetesAttributes.ENV_POD_NAME);
		if (name == null || name.isBlank()) {
			name = env.get("HOSTNAME");
		}
		return (name == null || name.isBlank()) ? null : name.strip();
	}

}
