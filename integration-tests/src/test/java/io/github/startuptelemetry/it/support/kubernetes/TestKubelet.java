package io.github.startuptelemetry.it.support.kubernetes;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.ObjectFieldSelector;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

/**
 * The simulated control plane's kubelet, for every node of its {@link SimulatedScheduler} (which
 * binds the pods), with a garbage collector beside it: each pod bound to a node becomes a real local
 * process (the container's command, with the env a kubelet gives it), and the pod's status and
 * events say what a kubelet would, in the API's own precisions and shapes (k8s-fixtures):
 * <ol>
 * <li>setup: {@code startTime}, the pod IP ({@code 127.0.0.1}: the pods share the host's network,
 * as with {@code hostNetwork}), {@code PodReadyToStartContainers}, {@code Initialized};</li>
 * <li>the image: pulled from the {@link #registry registry} (its pull time really spent, then
 * {@code Pulling}/{@code Pulled}, the message as a kubelet words it), or already present; an image
 * the registry does not have (yet) fails each pull ({@code ErrImagePull} with its events) and is
 * pulled again after a back-off ({@code ImagePullBackOff}, 10 s doubling to 5 minutes unless
 * {@link #imageBackOff shortened}): it succeeds once the registry has it;</li>
 * <li>its configuration: an env value from a Secret or ConfigMap not there (yet) is
 * {@code CreateContainerConfigError}, tried again every sync ({@link #syncPeriod}) until it is;</li>
 * <li>the container: its command and arguments with {@code $(VAR)} expanded, its env (literal
 * values expanded against the ones before, {@code fieldRef}s from the pod, Secrets' and ConfigMaps'
 * keys), the Kubernetes service variables and the service account's token, CA and namespace (under
 * the pod's own directory, and the fabric8 client pointed there with its standard overrides, since
 * {@code /var/run/secrets} is one per machine); {@code startedAt}, the {@code Started} event,
 * {@code Ready} when its {@code readinessProbe} (HTTP GET) answers 2xx, or at once without one;</li>
 * <li>its end: {@code terminated} with its exit code ({@code restartPolicy: Never}), or
 * {@code CrashLoopBackOff} and a restart after the back-off (a kubelet's 10 s, doubling, unless
 * {@link #backOff(Duration) shortened}) for {@code Always}/{@code OnFailure}; its
 * {@code activeDeadlineSeconds} ({@code DeadlineExceeded}); an {@link #evict eviction} (the pod stays,
 * {@code Failed}); a {@link #preempt preemption} ({@code DisruptionTarget}, then deleted);</li>
 * <li>deletion: graceful, as a kubelet does it: SIGTERM, the delete's grace period (else the pod's
 * {@code terminationGracePeriodSeconds}, else 30 s), SIGKILL, then the pod is gone (the kubelet
 * holds a finalizer of its own until then: the mock would drop the pod at once); the garbage
 * collector then deletes the pods it owned, and only those of owners that are gone.</li>
 * </ol>
 * Not simulated: init containers, volumes, other probes, networking between pods (one shared
 * network), node clocks apart, real registries and runtimes.
 */
public final class TestKubelet implements AutoCloseable {

	public static final String NODE = "test-node";

	/** What the first node has for pods to request. */
	public static final Map<String, Quantity> ALLOCATABLE = Map.of("cpu", new Quantity("4"), "memory", new Quantity("16Gi"));

	/** The kubelet's hold on a pod it runs, so that a delete waits for it. */
	static final String FINALIZER = "kubelet.test.startuptelemetry.github.io/process";

	/** A kubelet's first back-off before restarting a container. */
	private volatile Duration initialBackOff = Duration.ofSeconds(10);

	/** A kubelet's first back-off before pulling an image again. */
	private volatile Duration imageBackOff = Duration.ofSeconds(10);

	/** How often the kubelet syncs a pod that could not start (its pod worker's back-off). */
	private volatile Duration syncPeriod = Duration.ofSeconds(10);

	private final SimulatedEvents events;

	private final SimulatedScheduler scheduler;

	private final GarbageCollector collector;

	private final SimulatedApiServer api;

	private final KubernetesClient client;

	private final Path root;

	/** Images the registry has, and how long pulling each takes. */
	private final Map<String, Duration> registry = new ConcurrentHashMap<>();

	/** Images on the node already. */
	private final Set<String> present = ConcurrentHashMap.newKeySet();

	private final Map<String, PodRun> runs = new ConcurrentHashMap<>();

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();

	private final SharedIndexInformer<Pod> informer;

