package io.github.startuptelemetry.contract;

/**
 * The labels the {@code kubernetes} launcher puts on every pod it creates, so that operators
 * ({@code kubectl get pods -l ...}) and the launcher itself (a later run's clean-up) can select
 * them. Keys under {@link #PREFIX}, the project's own domain; values are label values (at most 63
 * characters of letters, digits, {@code -}, {@code _} and {@code .}).
 */
public final class KubernetesLabels {

	/** The prefix of our own label keys. */
	public static final String PREFIX = "startuptelemetry.github.io/";

	/** Kubernetes' recommended label for the tool that manages a resource: {@link #MANAGED_BY_VALUE}. */
	public static final String MANAGED_BY = "app.kubernetes.io/managed-by";

	/** The value of {@link #MANAGED_BY} on our pods. */
	public static final String MANAGED_BY_VALUE = "startup-telemetry";

	/**
	 * The supervisor that created the pod, by its stable name
	 * ({@code telemetry.supervisor.kubernetes.supervisor-name}): what a restarted supervisor of that
	 * name selects the pods of its earlier runs by, to delete them.
	 */
	public static final String SUPERVISOR = PREFIX + "supervisor";

	/** One supervisor process (random, per start): what it watches its own pods by. */
	public static final String INSTANCE = PREFIX + "instance";

	/** The server the pod runs (its name in the fleet, a replica's with its index). */
	public static final String SERVER = PREFIX + "server";

	private KubernetesLabels() {
	}

}
