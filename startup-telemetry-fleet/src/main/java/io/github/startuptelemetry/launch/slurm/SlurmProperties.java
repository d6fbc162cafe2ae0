package io.github.startuptelemetry.launch.slurm;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;

import io.github.startuptelemetry.autoconfigure.TelemetryProperties;

/** How the {@code slurm} launcher runs each server as a job step ({@code telemetry.supervisor.slurm.*}). */
@ConfigurationProperties(TelemetryProperties.SUPERVISOR + ".slurm")
public class SlurmProperties {

	/** Extra srun arguments, one element each (e.g. "--gpus-per-task=1"), before the server's command. */
	private List<String> srunArgs = new ArrayList<>();

	/** Nodes per step (srun --nodes); srun's default when unset. */
	private Integer nodes;

	/** Tasks per step (srun --ntasks); 1 when unset, as one server is one task. */
	private int ntasks = 1;

	/** Partition of the steps (srun --partition); the allocation's when unset. */
	private String partition;

	/** Environment set on every step, over the supervisor's (set on srun itself, never through a shell). */
	private Map<String, String> env = new LinkedHashMap<>();

	public List<String> getSrunArgs() {
		return this.srunArgs;
	}

	public void setSrunArgs(List<String> srunArgs) {
		this.srunArgs = srunArgs;
	}

	public Integer getNodes() {
		return this.nodes;
	}

	public void setNodes(Integer nodes) {
		this.nodes = nodes;
	}

	public int getNtasks() {
		return this.ntasks;
	}

	public void setNtasks(int ntasks) {
		this.ntasks = ntasks;
	}

	public String getPartition() {
		return this.partition;
	}

	public void setPartition(String partition) {
		this.partition = partition;
	}

	public Map<String, String> getEnv() {
		return this.env;
	}

	public void setEnv(Map<String, String> env) {
		this.env = env;
	}

}