	private TestKubelet(SimulatedApiServer api, Path root) {
		this.api = api;
		this.client = api.admin();
		this.root = root;
		this.events = new SimulatedEvents(this.client);
		this.scheduler = new SimulatedScheduler(this.client, this.events, (pod) -> {
		});
		this.scheduler.addNode(NODE, ALLOCATABLE);
		this.collector = new GarbageCollector(api.admin());
		api.logs(this::log);
		this.informer = this.client.pods().inNamespace(SimulatedApiServer.NAMESPACE).inform(new ResourceEventHandler<>() {

			@Override
			public void onAdd(Pod pod) {
				onUpdate(null, pod);
			}

			@Override
			public void onUpdate(Pod old, Pod pod) {
				String key = pod.getMetadata().getName();
				if (pod.getMetadata().getDeletionTimestamp() != null) {
					PodRun run = TestKubelet.this.runs.get(key);
					if (run != null) {
						run.deleting();
					}
				}
				else if (pod.getSpec().getNodeName() == null) {
					TestKubelet.this.scheduler.submit(key);
				}
				else if (pod.getStatus() == null || pod.getStatus().getPhase() == null
						|| "Pending".equals(pod.getStatus().getPhase())) {
					TestKubelet.this.runs.computeIfAbsent(key, (name) -> {
						PodRun run = new PodRun(pod);
						Thread thread = new Thread(run::run, "kubelet-" + name);
						thread.setDaemon(true);
						thread.start();
						return run;
					});
				}
			}

			@Override
			public void onDelete(Pod pod, boolean unknown) {
				PodRun run = TestKubelet.this.runs.remove(pod.getMetadata().getName());
				if (run != null) {
					run.gone();
				}
				TestKubelet.this.scheduler.released(pod.getMetadata().getName());
			}

		});
	}

	/** Start scheduling and running the pods of {@code api}; pods' directories under {@code root}. */
	public static TestKubelet start(SimulatedApiServer api, Path root) {
		return new TestKubelet(api, root);
	}

	/** An image the registry has, taking {@code pull} to pull. */
	public TestKubelet registry(String image, Duration pull) {
		this.registry.put(image, pull);
		return this;
	}

	/**
	 * Restart a crashed container after {@code first} (doubling) rather than a kubelet's 10 s: a
	 * test that waits for a restart need not wait what a cluster would.
	 */
	public TestKubelet backOff(Duration first) {
		this.initialBackOff = first;
		return this;
	}

	/** Pull an image the registry lacked again after {@code first} (doubling) rather than a kubelet's 10 s. */
	public TestKubelet imageBackOff(Duration first) {
		this.imageBackOff = first;
		return this;
	}

	/** Sync a pod that could not start (a Secret missing) every {@code period} rather than a kubelet's 10 s. */
	public TestKubelet syncPeriod(Duration period) {
		this.syncPeriod = period;
		return this;
	}

	/** The scheduler (its nodes, its autoscaler). */
	public SimulatedScheduler scheduler() {
		return this.scheduler;
	}

	/**
	 * Evict pod {@code name} as the kubelet does under node pressure: its container killed, the pod
	 * {@code Failed} with reason {@code Evicted}, {@code DisruptionTarget} (TerminationByKubelet),
	 * an {@code Evicted} event; the pod stays until someone deletes it.
	 */
	public void evict(String name, String resource) {
		PodRun run = this.runs.get(name);
		if (run != null) {
			run.evict(resource);
		}
	}

	/**
	 * Preempt pod {@code name} as the scheduler does for a pod of higher priority:
	 * {@code DisruptionTarget} (PreemptionByScheduler), a {@code Preempted} event, then its deletion.
	 */
	public void preempt(String name) {
		Pod pod = this.client.pods().inNamespace(SimulatedApiServer.NAMESPACE).withName(name).get();
		if (pod == null) {
			return;
		}
		editStatus(this.client, name, (p) -> condition(p, "DisruptionTarget", "True", "PreemptionByScheduler",
				"default-scheduler: preempting to accommodate a higher priority pod"));
		this.events.scheduler(pod, pod.getSpec().getNodeName(), "Preempted", "Normal", "Preempting",
				"Preempted by pod " + java.util.UUID.randomUUID() + " on node " + pod.getSpec().getNodeName());
		this.client.pods().inNamespace(SimulatedApiServer.NAMESPACE).withName(name).delete();
	}

	/** The pods as the API server has them now. */
	public List<Pod> pods() {
		return this.client.pods().inNamespace(SimulatedApiServer.NAMESPACE).list().getItems();
	}

