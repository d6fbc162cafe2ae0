package io.github.startuptelemetry.launch.slurm;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.startuptelemetry.contract.SpanAttributes;
import io.github.startuptelemetry.launch.LaunchRequest;
import io.github.startuptelemetry.launch.LaunchedServer;

/**
 * One server as a Slurm job step: the {@code srun} process on this host, its standard input the
 * launch shell's guard pipe, its output and its own messages in the server's log, where
 * {@link LaunchingLines} finds srun's verbose {@code launching StepId=J.S on host H}: when the
 * step stopped pending and where it landed.
 */
final class SlurmStep implements LaunchedServer, LaunchingLines.Pending {

	private static final Pattern LAUNCHING = Pattern.compile("launching StepId=(\\d+)\\.(\\d+) on host (\\S+?),");

	/** How long one scancel may take, and a little more for each step it names. */
	private static final long SCANCEL_TIMEOUT_MS = 10_000;

	private static final long SCANCEL_TIMEOUT_MS_PER_STEP = 20;

	/** How much of a log a look reads at most: srun's lines before its launching line are a few hundred bytes. */
	private static final int READ_BYTES = 64 * 1024;

	private final Process srun;

	private final Path log;

	private final long spawnNs;

	private final LaunchingLines lines;

	private final CompletableFuture<String> host = new CompletableFuture<>();

	private final CompletableFuture<ServerExit> exit;

	/** How far its log was read for the launching line, up to the end of its last whole line; guarded by {@code this}. */
	private long read;

	private volatile String jobId;

	private volatile String stepId;

	private volatile long pendingMs = -1;

	private SlurmStep(Process srun, Path log, long spawnNs, LaunchingLines lines) {
		this.srun = srun;
		this.log = log;
		this.spawnNs = spawnNs;
		this.lines = lines;
		this.exit = srun.onExit().thenApply((done) -> {
			// a line srun wrote just before it exited, not looked at yet
			readLaunchingLine();
			lines.done(this);
			this.host.complete(null);
			int code = done.exitValue();
			return new ServerExit(code, "exited with code " + code + " (step " + step() + ")");
		});
	}

	/**
	 * Start srun, its output and its messages appended to the server's log (no thread of ours
	 * reads them: {@code lines} looks for the launching line).
	 */
	static SlurmStep start(List<String> command, LaunchRequest request, Map<String, String> extraEnv,
			LaunchingLines lines) throws IOException {
		ProcessBuilder builder = new ProcessBuilder(command)
			.redirectOutput(ProcessBuilder.Redirect.appendTo(request.log().toFile()))
			.redirectError(ProcessBuilder.Redirect.appendTo(request.log().toFile()));
		builder.environment().putAll(extraEnv);
		builder.environment().putAll(request.env());
		long spawnNs = System.nanoTime();
		SlurmStep step = new SlurmStep(builder.start(), request.log(), spawnNs, lines);
		lines.add(step);
		if (!step.srun.isAlive()) {
			// gone before it was added: its exit found nothing to stop reading
			lines.done(step);
		}
		return step;
	}

	/**
	 * Read what srun added to the log since the last look, up to its last whole line, for the
	 * launching line; once found, the step's job, id and node are known and its log no longer read.
	 */
	@Override
	public synchronized void readLaunchingLine() {
		if (this.stepId != null) {
			return;
		}
		long foundNs = System.nanoTime();
		String text;
		try (RandomAccessFile file = new RandomAccessFile(this.log.toFile(), "r")) {
			long length = file.length();
			if (length <= this.read) {
				return;
			}
			byte[] bytes = new byte[(int) Math.min(READ_BYTES, length - this.read)];
			file.seek(this.read);
			file.readFully(bytes);
			int end = bytes.length - 1;
			while (end >= 0 && bytes[end] != '\n') {
				end--;
			}
			if (end < 0) {
				return;
			}
			this.read += end + 1;
			text = new String(bytes, 0, end + 1, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			return;
		}
		Matcher launching = LAUNCHING.matcher(text);
		if (launching.find()) {
			this.pendingMs = TimeUnit.NANOSECONDS.toMillis(foundNs - this.spawnNs);
			this.jobId = launching.group(1);
			this.stepId = launching.group(2);
			this.lines.done(this);
			this.host.complete(launching.group(3));
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
		terminate(List.of(this));
	}

	/**
	 * SIGTERM to these steps' tasks, with one scancel for every step created (a plain scancel of
	 * a step is SIGKILL at once: no shutdown, no last spans); a step not created yet, or all of
	 * them when scancel failed, is stopped through srun, which forwards SIGTERM to its tasks or
	 * drops its pending request.
	 */
	static void terminate(List<SlurmStep> steps) {
		List<SlurmStep> created = steps.stream().filter((step) -> step.stepId != null).toList();
		boolean cancelled = !created.isEmpty() && scancel(List.of("--signal=TERM"), created);
		steps.stream().filter((step) -> !cancelled || step.stepId == null).forEach((step) -> step.srun.destroy());
	}

	@Override
	public CompletableFuture<Void> stopped() {
		return this.srun.onExit().thenApply((done) -> null);
	}

	@Override
	public List<String> kill() {
		return kill(List.of(this));
	}

	/** SIGKILL: one scancel for every step created, then each srun killed; the steps, for the log. */
	static List<String> kill(List<SlurmStep> steps) {
		List<SlurmStep> created = steps.stream().filter((step) -> step.stepId != null).toList();
		if (!created.isEmpty()) {
			scancel(List.of(), created);
		}
		steps.forEach((step) -> step.srun.destroyForcibly());
		return steps.stream().map((step) -> "step " + step.step()).toList();
	}

	/** Run one scancel for these steps, bounded; whether it succeeded for all of them. */
	private static boolean scancel(List<String> options, List<SlurmStep> steps) {
		List<String> command = new ArrayList<>(List.of("scancel"));
		command.addAll(options);
		steps.forEach((step) -> command.add(step.step()));
		try {
			Process scancel = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.DISCARD)
				.start();
			if (!scancel.waitFor(SCANCEL_TIMEOUT_MS + SCANCEL_TIMEOUT_MS_PER_STEP * steps.size(),
					TimeUnit.MILLISECONDS)) {
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
