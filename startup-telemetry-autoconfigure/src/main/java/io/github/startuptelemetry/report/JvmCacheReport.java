package io.github.startuptelemetry.report;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

import org.jspecify.annotations.Nullable;

/**
 * What the supervisor's JVM startup caches did for one startup
 * ({@code telemetry.supervisor.jvm-cache}): the training starts it ran first, per server whether
 * its cache was used and if not why, and in {@code compare} mode the rounds' comparison.
 *
 * @param mode the fleet's mode: {@code train}, {@code use} or {@code compare}
 * @param directory the cache directory
 * @param trainings the training starts of this supervisor, in the order they ran
 * @param servers one per server of the startup, in spawn order
 * @param comparison the paired comparison, in {@code compare} mode once a round completed
 */
public record JvmCacheReport(String mode, @Nullable String directory, List<Training> trainings,
		List<ServerCache> servers, @Nullable JvmCacheComparison comparison) {

	/** {@link ServerCache#reason()} of a server started with its cache, which the JVM took. */
	public static final String USED = "used";

	/** The server's mode is {@code off}. */
	public static final String OFF = "off";

	/** Its command does not run {@code java} (a Python server, a script). */
	public static final String NOT_JAVA = "not-java";

	/** A Java command the caches cannot serve (a module launch, an argument file, its own CDS flags, JDK 12 or older). */
	public static final String UNSUPPORTED = "unsupported";

	/** No cache was trained for this command yet. */
	public static final String MISSING = "missing";

	/** A cache was trained for this command, but its jar or JVM has changed since. */
	public static final String STALE = "stale";

	/** The JVM refused the cache (its log says why), now or when last used. */
	public static final String REFUSED = "refused";

	/** Training failed (its log in the cache directory says why). */
	public static final String TRAINING_FAILED = "training-failed";

	/** A round of {@code compare} that starts the fleet without the caches, on purpose. */
	public static final String WITHOUT = "without";

	/** The server was never launched (its spawn failed). */
	public static final String NOT_STARTED = "not-started";

	public JvmCacheReport {
		Objects.requireNonNull(mode, "mode");
		trainings = List.copyOf(trainings);
		servers = List.copyOf(servers);
	}

	/** The named server's row, if it has one. */
	public Optional<ServerCache> server(String name) {
		return this.servers.stream().filter((server) -> server.server().equals(name)).findFirst();
	}

	/** This report with the comparison of the rounds that ran before the startup. */
	public JvmCacheReport withComparison(@Nullable JvmCacheComparison comparison) {
		return new JvmCacheReport(this.mode, this.directory, this.trainings, this.servers, comparison);
	}

	/** This report with these training starts (a supervisor's, before its rounds and its startup). */
	public JvmCacheReport withTrainings(List<Training> trainings) {
		return new JvmCacheReport(this.mode, this.directory, trainings, this.servers, this.comparison);
	}

	/**
	 * One training start: a distinct Java command run once with the JVM's training flags, and
	 * {@code -Dspring.context.exit=onRefresh}, to write its cache.
	 *
	 * @param servers the servers that share the command
	 * @param kind {@code aot} (AOT cache, JDK 24+) or {@code appcds} (dynamic AppCDS archive)
	 * @param java the JVM's runtime version and vendor, e.g. {@code 25.0.3+9-LTS (Eclipse Adoptium)}
	 * @param target the jar (or class path) it runs
	 * @param trained whether the cache was written
	 * @param detail why not, or what was written
	 * @param durationMs how long the training took, extraction included
	 * @param sizeBytes the cache entry's size on disk (cache and extracted jars), 0 when it failed
	 * @param entry the entry's directory
	 */
	public record Training(List<String> servers, String kind, String java, String target, boolean trained,
			@Nullable String detail, long durationMs, long sizeBytes, String entry) {

		public Training {
			servers = List.copyOf(servers);
		}

	}

	/**
	 * What the cache did for one server.
	 *
	 * @param server the server's name
	 * @param reason {@link #USED}, or why not: {@link #OFF}, {@link #NOT_JAVA},
	 * {@link #UNSUPPORTED}, {@link #MISSING}, {@link #STALE}, {@link #REFUSED},
	 * {@link #TRAINING_FAILED}, {@link #WITHOUT}, {@link #NOT_STARTED}
	 * @param detail the sentence that says more (what changed, what the JVM said), or {@code null}
	 * @param kind {@code aot} or {@code appcds} for a Java command the caches serve, else {@code null}
	 * @param java the JVM's runtime version and vendor, when known
	 * @param sharedClasses classes the JVM loaded from a CDS archive or AOT cache (the JDK's own
	 * default archive included), or -1 when its counters could not be read
	 * @param loadedClasses all classes it loaded, or -1
	 */
	public record ServerCache(String server, String reason, @Nullable String detail, @Nullable String kind,
			@Nullable String java, long sharedClasses, long loadedClasses) {

		public ServerCache {
			Objects.requireNonNull(server, "server");
			Objects.requireNonNull(reason, "reason");
		}

		public boolean used() {
			return USED.equals(this.reason);
		}

		/** The share of its loaded classes that came from a CDS archive or AOT cache, 0 to 1, when counted. */
		public OptionalDouble classShare() {
			return (this.sharedClasses >= 0 && this.loadedClasses > 0)
					? OptionalDouble.of((double) this.sharedClasses / this.loadedClasses) : OptionalDouble.empty();
		}

		/** This row with the class counts read from the JVM. */
		public ServerCache withClasses(long shared, long loaded) {
			return new ServerCache(this.server, this.reason, this.detail, this.kind, this.java, shared, loaded);
		}

		/** This row refused by the JVM, for the reason its log gives. */
		public ServerCache refused(String why) {
			return new ServerCache(this.server, REFUSED, why, this.kind, this.java, this.sharedClasses,
					this.loadedClasses);
		}

	}

}
