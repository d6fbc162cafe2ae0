package io.github.startuptelemetry.launch.slurm;

import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.startuptelemetry.contract.SpanAttributes;
import io.github.startuptelemetry.internal.DaemonThreads;
import io.github.startuptelemetry.launch.LaunchRequest;
import io.github.startuptelemetry.launch.LaunchedServer;

/**
 * One server as a Slurm job step: the {@code srun} process on this host, its standard input the
 * launch shell's guard pipe, its output in the server's log; srun's verbose
 * {@code launching StepId=J.S on host H} says when the step stopped pending and where it landed.
 */
final class SlurmStep implements LaunchedServer {

	private static final Pattern LAUNCHING = Pattern.compile("launching StepId=(\\d+)\\.(\\d+) on host (\\S+?),");

	private static final long SCANCEL_TIMEOUT_S = 10;

	private final Process srun;

	private final Path log;

	private final long spawnNs;

	private final CompletableFuture<String> host = new CompletableFuture<>();

	private final CompletableFuture<ServerExit> exit;

	private volatile String jobId;

	private volatile String stepId;

	private volatile long pendingMs = -1;

	private SlurmStep(Process srun, Path log, long spawnNs) {
		this.srun = srun;
		this.log = log;
		this.spawnNs = spawnNs;
		this.exit = srun.onExit().thenApply((done) -> {
			this.host.complete(null);
			int code = done.exitValue();
			return new ServerExit(code, "exited with code " + code + " (step " + step() + ")");
		});
	}

	static SlurmStep start(List<String> command, LaunchRequest request, Map<String, String> extraEnv)
			throws IOException {
		ProcessBuilder builder = new ProcessBuilder(command)
			.redirectOutput(ProcessBuilder.Redirect.appendTo(request.log().toFile()));
		builder.environment().putAll(extraEnv);
		builder.environment().putAll(request.env());
		long spawnNs = System.nanoTime();
		SlurmStep step = new SlurmStep(builder.start(), request.log(), spawnNs);
		DaemonThreads.ownThread("slurm-" + request.name()).execute(step::readSrunErrors);
		return step;
	}

	/** srun's own messages: into the log, and the launching line read for the step and its node. */
	private void readSrunErrors() {
		try (BufferedReader errors = new BufferedReader(
				new InputStreamReader(this.srun.getErrorStream(), StandardCharsets.UTF_8));
				OutputStream out = new FileOutputStream(this.log.toFile(), true)) {
			for (String line = errors.readLine(); line != null; line = errors.readLine()) {
				Matcher launching = LAUNCHING.matcher(line);
				if (this.stepId == null && launching.find()) {
					this.pendingMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - this.spawnNs);
					this.jobId = launching.group(1);
					this.stepId = launching.group(2);
					this.host.complete(launching.group(3));
				}
				out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
				out.flush();
			}
		}
		catch (IOException ex) {
			// srun is gone; its exit says the rest
		}
	}

	private String step() {
		return (this.stepId != null) ? this.jobId + "." + this.stepId : "not created";
	}

	@Override
	public String describe() {
		return "srun pid " + this.srun.pid();
	}

	@Override
	public CompletableFuture<String> host() {
		return this.host;
	}

	@Override
	public CompletableFuture<ServerExit> onExit() {
		return this.exit;
	}

	@Override
	public Path log() {
		return this.log;
	}

	@Override
	public Map<String, Object> attributes() {
		Map<String, Object> attributes = new LinkedHashMap<>();
		if (this.stepId != null) {
			attributes.put(SpanAttributes.SLURM_JOB_ID, this.jobId);
			attributes.put(SpanAttributes.SLURM_STEP_ID, this.stepId);
			attributes.put(SpanAttributes.SLURM_PENDING_MS, this.pendingMs);
		}
		return attributes;
	}

	@Override
	public void terminate() {
		// a plain scancel of a step is SIGKILL at once (no shutdown, no last spans); a step not created yet
		// is stopped through srun, which forwards SIGTERM to its tasks or drops its pending request
		if (this.stepId == null || !scancel(List.of("scancel", "--signal=TERM", step()))) {
			this.srun.destroy();
		}
	}

	@Override
	public CompletableFuture<Void> stopped() {
		return this.srun.onExit().thenApply((done) -> null);
	}

	@Override
	public List<String> kill() {
		if (this.stepId != null) {
			scancel(List.of("scancel", step()));
		}
		this.srun.destroyForcibly();
		return List.of("step " + step());
	}

	/** Run scancel, bounded; whether it succeeded. */
	private static boolean scancel(List<String> command) {
		try {
			Process scancel = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.DISCARD)
				.start();
			if (!scancel.waitFor(SCANCEL_TIMEOUT_S, TimeUnit.SECONDS)) {
				scancel.destroyForcibly();
				return false;
			}
			return scancel.exitValue() == 0;
		}
		catch (IOException ex) {
			return false;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

}
