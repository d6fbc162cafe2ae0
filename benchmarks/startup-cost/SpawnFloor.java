import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What the JDK alone costs a process that spawns and stops N processes (issue 34's floor under the
 * supervisor's CPU per server): no Spring, no telemetry, only ProcessBuilder.start, the exit
 * future a supervisor needs, SIGTERM and the wait. Rounds of each way are interleaved; the
 * process's own CPU (utime + stime of /proc/self/stat, its children not counted), per process.
 *
 * <pre>java benchmarks/startup-cost/SpawnFloor.java N ROUNDS OUT.md</pre>
 */
public class SpawnFloor {

	/** The ways, each a step closer to what the local launcher does per server. */
	private static final String[] WAYS = { "sleep", "shell", "shell+onExit" };

	public static void main(String[] args) throws Exception {
		int n = Integer.parseInt(args[0]);
		int rounds = Integer.parseInt(args[1]);
		Path out = Path.of(args[2]);
		Path logs = Files.createTempDirectory("spawn-floor");
		String loadStart = load();
		for (int i = 0; i < 5; i++) {
			new ProcessBuilder("true").start().waitFor();
		}
		double[][] spawn = new double[WAYS.length][rounds];
		double[][] stop = new double[WAYS.length][rounds];
		double[][] wall = new double[WAYS.length][rounds];
		for (int r = 0; r < rounds; r++) {
			for (int w = 0; w < WAYS.length; w++) {
				double[] measured = run(WAYS[w], n, logs);
				spawn[w][r] = measured[0];
				stop[w][r] = measured[1];
				wall[w][r] = measured[2];
				System.err.printf("round %d %s: spawn %.2f ms, stop %.2f ms a process (load %s)%n", r + 1, WAYS[w],
						measured[0], measured[1], load());
			}
		}
		StringBuilder md = new StringBuilder();
		md.append("# The JDK's floor under the supervisor's CPU per server (issue 34)\n\n");
		md.append("Generated ").append(LocalDateTime.now().truncatedTo(ChronoUnit.SECONDS))
			.append(" by `bench/run.sh spawn-floor`; load average ").append(loadStart).append(" at start, ")
			.append(load()).append(" at end.\n\n");
		md.append("A plain Java program (`benchmarks/startup-cost/SpawnFloor.java`, no Spring, no telemetry) spawns ")
			.append(n)
			.append(" processes, then SIGTERMs them all and waits for each: its own CPU (utime + stime, children not counted) per process, ")
			.append(rounds)
			.append(" interleaved rounds, medians. `sleep`: `ProcessBuilder(\"sleep\", \"3600\")` with its output to a file; ")
			.append("`shell`: through a shell that forks a guard under `setpriv` and stamps the time with `date`, as the local launcher's launch shell does; ")
			.append("`shell+onExit`: the same with `Process.onExit()` taken, the exit future any supervisor needs. ")
			.append("On a box whose common pool has one thread (2 cores), the JDK completes each `onExit()` on a new thread.\n\n");
		md.append("| way | spawn, CPU per process (ms) | stop, CPU per process (ms) | both (ms) | spawn wall per process (ms) |\n");
		md.append("|---|---|---|---|---|\n");
		for (int w = 0; w < WAYS.length; w++) {
			md.append(String.format("| `%s` | %.2f | %.2f | %.2f | %.2f |%n", WAYS[w], median(spawn[w]), median(stop[w]),
					median(spawn[w]) + median(stop[w]), median(wall[w])));
		}
		md.append("\nRounds (spawn / stop, ms a process): ");
		for (int w = 0; w < WAYS.length; w++) {
			md.append("`").append(WAYS[w]).append("` ");
			for (int r = 0; r < rounds; r++) {
				md.append(String.format("%.2f/%.2f ", spawn[w][r], stop[w][r]));
			}
		}
		md.append("\n\nMachine: ").append(Runtime.getRuntime().availableProcessors()).append(" cores, Java ")
			.append(System.getProperty("java.version")).append(".\n");
		Files.writeString(out, md);
		System.out.print(md);
	}

	/** Spawn n processes the given way, then stop them all: CPU per process of each half, and the spawn's wall time per process. */
	private static double[] run(String way, int n, Path logs) throws Exception {
		List<Process> processes = new ArrayList<>(n);
		List<CompletableFuture<Process>> exits = new ArrayList<>(n);
		long cpu0 = cpuMs();
		long wall0 = System.nanoTime();
		for (int i = 0; i < n; i++) {
			ProcessBuilder builder = way.equals("sleep") ? new ProcessBuilder("sleep", "3600")
					: new ProcessBuilder("/bin/sh", "-c",
							"setpriv --pdeathsig KILL /bin/sh -c 'read -r _' guard <&0 >/dev/null 2>&1 &"
									+ " STAMP=$(date +%s%N); export STAMP; exec \"$@\"",
							"launch", "sleep", "3600");
			builder.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(logs.resolve("log-" + (i % 16)).toFile()));
			Process process = builder.start();
			processes.add(process);
			if (way.endsWith("onExit")) {
				exits.add(process.onExit());
			}
		}
		long cpu1 = cpuMs();
		long wall1 = System.nanoTime();
		processes.forEach(Process::destroy);
		for (Process process : processes) {
			process.waitFor();
		}
		CompletableFuture.allOf(exits.toArray(CompletableFuture[]::new)).join();
		long cpu2 = cpuMs();
		return new double[] { (cpu1 - cpu0) / (double) n, (cpu2 - cpu1) / (double) n, (wall1 - wall0) / 1e6 / n };
	}

	/** This process's CPU, utime + stime, in ms (clock ticks of 10 ms). */
	private static long cpuMs() throws IOException {
		String stat = Files.readString(Path.of("/proc/self/stat"));
		String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
		return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 10;
	}

	private static double median(double[] values) {
		double[] sorted = values.clone();
		Arrays.sort(sorted);
		int m = sorted.length / 2;
		return (sorted.length % 2 == 1) ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
	}

	private static String load() throws IOException {
		return String.join(" ", Arrays.copyOf(Files.readString(Path.of("/proc/loadavg")).split(" "), 3));
	}

}
