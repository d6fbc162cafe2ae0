package io.github.startuptelemetry.contract;

import java.util.Set;

/**
 * Resource attribute keys that tell one process of a fleet from its peers, typed as nemo-lens
 * declares them: the keys of {@link #INT_TYPED} are exported as ints on the trace resource, the
 * rest as strings. Only values stable for
 * the whole life of a process belong here; per-request values are span attributes.
 */
public final class ResourceAttributes {

	/** The process's service: a spawned server's name. */
	public static final String SERVICE_NAME = "service.name";

	/**
	 * OpenTelemetry's service namespace: {@code spring.application.group} when nothing else sets
	 * it, as Boot's resource has it.
	 */
	public static final String SERVICE_NAMESPACE = "service.namespace";

	/**
	 * NeMo Gym's service group: {@code OTEL_SERVICE_NAME} as given, when {@link #SERVICE_NAME}
	 * is {@code <group>/<server>}.
	 */
	public static final String SERVICE_GROUP = "nemo.gym.service_group";

	/** Int: the rank within its group ({@code RANK} is group-local: each server type counts from zero). */
	public static final String RANK = "nv.dl.rank";

	/** Int: the size of its group. */
	public static final String WORLD_SIZE = "nv.dl.world_size";

	/** Int: the rank on its host. */
	public static final String LOCAL_RANK = "nv.dl.local_rank";

	/** The group it belongs to (a server's type): what keeps two groups' ranks apart. */
	public static final String WORKER_GROUP = "rl.worker_group";

	/**
	 * The run it belongs to: one value shared by a supervisor and all its servers, NeMo Gym's
	 * and nemo-lens's key (a string, never typed: {@code "007"} stays {@code "007"}).
	 */
	public static final String RUN_ID = "nemo.run.id";

	/**
	 * The same run id under the key this starter used before {@link #RUN_ID}; still exported
	 * beside it. Deprecated: it goes away in the next release.
	 */
	public static final String LEGACY_RUN_ID = "nv.dl.run_id";

	/** The host's name, as Gym's servers (nemo-lens) set it: the kernel's host name (OpenTelemetry's key). */
	public static final String HOST_NAME = "host.name";

	/**
	 * The process's instance of its service, as nemo-lens sets it: {@code <run id>-rank<rank>}
	 * (OpenTelemetry's key).
	 */
	public static final String SERVICE_INSTANCE_ID = "service.instance.id";

	/** Int: the process's id; the same key as the span attribute. */
	public static final String PROCESS_PID = SpanAttributes.PROCESS_PID;

	/**
	 * The keys whose values are ints on the wire, as nemo-lens declares them (its
	 * {@code semconv/resources.py}) plus {@link #PROCESS_PID} (an int in Gym and Lens): a value of
	 * one of these, from any source ({@code OTEL_RESOURCE_ATTRIBUTES}, Boot's resource
	 * attributes, ours), that is a base-10 integer is exported as an int; any other value is
	 * kept as the string it was, as lens keeps it.
	 */
	public static final Set<String> INT_TYPED = Set.of(RANK, WORLD_SIZE, LOCAL_RANK, PROCESS_PID,
			"nv.dl.topology.size.tp", "nv.dl.topology.size.pp", "nv.dl.topology.size.dp",
			"nv.dl.training.config.global_batch_size", "nv.dl.training.config.micro_batch_size",
			"nv.dl.training.config.sequence_length", "nv.dl.training.target.train_iters",
			"nv.dl.training.target.train_samples", "nv.dl.training.target.train_tokens", "nv.gpu.index",
			"nv.gpu.memory.total", "slurm.array.count", "slurm.nnodes", "slurm.ntasks", "slurm.restart_count");

	private ResourceAttributes() {
	}

}
