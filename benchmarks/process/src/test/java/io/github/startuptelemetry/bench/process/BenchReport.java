package io.github.startuptelemetry.bench.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A benchmark's Markdown result ({@code bench/results/<name>.md}): what ran, on which machine,
 * then whatever the benchmark appends. The machine line states the load, since a 2-core box
 * shared with builds gives noisy numbers.
 */
final class BenchReport {

	/** Above this load average (1 minute) a result is marked as taken under load. */
	static final double QUIET_LOAD = 2.0;

	private final StringBuilder md = new StringBuilder();

	private final double loadAtStart = loadAverage();

	BenchReport(String title, String command) {
		this.md.append("# ").append(title).append("\n\nGenerated ").append(LocalDateTime.now().withNano(0))
			.append(" by `").append(command).append("`.\n\n");
	}

	BenchReport line(String format, Object... args) {
		this.md.append(String.format(Locale.ROOT, format, args)).append('\n');
		return this;
	}

	/**
	 * Write it to {@code bench.out} (set by bench/run.sh) or under target/, and print it. A result
	 * taken while the load average was above {@value #QUIET_LOAD} (at start or at end) says so
	 * at its top: on 2 cores its numbers are not the machine's.
	 */
	Path write(String name) throws IOException {
		double loadAtEnd = loadAverage();
		line("");
		line("Machine: %d cores (`nproc`; %s), %s %s, Java %s (%s %s); load average %.2f at start, %.2f at end.",
				Runtime.getRuntime().availableProcessors(), cpuModel(), System.getProperty("os.name"),
				System.getProperty("os.version"), System.getProperty("java.version"), System.getProperty("java.vm.name"),
				System.getProperty("java.vm.version"), this.loadAtStart, loadAtEnd);
		String text = this.md.toString();
		if (Math.max(this.loadAtStart, loadAtEnd) > QUIET_LOAD) {
			int body = text.indexOf("\n\n") + 2;
			text = text.substring(0, body) + String.format(Locale.ROOT,
					"**Taken under load** (load average %.2f at start, %.2f at end, above %.0f on %d cores): other work "
							+ "shared the CPUs, so absolute numbers and small differences are not the machine's.%n%n",
					this.loadAtStart, loadAtEnd, QUIET_LOAD, Runtime.getRuntime().availableProcessors())
					+ text.substring(body);
		}
		Path out = out(name);
		Files.createDirectories(out.toAbsolutePath().getParent());
		Files.writeString(out, text);
		System.out.println(text);
		return out;
	}

	/**
	 * Carry over, from the file this run replaces, a section written by hand (a profile taken
	 * with temporary marks, not by the benchmark): from {@code heading} up to the machine line.
	 */
	BenchReport keepByHand(String name, String heading) throws IOException {
		Path out = out(name);
		String previous = Files.exists(out) ? Files.readString(out) : "";
		int start = previous.indexOf(heading);
		if (start >= 0) {
			// everything from the heading on, sections added after the last run's machine line too; that line is written anew
			String kept = previous.substring(start)
				.lines()
				.filter((l) -> !l.startsWith("Machine: "))
				.collect(Collectors.joining("\n"))
				.strip();
			line("");
			line("%s", kept);
		}
		return this;
	}

	private static Path out(String name) {
		return Path.of(System.getProperty("bench.out", "target/" + name + ".md"));
	}

	static String verdict(boolean met) {
		return met ? "met" : "MISSED";
	}

	private static String cpuModel() {
		try {
			return Files.readAllLines(Path.of("/proc/cpuinfo"))
				.stream()
				.filter((l) -> l.startsWith("model name"))
				.findFirst()
				.map((l) -> l.substring(l.indexOf(':') + 2))
				.orElse("unknown CPU");
		}
		catch (IOException ex) {
			return "unknown CPU";
		}
	}

	private static double loadAverage() {
		return java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
	}

}
