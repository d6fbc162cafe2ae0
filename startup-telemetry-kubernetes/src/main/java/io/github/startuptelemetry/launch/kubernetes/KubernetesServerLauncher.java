package io.github.startuptelemetry.launch.kubernetes;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;

import io.fabric8.kubernetes.client.Config;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;

import io.github.startuptelemetry.kubernetes.internal.InCluster;
import io.github.startuptelemetry.launch.LaunchRequest;
import io.github.startuptelemetry.launch.LaunchedServer;
import io.github.startuptelemetry.launch.ServerLauncher;

/**
 * The {@code kubernetes} launcher: each server a pod ({@link PodFactory}), created in the cluster
 * the fabric8 client is configured for, watched until it runs, probed at its IP, and deleted when
 * the fleet stops; the cluster is opened when the supervisor starts, so that one it cannot use
 * fails it then.
 */
final class KubernetesServerLauncher implements ServerLauncher, DisposableBean {

	static final String NAME = "kubernetes";

	private final KubernetesLauncherSettings settings;

	private final Object lock = new Object();

	private @Nullable SupervisorPods pods;

	private boolean closed;

	KubernetesServerLauncher(KubernetesLauncherSettings settings) {
		this.settings = settings;
	}

	@Override
	public String name() {
		return NAME;
	}

	KubernetesLauncherSettings settings() {
		return this.settings;
	}

	@Override
	public @Nullable String unavailable() {
		boolean inCluster = InCluster.detected(this.settings.env());
		if (!inCluster && !configured()) {
			return "it creates the servers' pods through the Kubernetes API, and no cluster is configured: run the "
					+ "supervisor in a pod with a service account (docs/kubernetes.md), or give it a kubeconfig "
					+ "(KUBECONFIG, ~/.kube/config)";
		}
		if (inCluster && this.settings.callbackEnabled() && loopback(this.settings.callbackAddress())) {
			return "server pods cannot reach the readiness callback on telemetry.supervisor.callback.address="
					+ this.settings.callbackAddress() + " (loopback): set it to 0.0.0.0 (its token still guards it), "
					+ "or turn the callback off (telemetry.supervisor.callback.enabled=false)";
		}
		try {
			pods();
			return null;
		}
		catch (IOException ex) {
			return ex.getMessage();
		}
	}

	/** A kubeconfig exists, or the API server is named outright ({@code kubernetes.master}). */
	private boolean configured() {
		if (System.getProperty(Config.KUBERNETES_MASTER_SYSTEM_PROPERTY) != null
				|| this.settings.env().containsKey("KUBERNETES_MASTER")) {
			return true;
		}
		return Config.getKubeconfigFilenames().stream().anyMatch((file) -> new File(file).isFile());
	}

	private static boolean loopback(String address) {
		try {
			return InetAddress.getByName(address).isLoopbackAddress();
		}
		catch (UnknownHostException ex) {
			return false;
		}
	}

	@Override
	public LaunchedServer launch(LaunchRequest request) throws IOException {
		return pods().launch(request);
	}

	/** The cluster, opened once: when the supervisor starts, else by the first launch. */
	private SupervisorPods pods() throws IOException {
		synchronized (this.lock) {
			if (this.closed) {
				throw new IOException("the kubernetes launcher is closed: the supervisor is stopping");
			}
			if (this.pods == null) {
				this.pods = SupervisorPods.open(this.settings);
			}
			return this.pods;
		}
	}

	@Override
	public void destroy() {
		synchronized (this.lock) {
			this.closed = true;
			if (this.pods != null) {
				this.pods.close();
			}
		}
	}

}
