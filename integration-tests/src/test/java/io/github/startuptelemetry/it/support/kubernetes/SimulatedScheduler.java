package io.github.startuptelemetry.it.support.kubernetes;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * The simulated scheduler, with a cluster autoscaler beside it: it binds each pod to a node with
 * room for its requests, or marks it {@code PodScheduled=False/Unschedulable} with a
 * {@code FailedScheduling} event in the real scheduler's words and retries it with the real one's
 * back-off (1 s doubling to 10 s), and at once when a node is added or a pod leaves one. The
 * autoscaler, when on, adds a node a delay after a pod became unschedulable (Cluster Autoscaler
 * and Karpenter react to exactly that condition), with its {@code TriggeredScaleUp} event.
 */
public final class SimulatedScheduler implements AutoCloseable {

	static final Duration INITIAL_BACK_OFF = Duration.ofSeconds(1);

	static final Duration MAX_BACK_OFF = Duration.ofSeconds(10);

	private final KubernetesClient client;

	private final SimulatedEvents events;

	private final Consumer<String> bound;

	private final List<Node> nodes = new CopyOnWriteArrayList<>();

	/** What each bound pod requests, and on which node. */
	private final Map<String, Placement> placed = new ConcurrentHashMap<>();

	/** The pods waiting to be scheduled, with their next back-off. */
	private final Map<String, Duration> pending = new ConcurrentHashMap<>();

	private final ScheduledExecutorService loop;

	private volatile Duration scaleUpDelay;

	private volatile Map<String, Quantity> scaleUpNode;

	private boolean scalingUp;

	SimulatedScheduler(KubernetesClient client, SimulatedEvents events, Consumer<String> bound) {
		this.client = client;
		this.events = events;
		this.bound = bound;
		ScheduledThreadPoolExecutor loop = new ScheduledThreadPoolExecutor(1, (task) -> {
			Thread thread = new Thread(task, "simulated-scheduler");
			thread.setDaemon(true);
			return thread;
		});
		loop.setRemoveOnCancelPolicy(true);
		this.loop = loop;
	}

	/** A node of the cluster, with what it has for pods to request. */
	public record Node(String name, Map<String, Quantity> allocatable) {

	}

	/** Add a node: every pod waiting to be scheduled is tried again at once. */
	public void addNode(String name, Map<String, Quantity> allocatable) {
		this.nodes.add(new Node(name, Map.copyOf(allocatable)));
		retryAll();
	}

	/**
	 * Act as a cluster autoscaler: {@code delay} after a pod became unschedulable, add a node with
	 * {@code allocatable} (one at a time, as a node group scales up); {@code null} to stop.
	 */
	public void autoscale(Duration delay, Map<String, Quantity> allocatable) {
		this.scaleUpNode = allocatable;
		this.scaleUpDelay = delay;
	}

	public List<Node> nodes() {
		return List.copyOf(this.nodes);
	}

	/** Schedule {@code pod} (once: a pod already waiting or bound is left as it is). */
	void submit(String pod) {
		if (this.placed.containsKey(pod) || this.pending.putIfAbsent(pod, INITIAL_BACK_OFF) != null) {
			return;
		}
		this.loop.execute(() -> attempt(pod));
	}

	/** {@code pod} left its node (it ended or was deleted): its room is free, the waiting pods are tried again. */
	void released(String pod) {
		this.pending.remove(pod);
		if (this.placed.remove(pod) != null) {
			retryAll();
		}
	}

	private void retryAll() {
		for (String pod : this.pending.keySet()) {
			this.loop.execute(() -> attempt(pod));
		}
	}

	private void attempt(String name) {
		if (!this.pending.containsKey(name)) {
			return;
		}
		Pod pod;
		try {
			pod = this.client.pods().inNamespace(SimulatedApiServer.NAMESPACE).withName(name).get();
		}
		catch (KubernetesClientException | IllegalStateException ex) {
			return;
		}
		if (pod == null || pod.getMetadata().getDeletionTimestamp() != null) {
			this.pending.remove(name);
			return;
		}
		Map<String, BigDecimal> requests = requests(pod);
		Map<String, Integer> insufficient = new TreeMap<>();
		for (Node node : this.nodes) {
			String lacking = lacking(node, requests);
			if (lacking == null) {
				bind(pod, node, requests);
				return;
			}
			insufficient.merge("Insufficient " + lacking, 1, Integer::sum);
		}
		unschedulable(pod, insufficient);
	}

