package io.github.startuptelemetry.lifecycle;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SlurmResourceAttributesTest {

	@Test
	void nothingOffSlurm() {
		assertThat(SlurmResourceAttributes.resolve(Map.of("SLURM_NTASKS", "4"))).isEmpty();
	}

	@Test
	void aPlainJobAsLensNamesIt() {
		Map<String, String> env = new HashMap<>(Map.of("SLURM_JOB_ID", "12345", "SLURM_CLUSTER_NAME", "eos",
				"SLURM_JOB_NAME", "rl", "SLURM_PARTITION", "batch", "SLURM_NNODES", "2", "SLURM_NTASKS", "x",
				"SLURMD_NODENAME", "node-1", "SLURM_JOB_USER", "me", "SLURM_JOB_ACCOUNT", " "));
		assertThat(SlurmResourceAttributes.resolve(env)).containsOnly(Map.entry("slurm.job.id", "12345"),
				Map.entry("slurm.job.id.raw", "12345"), Map.entry("slurm.array.job_id", "12345"),
				Map.entry("slurm.array.task_id", "0"), Map.entry("slurm.array.count", "1"),
				Map.entry("slurm.job.name", "rl"), Map.entry("slurm.cluster.name", "eos"),
				Map.entry("slurm.partition", "batch"), Map.entry("slurm.nnodes", "2"),
				Map.entry("slurm.restart_count", "0"), Map.entry("slurm.job.user", "me"),
				Map.entry("slurm.head_node.name", "node-1"),
				// Python: uuid.uuid5(uuid.NAMESPACE_URL, "nemo.lens.job/eos/12345")
				Map.entry("nv.dl.job.uuid", "b65b814f-1489-5070-b0e3-b2b0e6a3f643"));
		env.put("SLURM_STEP_ID", "0");
		assertThat(SlurmResourceAttributes.resolve(env)).doesNotContainKey("slurm.head_node.name");
	}

	@Test
	void anArrayTask() {
		Map<String, String> attributes = SlurmResourceAttributes.resolve(Map.of("SLURM_JOB_ID", "101",
				"SLURM_ARRAY_JOB_ID", "100", "SLURM_ARRAY_TASK_ID", "1", "SLURM_ARRAY_TASK_COUNT", "4",
				"SLURM_JOB_PARTITION", "gpu", "SLURM_PARTITION", "other", "NV_LAUNCH_SLUID", "s1"));
		assertThat(attributes).containsEntry("slurm.job.id", "100_1")
			.containsEntry("slurm.job.id.raw", "101")
			.containsEntry("slurm.array.job_id", "100")
			.containsEntry("slurm.array.task_id", "1")
			.containsEntry("slurm.array.count", "4")
			.containsEntry("slurm.partition", "gpu")
			.containsEntry("slurm.sluid", "s1")
			.containsEntry("nv.dl.job.uuid",
					SlurmResourceAttributes.uuid5("nemo.lens.job/nocluster/100").toString());
	}

	@Test
	void uuid5IsPythons() {
		// Python: uuid.uuid5(uuid.NAMESPACE_URL, "nemo.lens.job/nocluster/nojob")
		assertThat(SlurmResourceAttributes.uuid5("nemo.lens.job/nocluster/nojob"))
			.hasToString("d2badfc7-0e4c-537b-b4ea-8785f79f8679");
	}

}
