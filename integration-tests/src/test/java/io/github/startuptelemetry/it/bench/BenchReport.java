package io.github.startuptelemetry.it.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.Locale;

/**
 * A benchmark's Markdown result ({@code bench/results/<name>.md}): what ran, on which machine,
 * then whatever the benchmark appends. The machine line states the load, since a 2-core box
 * shared with builds gives noisy numbers.
 */
final class BenchReport {

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

	/** Write it to {@code bench.out} (set by bench/run.sh) or under target/, and print it. */
	Path write(String name) throws IOException {
		line("");
		line("Machine: %d cores (%s), %s %s, Java %s; load average %.2f at start, %.2f at end.",
				Runtime.getRuntime().availableProcessors(), cpuModel(), System.getProperty("os.name"),
				System.getProperty("os.version"), System.getProperty("java.version"), this.loadAtStart, loadAverage());
		Path out = Path.of(System.getProperty("bench.out", "target/" + name + ".md"));
		Files.createDirectories(out.toAbsolutePath().getParent());
		Files.writeString(out, this.md);
		System.out.println(this.md);
		return out;
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
