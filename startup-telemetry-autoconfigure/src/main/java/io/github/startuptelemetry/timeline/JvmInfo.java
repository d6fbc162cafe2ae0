package io.github.startuptelemetry.timeline;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The JVM a server started on, as far as it changes startup: its version and the startup-relevant
 * flags (a CDS archive or AOT cache, JIT tiers, heap size, the collector), only those, so that no
 * other argument (a system property with a secret, say) ever leaves the process.
 *
 * @param version the Java runtime's version ({@code java.runtime.version})
 * @param flags the startup-relevant JVM arguments, as given
 */
public record JvmInfo(String version, List<String> flags) {

	private static final List<String> STARTUP_FLAGS = List.of("-Xshare", "-XX:SharedArchiveFile=",
			"-XX:ArchiveClassesAtExit=", "-XX:+AutoCreateSharedArchive", "-XX:AOTCache=", "-XX:AOTMode=",
			"-XX:TieredStopAtLevel=", "-XX:+TieredCompilation", "-XX:-TieredCompilation", "-Xms", "-Xmx", "-Xss",
			"-XX:ActiveProcessorCount=", "-XX:+UseSerialGC", "-XX:+UseParallelGC", "-XX:+UseG1GC", "-XX:+UseZGC",
			"-XX:+UseShenandoahGC", "-XX:+UseEpsilonGC", "-Xlog:class", "-Dspring.aot.enabled=",
			"-Dspring.context.checkpoint=", "-XX:CRaC");

	public JvmInfo {
		flags = List.copyOf(flags);
	}

	/** This JVM. */
	public static JvmInfo current() {
		// the property Runtime.version() parses: its toString() loads stream lambdas at ready
		String version = System.getProperty("java.runtime.version");
		return of((version != null) ? version : Runtime.version().toString(),
				ManagementFactory.getRuntimeMXBean().getInputArguments());
	}

	/** A JVM of {@code version} started with {@code arguments}: only the startup flags are kept. */
	public static JvmInfo of(String version, List<String> arguments) {
		List<String> flags = new ArrayList<>();
		for (String argument : arguments) {
			for (String flag : STARTUP_FLAGS) {
				if (argument.startsWith(flag)) {
					flags.add(argument);
					break;
				}
			}
		}
		return new JvmInfo(version, flags);
	}

	/** Whether class data sharing is switched off ({@code -Xshare:off}); on by default since JDK 12. */
	public boolean cdsOff() {
		return this.flags.contains("-Xshare:off");
	}

	/** The CDS archive given with {@code -XX:SharedArchiveFile}, or {@code null} for the JDK's default one. */
	public @Nullable String cdsArchive() {
		return value("-XX:SharedArchiveFile=");
	}

	/** The AOT cache given with {@code -XX:AOTCache} (JDK 24+), or {@code null}. */
	public @Nullable String aotCache() {
		return value("-XX:AOTCache=");
	}

	/** {@code -XX:TieredStopAtLevel}, or {@code null} when not given (all tiers). */
	public @Nullable Integer tieredStopAtLevel() {
		String level = value("-XX:TieredStopAtLevel=");
		try {
			return (level != null) ? Integer.valueOf(level.strip()) : null;
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

	private @Nullable String value(String prefix) {
		for (int i = this.flags.size() - 1; i >= 0; i--) {
			if (this.flags.get(i).startsWith(prefix)) {
				return this.flags.get(i).substring(prefix.length());
			}
		}
		return null;
	}

}