	private void bind(Pod pod, Node node, Map<String, BigDecimal> requests) {
		String name = pod.getMetadata().getName();
		this.placed.put(name, new Placement(node.name(), requests));
		this.pending.remove(name);
		this.events.scheduler(pod, node.name(), "Scheduled", "Normal", "Binding",
				"Successfully assigned " + SimulatedApiServer.NAMESPACE + "/" + name + " to " + node.name());
		TestKubelet.edit(this.client, name, (p) -> new PodBuilder(p).editMetadata()
			.addToFinalizers(TestKubelet.FINALIZER)
			.endMetadata()
			.editSpec()
			.withNodeName(node.name())
			.endSpec()
			.build());
		TestKubelet.editStatus(this.client, name, (p) -> TestKubelet.condition(p, "PodScheduled", "True", null, null));
		this.bound.accept(name);
	}

	/** Said as the real scheduler says it (k8s-fixtures a-*), then tried again after its back-off. */
	private void unschedulable(Pod pod, Map<String, Integer> insufficient) {
		String name = pod.getMetadata().getName();
		int count = this.nodes.size();
		List<String> reasons = new ArrayList<>();
		insufficient.forEach((reason, nodes) -> reasons.add(nodes + " " + reason));
		String message = "0/" + count + " nodes are available: " + String.join(", ", reasons)
				+ ". preemption: 0/" + count + " nodes are available: " + count
				+ " No preemption victims found for incoming pod.";
		TestKubelet.editStatus(this.client, name, (p) -> TestKubelet.condition(new PodBuilder(p).editOrNewStatus()
			.withPhase("Pending")
			.endStatus()
			.build(), "PodScheduled", "False", "Unschedulable", message));
		this.events.scheduler(pod, this.nodes.isEmpty() ? "control-plane" : this.nodes.get(0).name(), "FailedScheduling",
				"Warning", "Scheduling", message);
		Duration backOff = this.pending.computeIfPresent(name, (key, current) -> {
			Duration next = current.multipliedBy(2);
			return (next.compareTo(MAX_BACK_OFF) > 0) ? MAX_BACK_OFF : next;
		});
		if (backOff != null) {
			this.loop.schedule(() -> attempt(name), backOff.dividedBy(2).toMillis(), TimeUnit.MILLISECONDS);
		}
		scaleUp(pod);
	}

	private synchronized void scaleUp(Pod pod) {
		Duration delay = this.scaleUpDelay;
		if (delay == null || this.scalingUp) {
			return;
		}
		this.scalingUp = true;
		String node = "autoscaled-" + (this.nodes.size() + 1);
		this.events.legacy(pod, null, "cluster-autoscaler", "", "TriggeredScaleUp", "Normal",
				"pod triggered scale-up: [{simulated-pool " + this.nodes.size() + "->" + (this.nodes.size() + 1)
						+ " (max: 10)}]");
		this.loop.schedule(() -> {
			synchronized (this) {
				this.scalingUp = false;
			}
			addNode(node, this.scaleUpNode);
		}, delay.toMillis(), TimeUnit.MILLISECONDS);
	}

	private String lacking(Node node, Map<String, BigDecimal> requests) {
		for (Map.Entry<String, BigDecimal> request : requests.entrySet()) {
			Quantity allocatable = node.allocatable().get(request.getKey());
			BigDecimal used = this.placed.values().stream()
				.filter((placement) -> placement.node().equals(node.name()))
				.map((placement) -> placement.requests().getOrDefault(request.getKey(), BigDecimal.ZERO))
				.reduce(BigDecimal.ZERO, BigDecimal::add);
			if (allocatable == null
					|| used.add(request.getValue()).compareTo(Quantity.getAmountInBytes(allocatable)) > 0) {
				return request.getKey();
			}
		}
		return null;
	}

	private static Map<String, BigDecimal> requests(Pod pod) {
		Map<String, BigDecimal> requests = new LinkedHashMap<>();
		for (Container container : pod.getSpec().getContainers()) {
			if (container.getResources() != null) {
				container.getResources().getRequests().forEach((resource, amount) -> requests.merge(resource,
						Quantity.getAmountInBytes(amount), BigDecimal::add));
			}
		}
		return requests;
	}

	@Override
	public void close() {
		this.loop.shutdownNow();
	}

	private record Placement(String node, Map<String, BigDecimal> requests) {

	}

}
