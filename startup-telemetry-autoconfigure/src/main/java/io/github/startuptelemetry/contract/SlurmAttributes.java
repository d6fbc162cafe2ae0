package io.github.startuptelemetry.contract;

/**
 * Slurm resource attributes as nemo-lens names them ({@code semconv/model/slurm.yaml},
 * {@code resources/slurm.py}), and the {@code SLURM_*} variables they come from. Added only when
 * {@link #ENV_JOB_ID} is set; the counts are ints on the wire ({@link ResourceAttributes#INT_TYPED}).
 */
public final class SlurmAttributes {

	public static final String JOB_ID = "slurm.job.id";

	public static final String JOB_ID_RAW = "slurm.job.id.raw";

	public static final String ARRAY_JOB_ID = "slurm.array.job_id";

	public static final String ARRAY_TASK_ID = "slurm.array.task_id";

	public static final String ARRAY_COUNT = "slurm.array.count";

	public static final String SLUID = "slurm.sluid";

	public static final String ARRAY_SLUID = "slurm.array.sluid";

	public static final String JOB_NAME = "slurm.job.name";

	public static final String CLUSTER_NAME = "slurm.cluster.name";

	public static final String PARTITION = "slurm.partition";

	public static final String NNODES = "slurm.nnodes";

	public static final String NTASKS = "slurm.ntasks";

	public static final String RESTART_COUNT = "slurm.restart_count";

	public static final String JOB_USER = "slurm.job.user";

	public static final String JOB_ACCOUNT = "slurm.job.account";

	public static final String JOB_QOS = "slurm.job.qos";

	public static final String JOB_RESERVATION = "slurm.job.reservation";

	public static final String SEGMENT = "slurm.segment";

	public static final String TOPOLOGY_ADDR = "slurm.topology.addr";

	public static final String TOPOLOGY_ADDR_PATTERN = "slurm.topology.addr_pattern";

	public static final String HEAD_NODE_NAME = "slurm.head_node.name";

	/** uuid5(NAMESPACE_URL, {@code nemo.lens.job/<cluster>/<job key>}): one value per Slurm job. */
	public static final String NV_DL_JOB_UUID = "nv.dl.job.uuid";

	public static final String ENV_JOB_ID = TelemetryEnv.SLURM_JOB_ID;

	public static final String ENV_ARRAY_JOB_ID = "SLURM_ARRAY_JOB_ID";

	public static final String ENV_ARRAY_TASK_ID = "SLURM_ARRAY_TASK_ID";

	public static final String ENV_ARRAY_TASK_COUNT = "SLURM_ARRAY_TASK_COUNT";

	public static final String ENV_LENS_SLUID = "LENS_SLURM_SLUID";

	public static final String ENV_NV_LAUNCH_SLUID = "NV_LAUNCH_SLUID";

	public static final String ENV_LENS_ARRAY_SLUID = "LENS_SLURM_ARRAY_SLUID";

	public static final String ENV_NV_LAUNCH_ARRAY_SLUID = "NV_LAUNCH_ARRAY_SLUID";

	public static final String ENV_JOB_NAME = "SLURM_JOB_NAME";

	public static final String ENV_CLUSTER_NAME = "SLURM_CLUSTER_NAME";

	public static final String ENV_JOB_PARTITION = "SLURM_JOB_PARTITION";

	public static final String ENV_PARTITION = "SLURM_PARTITION";

	public static final String ENV_JOB_NUM_NODES = "SLURM_JOB_NUM_NODES";

	public static final String ENV_NNODES = "SLURM_NNODES";

	public static final String ENV_NTASKS = "SLURM_NTASKS";

	public static final String ENV_RESTART_COUNT = "SLURM_RESTART_COUNT";

	public static final String ENV_JOB_USER = "SLURM_JOB_USER";

	public static final String ENV_JOB_ACCOUNT = "SLURM_JOB_ACCOUNT";

	public static final String ENV_JOB_QOS = "SLURM_JOB_QOS";

	public static final String ENV_JOB_RESERVATION = "SLURM_JOB_RESERVATION";

	public static final String ENV_SEGMENT = "SLURM_SEGMENT";

	public static final String ENV_TOPOLOGY_ADDR = "SLURM_TOPOLOGY_ADDR";

	public static final String ENV_TOPOLOGY_ADDR_PATTERN = "SLURM_TOPOLOGY_ADDR_PATTERN";

	public static final String ENV_NODENAME = "SLURMD_NODENAME";

	public static final String ENV_STEP_ID = "SLURM_STEP_ID";

	public static final String ENV_STEPID = "SLURM_STEPID";

	private SlurmAttributes() {
	}

}
