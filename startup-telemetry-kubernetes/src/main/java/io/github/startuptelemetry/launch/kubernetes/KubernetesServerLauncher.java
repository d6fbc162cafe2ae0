package io.github.startuptelemetry.launch.kubernetes;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Map;

import io.fabric8.kubernetes.client.Config;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;

import io.github.startuptelemetry.kubernetes.internal.InCluster;
import io.github.startuptelemetry.launch.LaunchRequest;
import io.github.startuptelemetry.launch.LaunchedServer;
import io.github.startuptelemetry.launch.ServerLauncher;

/**
 * The {@code kubernetes} launcher: each server a pod, made from a template and the launcher's
 * settings ({@link PodFactory}), created in the cluster the fabric8 client is configured for (the
 * supervisor pod's own, or a kubeconfig's), watched until it runs, probed at its IP, and deleted
 * when the fleet stops. No pod outlives its supervisor: each names the supervisor's pod as its
 * owner (so the garbage collector deletes it with that pod), and each start first deletes what an
 * earlier run of the same supervisor left ({@link EarlierPods}: a {@code kill -9}, a crash, a
 * supervisor outside the cluster). The cluster is opened when the supervisor starts and the fleet
 * chose this launcher ({@link #unavailable()}: a cluster it cannot use fails it then, naming the
 * property), so that the first server's spawn does not pay for it; a fleet that chose another
 * launcher never talks to it.
 */
final class KubernetesServerLauncher implements ServerLauncher, DisposableBean {

	static final String NAME = "kubernetes";

	private final Settings settings;

	private final Object lock = new Object();

	private @Nullable SupervisorPods pods;

	private boolean closed;

	KubernetesServerLauncher(Settings settings) {
		this.settings = settings;
	}

	@Override
	public String name() {
		return NAME;
	}

	Settings settings() {
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

	/**
	 * What the launcher works with.
	 *
	 * @param properties its properties
	 * @param env the supervisor's own environment
	 * @param supervisorName its stable name, a label value
	 * @param instance this supervisor process's id, a label value, random
	 * @param stopTimeout the grace period of a pod being stopped ({@code telemetry.supervisor.stop-timeout})
	 * @param callbackEnabled whether the readiness callback runs
	 * @param callbackAddress the address it listens on
	 */
	record Settings(KubernetesProperties properties, Map<String, String> env, String supervisorName, String instance,
			Duration stopTimeout, boolean callbackEnabled, String callbackAddress) {

		/** A new instance id: ten lower-case letters and digits. */
		static String newInstance() {
			String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
			SecureRandom random = new SecureRandom();
			StringBuilder id = new StringBuilder(10);
			for (int i = 0; i < 10; i++) {
				id.append(alphabet.charAt(random.nextInt(alphabet.length())));
			}
			return id.toString();
		}

	}

}
