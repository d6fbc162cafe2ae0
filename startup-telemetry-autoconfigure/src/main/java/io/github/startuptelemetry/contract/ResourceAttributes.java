package io.github.startuptelemetry.contract;

/**
 * Resource attribute keys that tell one process of a fleet from its peers, typed as nemo-lens
 * declares them (values are strings in Boot's resource configuration). Only values stable for
 * the whole life of a process belong here; per-request values are span attributes.
 */
public final class ResourceAttributes {

	/** The process's service: a spawned server's name. */
	public static final String SERVICE_NAME = "service.name";

	/** Int: the rank within its group ({@code RANK} is group-local: each server type counts from zero). */
	public static final String RANK = "nv.dl.rank";

	/** Int: the size of its group. */
	public static final String WORLD_SIZE = "nv.dl.world_size";

	/** Int: the rank on its host. */
	public static final String LOCAL_RANK = "nv.dl.local_rank";

	/** The group it belongs to (a server's type): what keeps two groups' ranks apart. */
	public static final String WORKER_GROUP = "rl.worker_group";

	/** The run it belongs to: one value shared by a supervisor and all its servers. */
	public static final String RUN_ID = "nv.dl.run_id";

	/** Int: the process's id; the same key as the span attribute. */
	public static final String PROCESS_PID = SpanAttributes.PROCESS_PID;

	private ResourceAttributes() {
	}

}