	/** Wait until no pod is left in the API server (bounded): deletes are graceful and asynchronous. */
	public List<String> awaitNoPods(Duration timeout) throws InterruptedException {
		return awaitNoPods(timeout, (pod) -> true);
	}

	/** Wait until no pod {@code counted} accepts is left in the API server (bounded); those left. */
	public List<String> awaitNoPods(Duration timeout, java.util.function.Predicate<String> counted)
			throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		List<String> left = names().stream().filter(counted).toList();
		while (!left.isEmpty() && System.nanoTime() < deadline) {
			// pods end on the kubelet's threads: poll the API, bounded by the deadline
			TimeUnit.MILLISECONDS.sleep(100);
			left = names().stream().filter(counted).toList();
		}
		return left;
	}

	private List<String> names() {
		return pods().stream().map((pod) -> pod.getMetadata().getName()).toList();
	}

	/** The process of each container that runs now, by pod. */
	public Map<String, ProcessHandle> processes() {
		Map<String, ProcessHandle> processes = new LinkedHashMap<>();
		this.runs.forEach((name, run) -> {
			Process process = run.process;
			if (process != null && process.isAlive()) {
				processes.put(name, process.toHandle());
			}
		});
		return processes;
	}

	/** The directory of pod {@code name}: its service account, its containers' logs. */
	public Path podDir(String name) {
		return this.root.resolve(name);
	}

	@Override
	public void close() {
		this.informer.close();
		this.scheduler.close();
		this.collector.close();
		for (PodRun run : this.runs.values()) {
			run.kill();
		}
		this.client.close();
	}

	private String log(SimulatedApiServer.LogRequest request) {
		PodRun run = this.runs.get(request.pod());
		if (run == null) {
			return null;
		}
		Path current = podDir(request.pod()).resolve(request.container() + ".log");
		Path previous = podDir(request.pod()).resolve(request.container() + ".previous.log");
		// while the container waits to restart, its log is its last run's, as a kubelet answers
		Path file = (request.previous() || !Files.exists(current)) ? previous : current;
		if (!Files.exists(file)) {
			return null;
		}
		try {
			List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
			if (request.tailLines() != null) {
				lines = lines.subList(Math.max(0, lines.size() - request.tailLines()), lines.size());
			}
			return lines.isEmpty() ? "" : String.join("\n", lines) + "\n";
		}
		catch (IOException ex) {
			return null;
		}
	}

	/** One pod on this node: scheduled, set up, its server container run until it ends or the pod is deleted. */
	private final class PodRun {

		private final String name;

		private final Object writes = new Object();

		private final CountDownLatch deleted = new CountDownLatch(1);

		private volatile Process process;

		private volatile boolean deleting;

		private volatile boolean over;

		private volatile boolean evicted;

		/** When the kubelet took the pod (its startTime): its activeDeadlineSeconds count from here. */
		private final long startNs = System.nanoTime();

		PodRun(Pod pod) {
			this.name = pod.getMetadata().getName();
		}

		/** Its deadline passed: the kubelet kills it and fails the pod, which stays. */
		private void deadlineExceeded(Pod pod, Container container, String startedAt) throws InterruptedException {
			this.over = true;
			this.process.destroyForcibly().waitFor();
			String message = "Pod was active on the node longer than the specified deadline";
			event(pod, null, "DeadlineExceeded", "Warning", message);
			failed(container, startedAt, 137, "Error", "DeadlineExceeded", message, null);
		}

		/** Evicted under node pressure: killed at once, the pod Failed and kept, as a kubelet leaves it. */
		void evict(String resource) {
			this.evicted = true;
			this.over = true;
			Process process = this.process;
			if (process != null) {
				process.destroyForcibly();
			}
			Pod pod = current();
			if (pod == null) {
				return;
			}
			String message = "The node was low on resource: " + resource + ". Threshold quantity: 100Mi, available: 42Mi. ";
			event(pod, null, "Evicted", "Warning", message);
			Container container = pod.getSpec().getContainers().get(0);
			ContainerStatus status = statusOf(pod, container.getName());
			String startedAt = (status.getState() != null && status.getState().getRunning() != null)
					? status.getState().getRunning().getStartedAt() : seconds();
			// one status write, as the eviction manager's: Failed, Evicted and DisruptionTarget together
			failed(container, startedAt, 137, "Error", "Evicted", message, "TerminationByKubelet");
		}

		/** The pod Failed with {@code reason}, its container terminated, with a {@code DisruptionTarget} when one is given. */
		private void failed(Container container, String startedAt, int code, String containerReason, String reason,
				String message, String disruption) {
			String finishedAt = seconds();
			status((p) -> {
				Pod ended = containerStatus(p, new ContainerStatusBuilder(statusOf(p, container.getName()))
					.withNewState()
					.withNewTerminated()
					.withExitCode(code)
					.withReason(containerReason)
					.withStartedAt(startedAt)
					.withFinishedAt(finishedAt)
					.endTerminated()
					.endState()
					.withReady(false)
					.withStarted(false)
					.build());
				ended = condition(ended, "Ready", "False", "PodFailed", null);
				ended = condition(ended, "ContainersReady", "False", "PodFailed", null);
				if (disruption != null) {
					ended = condition(ended, "DisruptionTarget", "True", disruption, message);
				}
				return new PodBuilder(ended).editStatus().withPhase("Failed").withReason(reason).withMessage(message)
					.endStatus()
					.build();
			});
		}

		void run() {
			try {
				Pod pod = current();
				if (pod == null) {
					return;
				}
				pod = setUp();
				Container container = pod.getSpec().getContainers().get(0);
				if (!image(pod, container)) {
					return;
				}
				runContainer(pod, container);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			catch (IOException | RuntimeException ex) {
				if (!this.deleting && !this.over) {
					System.err.println("test kubelet: pod " + this.name + ": " + ex);
					ex.printStackTrace();
				}
			}
		}

		/** The sandbox: the pod's IP, its start, its containers waiting to be created. */
		private Pod setUp() {
			return status((p) -> {
				Pod pod = new PodBuilder(p).editOrNewStatus()
					.withPhase("Pending")
					.withHostIP("127.0.0.1")
					.withPodIP("127.0.0.1")
					.withStartTime(seconds())
					.withContainerStatuses(p.getSpec().getContainers().stream()
						.map((c) -> waiting(c, "ContainerCreating", null, 0, null))
						.toList())
					.endStatus()
					.build();
				pod = condition(pod, "PodReadyToStartContainers", "True", null, null);
				pod = condition(pod, "Initialized", "True", null, null);
				pod = condition(pod, "ContainersReady", "False", "ContainersNotReady", null);
				return condition(pod, "Ready", "False", "ContainersNotReady", null);
			});
		}

		/**
		 * Pull its image, as often as it takes: an image the registry lacks fails each pull with the
		 * kubelet's events and is pulled again after a back-off, until the registry has it or the pod
		 * is deleted; whether it is there.
		 */
		private boolean image(Pod pod, Container container) throws InterruptedException {
			String image = container.getImage();
			String node = pod.getSpec().getNodeName();
			boolean pullAlways = "Always".equals(container.getImagePullPolicy());
			Duration backOff = TestKubelet.this.imageBackOff;
			while (!this.deleting) {
				if (!pullAlways && TestKubelet.this.present.contains(image)) {
					event(pod, container, "Pulled", "Normal", "Container image \"" + image + "\" already present on machine");
					return true;
				}
				event(pod, container, "Pulling", "Normal", "Pulling image \"" + image + "\"");
				Duration pull = TestKubelet.this.registry.get(image);
				if (pull != null) {
					long start = System.nanoTime();
					// the simulated registry's pull: the time a pull of this image takes, spent
					TimeUnit.NANOSECONDS.sleep(pull.toNanos());
					long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
					TestKubelet.this.present.add(image);
					String took = goDuration(tookMs);
					event(pod, container, "Pulled", "Normal", "Successfully pulled image \"" + image + "\" in " + took + " ("
							+ took + " including waiting). Image size: 123456789 bytes.");
					return true;
				}
				// containerd's words for an image its registry does not have
				String error = "rpc error: code = NotFound desc = failed to pull and unpack image \"" + image
						+ "\": failed to resolve reference \"" + image + "\": " + image + ": not found";
				event(pod, container, "Failed", "Warning", "Failed to pull image \"" + image + "\": " + error);
				event(pod, container, "Failed", "Warning", "Error: ErrImagePull");
				status((p) -> containerStatus(p, waiting(container, "ErrImagePull", error, 0, null)));
				// the next sync finds the pull backing off
				event(pod, container, "BackOff", "Normal", "Back-off pulling image \"" + image + "\"");
				event(pod, container, "Failed", "Warning", "Error: ImagePullBackOff");
				status((p) -> containerStatus(p, waiting(container, "ImagePullBackOff",
						"Back-off pulling image \"" + image + "\"", 0, null)));
				if (this.deleted.await(backOff.toMillis(), TimeUnit.MILLISECONDS)) {
					return false;
				}
				backOff = backOff.multipliedBy(2).compareTo(Duration.ofMinutes(5)) > 0 ? Duration.ofMinutes(5)
						: backOff.multipliedBy(2);
			}
			return false;
		}

		/**
		 * The container's env values from Secrets and ConfigMaps, once they are all there; until
		 * then {@code CreateContainerConfigError} with the kubelet's words, tried again every sync.
		 * {@code null} when the pod was deleted meanwhile.
		 */
		private Map<String, String> configuration(Pod pod, Container container) throws InterruptedException {
			while (!this.deleting) {
				Map<String, String> values = new LinkedHashMap<>();
				String missing = null;
				for (EnvVar variable : container.getEnv()) {
					if (variable.getValueFrom() == null) {
						continue;
					}
					if (variable.getValueFrom().getSecretKeyRef() != null) {
						var ref = variable.getValueFrom().getSecretKeyRef();
						var secret = TestKubelet.this.client.secrets().inNamespace(SimulatedApiServer.NAMESPACE)
							.withName(ref.getName()).get();
						String value = (secret != null && secret.getData() != null && secret.getData().get(ref.getKey()) != null)
								? new String(java.util.Base64.getDecoder().decode(secret.getData().get(ref.getKey())),
										StandardCharsets.UTF_8)
								: (secret != null && secret.getStringData() != null) ? secret.getStringData().get(ref.getKey()) : null;
						if (secret == null) {
							missing = "secret \"" + ref.getName() + "\" not found";
						}
						else if (value == null) {
							missing = "couldn't find key " + ref.getKey() + " in Secret " + SimulatedApiServer.NAMESPACE + "/"
									+ ref.getName();
						}
						else {
							values.put(variable.getName(), value);
						}
					}
					else if (variable.getValueFrom().getConfigMapKeyRef() != null) {
						var ref = variable.getValueFrom().getConfigMapKeyRef();
						var map = TestKubelet.this.client.configMaps().inNamespace(SimulatedApiServer.NAMESPACE)
							.withName(ref.getName()).get();
						String value = (map != null && map.getData() != null) ? map.getData().get(ref.getKey()) : null;
						if (map == null) {
							missing = "configmap \"" + ref.getName() + "\" not found";
						}
						else if (value == null) {
							missing = "couldn't find key " + ref.getKey() + " in ConfigMap " + SimulatedApiServer.NAMESPACE
									+ "/" + ref.getName();
						}
						else {
							values.put(variable.getName(), value);
						}
					}
				}
				if (missing == null) {
					return values;
				}
				String message = missing;
				status((p) -> containerStatus(p, waiting(container, "CreateContainerConfigError", message, 0, null)));
				event(pod, container, "Failed", "Warning", "Error: " + message);
				if (this.deleted.await(TestKubelet.this.syncPeriod.toMillis(), TimeUnit.MILLISECONDS)) {
					return null;
				}
			}
			return null;
		}

		private void runContainer(Pod pod, Container container) throws IOException, InterruptedException {
			Map<String, String> configured = configuration(pod, container);
			if (configured == null) {
				return;
			}
			Duration backOff = TestKubelet.this.initialBackOff;
			int restarts = 0;
			while (!this.deleting) {
				Path dir = TestKubelet.this.podDir(this.name);
				Files.createDirectories(dir);
				Path log = dir.resolve(container.getName() + ".log");
				event(pod, container, "Created", "Normal", "Created container: " + container.getName());
				String startedAt = seconds();
				this.process = start(current(), container, dir, log, configured);
				event(pod, container, "Started", "Normal", "Started container " + container.getName());
				int restartCount = restarts;
				status((p) -> {
					Pod running = containerStatus(p, new ContainerStatusBuilder(statusOf(p, container.getName()))
						.withNewState()
						.withNewRunning()
						.withStartedAt(startedAt)
						.endRunning()
						.endState()
						.withStarted(true)
						.withReady(false)
						.withRestartCount(restartCount)
						.build());
					return new PodBuilder(running).editStatus().withPhase("Running").endStatus().build();
				});
				awaitReady(container);
				Long deadline = pod.getSpec().getActiveDeadlineSeconds();
				long left = (deadline != null) ? TimeUnit.SECONDS.toNanos(deadline) - (System.nanoTime() - this.startNs)
						: Long.MAX_VALUE;
				if (!this.process.waitFor(Math.max(0, left), TimeUnit.NANOSECONDS)) {
					deadlineExceeded(pod, container, startedAt);
					return;
				}
				int code = this.process.exitValue();
				if (this.deleting || this.evicted) {
					return;
				}
				String finishedAt = seconds();
				String reason = (code == 0) ? "Completed" : "Error";
				String policy = pod.getSpec().getRestartPolicy();
				boolean restart = "Always".equals(policy) || ("OnFailure".equals(policy) && code != 0);
				if (!restart) {
					this.over = true;
					status((p) -> {
						Pod ended = containerStatus(p, new ContainerStatusBuilder(statusOf(p, container.getName()))
							.withNewState()
							.withNewTerminated()
							.withExitCode(code)
							.withReason(reason)
							.withStartedAt(startedAt)
							.withFinishedAt(finishedAt)
							.endTerminated()
							.endState()
							.withReady(false)
							.withStarted(false)
							.build());
						ended = condition(ended, "Ready", "False", "PodCompleted", null);
						return new PodBuilder(ended).editStatus().withPhase((code == 0) ? "Succeeded" : "Failed").endStatus()
							.build();
					});
					return;
				}
				// the run that ended is the container's previous one now (kubectl logs --previous)
				Files.move(log, dir.resolve(container.getName() + ".previous.log"),
						java.nio.file.StandardCopyOption.REPLACE_EXISTING);
				restarts++;
				String message = "back-off " + backOff.toSeconds() + "s restarting failed container=" + container.getName()
						+ " pod=" + this.name + "_" + SimulatedApiServer.NAMESPACE;
				int count = restarts;
				status((p) -> containerStatus(p, waiting(container, "CrashLoopBackOff", message, count,
						new ContainerStatusBuilder().withNewLastState()
							.withNewTerminated()
							.withExitCode(code)
							.withReason(reason)
							.withStartedAt(startedAt)
							.withFinishedAt(finishedAt)
							.endTerminated()
							.endLastState()
							.build())));
				event(pod, container, "BackOff", "Warning", "Back-off restarting failed container " + container.getName()
						+ " in pod " + this.name);
				if (this.deleted.await(backOff.toMillis(), TimeUnit.MILLISECONDS)) {
					return;
				}
				backOff = backOff.multipliedBy(2).compareTo(Duration.ofMinutes(5)) > 0 ? Duration.ofMinutes(5)
						: backOff.multipliedBy(2);
			}
		}

		/** Ready when its readiness probe answers 2xx (polled at its period), or at once without one. */
		private void awaitReady(Container container) throws InterruptedException {
			Probe probe = container.getReadinessProbe();
			HTTPGetAction get = (probe != null) ? probe.getHttpGet() : null;
			if (get != null) {
				long period = Math.max(1, (probe.getPeriodSeconds() != null) ? probe.getPeriodSeconds() : 10);
				URI uri = URI.create("http://127.0.0.1:" + get.getPort().getIntVal() + get.getPath());
				while (this.process.isAlive() && !this.deleting && !answers(uri)) {
					// the kubelet's probe period
					this.process.waitFor(period, TimeUnit.SECONDS);
				}
			}
			if (this.process.isAlive() && !this.deleting) {
				status((p) -> {
					Pod ready = containerStatus(p, new ContainerStatusBuilder(statusOf(p, container.getName())).withReady(true)
						.build());
					ready = condition(ready, "ContainersReady", "True", null, null);
					return condition(ready, "Ready", "True", null, null);
				});
			}
		}

		private boolean answers(URI uri) {
			try {
				int status = TestKubelet.this.http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(1)).build(),
						HttpResponse.BodyHandlers.discarding()).statusCode();
				return status >= 200 && status < 400;
			}
			catch (IOException ex) {
				return false;
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return false;
			}
		}

		/** The container's process, with the env and files a kubelet gives it. */
		private Process start(Pod pod, Container container, Path dir, Path log, Map<String, String> configured)
				throws IOException {
			Map<String, String> env = new LinkedHashMap<>();
			env.put("PATH", System.getenv("PATH"));
			env.put("HOME", dir.toString());
			env.put("HOSTNAME", this.name);
			env.put("KUBERNETES_SERVICE_HOST", "127.0.0.1");
			env.put("KUBERNETES_SERVICE_PORT", Integer.toString(TestKubelet.this.api.port()));
			env.put("KUBERNETES_SERVICE_PORT_HTTPS", Integer.toString(TestKubelet.this.api.port()));
			if (!Boolean.FALSE.equals(pod.getSpec().getAutomountServiceAccountToken())) {
				Path account = Files.createDirectories(dir.resolve("serviceaccount"));
				String serviceAccount = (pod.getSpec().getServiceAccountName() != null)
						? pod.getSpec().getServiceAccountName() : "default";
				Files.writeString(account.resolve("token"), TestKubelet.this.api.token(serviceAccount));
				Files.writeString(account.resolve("namespace"), SimulatedApiServer.NAMESPACE);
				Files.copy(TestKubelet.this.api.caCertificate(), account.resolve("ca.crt"),
						java.nio.file.StandardCopyOption.REPLACE_EXISTING);
				// where fabric8 reads a service account from: /var/run/secrets is one per machine
				env.put("KUBERNETES_AUTH_SERVICEACCOUNT_TOKEN", account.resolve("token").toString());
				env.put("KUBERNETES_CERTS_CA_FILE", account.resolve("ca.crt").toString());
				env.put("KUBENAMESPACE", account.resolve("namespace").toString());
			}
			for (EnvVar variable : container.getEnv()) {
				String value = configured.containsKey(variable.getName()) ? configured.get(variable.getName())
						: (variable.getValueFrom() != null) ? field(pod, variable.getValueFrom().getFieldRef())
								: expand((variable.getValue() != null) ? variable.getValue() : "", env);
				env.put(variable.getName(), value);
			}
			List<String> command = new ArrayList<>();
			Stream.concat(container.getCommand().stream(), container.getArgs().stream())
				.forEach((arg) -> command.add(expand(arg, env)));
			ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(log.toFile())
				.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
			builder.directory((container.getWorkingDir() != null) ? new java.io.File(container.getWorkingDir()) : dir.toFile());
			builder.environment().clear();
			builder.environment().putAll(env);
			return builder.start();
		}

		/** The pod is being deleted: SIGTERM, its grace period, SIGKILL, then it is gone. */
		void deleting() {
			if (this.deleting) {
				return;
			}
			this.deleting = true;
			Thread stopper = new Thread(() -> {
				Pod pod;
				try {
					pod = current();
				}
				catch (KubernetesClientException | IllegalStateException ex) {
					pod = null;
				}
				Long grace = TestKubelet.this.api.deleteGraceSeconds(SimulatedApiServer.NAMESPACE, this.name);
				if (grace == null && pod != null && pod.getSpec().getTerminationGracePeriodSeconds() != null) {
					grace = pod.getSpec().getTerminationGracePeriodSeconds();
				}
				stop((grace != null) ? grace : 30);
				try {
					edit((p) -> new PodBuilder(p).editMetadata().removeFromFinalizers(FINALIZER).endMetadata().build());
				}
				catch (KubernetesClientException | IllegalStateException ex) {
					// gone already, or the kubelet itself is closing
				}
			}, "kubelet-stop-" + this.name);
			stopper.setDaemon(true);
			stopper.start();
		}

		private void stop(long graceSeconds) {
			Process process = this.process;
			if (process == null) {
				return;
			}
			process.destroy();
			try {
				if (!process.waitFor(graceSeconds, TimeUnit.SECONDS)) {
					process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

		void gone() {
			this.deleted.countDown();
			kill();
		}

		void kill() {
			this.deleting = true;
			Process process = this.process;
			if (process != null) {
				process.destroyForcibly();
			}
		}

		private Pod current() {
			return TestKubelet.this.client.pods().inNamespace(SimulatedApiServer.NAMESPACE).withName(this.name).get();
		}

		private Pod edit(UnaryOperator<Pod> change) {
			synchronized (this.writes) {
				return TestKubelet.edit(TestKubelet.this.client, this.name, change);
			}
		}

		private Pod status(UnaryOperator<Pod> change) {
			synchronized (this.writes) {
				return TestKubelet.editStatus(TestKubelet.this.client, this.name, change);
			}
		}

		/** An event of the kubelet about the pod (or one of its containers), in whole seconds, counted. */
		private void event(Pod pod, Container container, String reason, String type, String message) {
			TestKubelet.this.events.legacy(pod, (container != null) ? container.getName() : null, "kubelet",
					pod.getSpec().getNodeName(), reason, type, message);
		}

	}

	/** {@code change} to the pod, read again and retried on a conflict, as every controller does. */
	static Pod edit(KubernetesClient client, String pod, UnaryOperator<Pod> change) {
		return onConflictRetry(() -> client.pods().inNamespace(SimulatedApiServer.NAMESPACE).withName(pod).edit(change));
	}

	/** {@code change} to the pod's status, read again and retried on a conflict (the scheduler and the kubelet both write it). */
	static Pod editStatus(KubernetesClient client, String pod, UnaryOperator<Pod> change) {
		return onConflictRetry(
				() -> client.pods().inNamespace(SimulatedApiServer.NAMESPACE).withName(pod).editStatus(change));
	}

	private static Pod onConflictRetry(java.util.function.Supplier<Pod> write) {
		for (int attempt = 1;; attempt++) {
			try {
				return write.get();
			}
			catch (KubernetesClientException ex) {
				if (ex.getCode() != 409 || attempt == 20) {
					throw ex;
				}
			}
		}
	}

	private static ContainerStatus statusOf(Pod pod, String container) {
		return pod.getStatus().getContainerStatuses().stream()
			.filter((status) -> status.getName().equals(container))
			.findFirst()
			.orElseGet(() -> new ContainerStatusBuilder().withName(container).build());
	}

	private static ContainerStatus waiting(Container container, String reason, String message, int restarts,
			ContainerStatus last) {
		ContainerStatusBuilder status = new ContainerStatusBuilder().withName(container.getName())
			.withImage(container.getImage())
			.withNewState()
			.withNewWaiting()
			.withReason(reason)
			.withMessage(message)
			.endWaiting()
			.endState()
			.withReady(false)
			.withStarted(false)
			.withRestartCount(restarts);
		if (last != null) {
			status.withLastState(last.getLastState());
		}
		return status.build();
	}

	private static Pod containerStatus(Pod pod, ContainerStatus status) {
		List<ContainerStatus> statuses = new ArrayList<>(pod.getStatus().getContainerStatuses());
		statuses.removeIf((existing) -> existing.getName().equals(status.getName()));
		statuses.add(0, status);
		return new PodBuilder(pod).editStatus().withContainerStatuses(statuses).endStatus().build();
	}

	static Pod condition(Pod pod, String type, String status, String reason, String message) {
		List<PodCondition> conditions = new ArrayList<>((pod.getStatus() != null) ? pod.getStatus().getConditions()
				: List.of());
		conditions.removeIf((condition) -> condition.getType().equals(type));
		conditions.add(new PodConditionBuilder().withType(type).withStatus(status).withReason(reason)
			.withMessage(message).withLastTransitionTime(seconds()).build());
		return new PodBuilder(pod).editOrNewStatus().withConditions(conditions).endStatus().build();
	}

	/** Now as the API keeps most times: RFC 3339 in whole seconds. */
	static String seconds() {
		return SimulatedEvents.seconds();
	}

	/** A duration as Go prints one truncated to milliseconds: {@code 312ms}, {@code 1.5s}. */
	static String goDuration(long millis) {
		if (millis < 1000) {
			return millis + "ms";
		}
		String seconds = java.math.BigDecimal.valueOf(millis, 3).stripTrailingZeros().toPlainString();
		return seconds + "s";
	}

	/** A Downward API field of the pod. */
	static String field(Pod pod, ObjectFieldSelector field) {
		String path = field.getFieldPath();
		return switch (path) {
			case "metadata.name" -> pod.getMetadata().getName();
			case "metadata.namespace" -> pod.getMetadata().getNamespace();
			case "metadata.uid" -> pod.getMetadata().getUid();
			case "spec.nodeName" -> pod.getSpec().getNodeName();
			case "spec.serviceAccountName" -> pod.getSpec().getServiceAccountName();
			case "status.podIP" -> pod.getStatus().getPodIP();
			case "status.hostIP" -> pod.getStatus().getHostIP();
			default -> throw new IllegalArgumentException("fieldRef " + path + " is not simulated");
		};
	}

	/**
	 * Kubernetes' expansion of a command, an argument or an env value: {@code $(NAME)} by the value
	 * of a variable defined before it (left as it is when there is none), {@code $$} as {@code $}.
	 */
	static String expand(String value, Map<String, String> env) {
		StringBuilder out = new StringBuilder(value.length());
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if (c != '$' || i + 1 == value.length()) {
				out.append(c);
				continue;
			}
			char next = value.charAt(i + 1);
			if (next == '$') {
				out.append('$');
				i++;
			}
			else if (next == '(') {
				int close = value.indexOf(')', i + 2);
				String name = (close > 0) ? value.substring(i + 2, close) : null;
				if (name != null && env.containsKey(name)) {
					out.append(env.get(name));
					i = close;
				}
				else {
					out.append(c);
				}
			}
			else {
				out.append(c);
			}
		}
		return out.toString();
	}

}
