package io.github.startuptelemetry.it.support;

import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import java.util.stream.Stream;

import javax.imageio.ImageIO;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The Debian package's Chromium, headless, one run per page: {@code --dump-dom} for the DOM the
 * browser built, {@code --screenshot} for what it drew. Each run gets a fresh profile and may
 * fetch nothing on its own (no sync, no component updates, no background networking); one that
 * overruns is killed with everything it started. Without Chromium a test is skipped, saying so.
 */
public final class HeadlessChromium {

	/** {@code chromium} on the PATH, else where Debian puts it. */
	private static final Path EXECUTABLE = Stream
		.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
		.filter((dir) -> !dir.isEmpty())
		.map((dir) -> Path.of(dir, "chromium"))
		.filter(Files::isExecutable)
		.findFirst()
		.orElse(Path.of("/usr/bin/chromium"));

	private static final List<String> FLAGS = List.of("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
			"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
			"--hide-scrollbars");

	private static final Duration TIMEOUT = Duration.ofSeconds(90);

	private final Path workDir;

	private HeadlessChromium(Path workDir) {
		this.workDir = workDir;
	}

	/** Chromium working in {@code workDir}; skips the calling test when it is not installed. */
	public static HeadlessChromium require(Path workDir) {
		assumeTrue(Files.isExecutable(EXECUTABLE), "Browser test skipped: no chromium on the PATH nor at " + EXECUTABLE
				+ " (install the Debian package 'chromium', as .ci/run does)");
		return new HeadlessChromium(workDir);
	}

	/** The DOM of the page once loaded, serialised as HTML. */
	public String dumpDom(URI page) throws IOException, InterruptedException {
		return run(List.of("--dump-dom", page.toString()));
	}

	/**
	 * A screenshot of the page in a window of the given size.
	 * @param extraFlags more Chromium flags, e.g. {@code --virtual-time-budget=10000} to let a
	 * script-driven page render first
	 */
	public Picture screenshot(URI page, Path png, int width, int height, String... extraFlags)
			throws IOException, InterruptedException {
		List<String> args = new ArrayList<>(List.of("--screenshot=" + png.toAbsolutePath(),
				"--window-size=" + width + "," + height));
		args.addAll(List.of(extraFlags));
		args.add(page.toString());
		Files.deleteIfExists(png);
		run(args);
		if (!Files.isRegularFile(png)) {
			throw new AssertionError("Chromium wrote no screenshot to " + png);
		}
		return Picture.read(png);
	}

	private String run(List<String> args) throws IOException, InterruptedException {
		Path profile = Files.createTempDirectory(this.workDir, "chromium-profile-");
		Path out = Files.createTempFile(this.workDir, "chromium-", ".out");
		Path err = Files.createTempFile(this.workDir, "chromium-", ".err");
		List<String> command = new ArrayList<>();
		command.add(EXECUTABLE.toString());
		command.addAll(FLAGS);
		command.add("--user-data-dir=" + profile);
		command.addAll(args);
		Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
		try {
			if (!process.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
				throw new AssertionError("Chromium still running after " + TIMEOUT + ": " + Files.readString(err));
			}
			if (process.exitValue() != 0) {
				throw new AssertionError("Chromium exited with " + process.exitValue() + ": " + Files.readString(err));
			}
			return Files.readString(out, StandardCharsets.UTF_8);
		}
		finally {
			process.descendants().forEach(ProcessHandle::destroyForcibly);
			process.destroyForcibly();
		}
	}

	/**
	 * A decoded screenshot and what can be told of it without looking.
	 *
	 * @param file where it is
	 * @param image its pixels
	 */
	public record Picture(Path file, BufferedImage image) {

		static Picture read(Path png) throws IOException {
			BufferedImage image = ImageIO.read(png.toFile());
			if (image == null) {
				throw new AssertionError(png + " is not an image");
			}
			return new Picture(png, image);
		}

		public int width() {
			return this.image.getWidth();
		}

		public int height() {
			return this.image.getHeight();
		}

		public int distinctColours() {
			Set<Integer> colours = new HashSet<>();
			forEachPixel(colours::add);
			return colours.size();
		}

		/** The share of pixels that are not (nearly) white. */
		public double nonWhiteShare() {
			long[] nonWhite = new long[1];
			forEachPixel((rgb) -> {
				if (((rgb >> 16) & 0xff) < 240 || ((rgb >> 8) & 0xff) < 240 || (rgb & 0xff) < 240) {
					nonWhite[0]++;
				}
			});
			return (double) nonWhite[0] / ((long) width() * height());
		}

		/** How many pixels have exactly this colour ({@code 0xrrggbb}). */
		public long pixelsOf(int rgb) {
			long[] count = new long[1];
			forEachPixel((pixel) -> {
				if (pixel == rgb) {
					count[0]++;
				}
			});
			return count[0];
		}

		private void forEachPixel(IntConsumer action) {
			for (int y = 0; y < height(); y++) {
				for (int x = 0; x < width(); x++) {
					action.accept(this.image.getRGB(x, y) & 0xffffff);
				}
			}
		}

	}

}
