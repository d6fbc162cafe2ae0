package io.github.startuptelemetry.kubernetes.internal;

import java.time.Duration;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;

/**
 * The one way a fabric8 client is built here: configured as fabric8 configures one by itself, over
 * the JDK's own HTTP client (named, so that no other client on the class path is picked), with the
 * caller's bounds on each request and its retries.
 */
public final class KubernetesClients {

	private KubernetesClients() {
	}

	/**
	 * A new client; close it when done.
	 * @param timeout how long to connect, and how long one request may take
	 * @param retries how often a failed request is retried (with fabric8's back-off)
	 */
	public static KubernetesClient create(Duration timeout, int retries) {
		return create(Config.autoConfigure(null), timeout, retries);
	}

	/** {@link #create(Duration, int)} with {@code config} as it is configured. */
	public static KubernetesClient create(Config config, Duration timeout, int retries) {
		int millis = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
		Config bounded = new ConfigBuilder(config).withConnectionTimeout(millis)
			.withRequestTimeout(millis)
			.withRequestRetryBackoffLimit(retries)
			.build();
		return new KubernetesClientBuilder().withConfig(bounded).withHttpClientFactory(new JdkHttpClientFactory()).build();
	}

	/** Whether {@code ex} is the API server's 403: the service account may not do it (RBAC). */
	public static boolean forbidden(Throwable ex) {
		return ex instanceof KubernetesClientException client && client.getCode() == 403;
	}

	/** Whether {@code ex} is the API server's 404. */
	public static boolean notFound(Throwable ex) {
		return ex instanceof KubernetesClientException client && client.getCode() == 404;
	}

	/** A short sentence of what went wrong, for a log line: the API's message, without a stack. */
	public static String describe(Throwable ex) {
		if (ex instanceof KubernetesClientException client && client.getStatus() != null
				&& client.getStatus().getMessage() != null) {
			return client.getCode() + " " + client.getStatus().getReason() + ": " + client.getStatus().getMessage();
		}
		Throwable cause = ex;
		while (cause.getCause() != null && cause.getCause() != cause) {
			cause = cause.getCause();
		}
		return (cause == ex) ? String.valueOf(ex.getMessage()) : ex.getMessage() + " (" + cause + ")";
	}

}
