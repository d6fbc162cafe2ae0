package io.github.startuptelemetry.it.support;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The starter's class preload ({@code StartupClassPreload}) against what a real server loads: its
 * lists are package-private in the starter and read here as they are. Checked in a server started
 * without the preload ({@code TELEMETRY_STARTUP_PRELOAD=false}), so that its class-load log shows
 * what the server itself asks for.
 */
public final class PreloadList {

	private static final String PRELOAD = "io.github.startuptelemetry.server.StartupClassPreload";

	private static final Pattern STARTED = Pattern.compile("Started \\w+ in [\\d.]+ seconds \\(process running for ([\\d.]+)\\)");

	private PreloadList() {
	}

	/** Every name the preload lists, in its order. */
	public static List<String> all() throws Exception {
		return List.of((String[]) field("CLASSES"));
	}

	/** The listed names loaded only where Boot's OpenTelemetry support is. */
	@SuppressWarnings("unchecked")
	public static List<String> withBootOpenTelemetry() throws Exception {
		return (List<String>) field("WITH_BOOT_OPENTELEMETRY");
	}

	/** What the preload loads in a server without Boot's OpenTelemetry support. */
	public static List<String> plain() throws Exception {
		List<String> plain = new ArrayList<>(all());
		plain.removeAll(withBootOpenTelemetry());
		return plain;
	}

	/**
	 * Every class of the starter the server loaded before Boot logged "Started" (by the JVM's
	 * uptime) is in {@code listed}, but for those of {@code ApplicationStartingEvent}, where the
	 * preload starts (loaded before the first listed one); and every class of {@code loaded} is
	 * one the server loads, or preloading it would be a cost for nothing.
	 * @param classLog the server's {@code -Xlog:class+load} file ({@link ClassLoadLog})
	 * @param log the server's log, with Boot's "Started" line
	 */
	public static void assertCovers(Path classLog, String log, List<String> listed, List<String> loaded) throws IOException {
		Matcher started = STARTED.matcher(log);
		assertThat(started.find()).as(log).isTrue();
		double ready = Double.parseDouble(started.group(1));
		List<ClassLoadLog.Loaded> ours = ClassLoadLog.read(classLog)
			.all()
			.stream()
			.filter((c) -> c.source().contains("startup-telemetry-autoconfigure") || listed.contains(c.name()))
			.toList();
		List<String> names = ours.stream().map(ClassLoadLog.Loaded::name).toList();
		assertThat(loaded).as("listed, but this server never loads them").isSubsetOf(names);
		int firstListed = IntStream.range(0, names.size())
			.filter((i) -> listed.contains(names.get(i)))
			.findFirst()
			.orElseThrow();
		assertThat(ours.subList(firstListed, ours.size())
			.stream()
			.filter((c) -> c.uptime() <= ready)
			.map(ClassLoadLog.Loaded::name)
			.filter((name) -> !listed.contains(name)))
			.as("loaded on the way to ready (before %.3f s) and not preloaded: add them to StartupClassPreload.CLASSES "
					+ "(and to WITH_BOOT_OPENTELEMETRY if only such an application loads them)", ready)
			.isEmpty();
	}

	private static Object field(String name) throws Exception {
		Field field = Class.forName(PRELOAD).getDeclaredField(name);
		field.setAccessible(true);
		return field.get(null);
	}

}
