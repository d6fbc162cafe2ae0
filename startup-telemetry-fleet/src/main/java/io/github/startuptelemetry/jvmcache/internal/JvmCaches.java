package io.github.startuptelemetry.jvmcache.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.internal.Durations;
import io.github.startuptelemetry.report.JvmCacheReport;
import io.github.startuptelemetry.report.JvmCacheReport.ServerCache;
import io.github.startuptelemetry.report.JvmCacheReport.Training;

/**
 * The JVM startup caches of a supervisor's Java servers ({@code telemetry.supervisor.jvm-cache}):
 * each server's cache looked up and, where missing, trained before a startup ({@link #prepare}),
 * given to its command at the spawn ({@link #apply}), and what the JVM did with it read back once
 * it is ready ({@link #observe}). Nothing here fails a server. Thread-safe.
 */
public final class JvmCaches {

	/** The run's own log: training and each server's cache are part of its story. */
	private static final Log logger = LogFactory.getLog("io.github.startuptelemetry.fleet.FleetRun");

	private final Settings settings;

	private final CacheDirectory directory;

	private final TrainingProcess training;

	private final ContentHashes hashes = new ContentHashes();

	private final Map<Path, Jdk> jdks = new ConcurrentHashMap<>();

	private final Map<String, Resolution> resolutions = new ConcurrentHashMap<>();

	private final Map<String, Applied> applied = new ConcurrentHashMap<>();

	private final List<Training> trainings = Collections.synchronizedList(new ArrayList<>());

	public JvmCaches(Settings settings) {
		this.settings = settings;
		this.directory = new CacheDirectory(settings.directory());
		this.training = new TrainingProcess(settings.trainingTimeout());
	}

	/** The cache directory. */
	public Path directory() {
		return this.directory.root();
	}

	/**
	 * Read every server's command, look its cache up, and train the distinct commands of the
	 * servers that may be trained and have no usable cache, one after the other; blocks until
	 * done (or {@link #stop()}).
	 * @param servers the fleet's servers, each once
	 * @return the trainings run now
	 */
	public List<Training> prepare(List<Server> servers) {
		Map<String, List<Server>> toTrain = new LinkedHashMap<>();
		Map<String, List<Server>> sharing = new LinkedHashMap<>();
		for (Server server : servers) {
			Resolution resolution = resolve(server);
			this.resolutions.put(server.name(), resolution);
			if (resolution.key() != null && !resolution.lookup().usable()) {
				sharing.computeIfAbsent(resolution.key().id(), (id) -> new ArrayList<>()).add(server);
				if (server.train()) {
					toTrain.computeIfAbsent(resolution.key().id(), (id) -> new ArrayList<>()).add(server);
				}
			}
		}
		List<Training> done = new ArrayList<>();
		for (Map.Entry<String, List<Server>> group : toTrain.entrySet()) {
			// a server that only uses caches starts with the one trained now for its command too
			Training training = train(group.getValue(), sharing.get(group.getKey()));
			if (training != null) {
				done.add(training);
				this.trainings.add(training);
			}
		}
		return done;
	}

	private Resolution resolve(Server server) {
		if (!server.use() && !server.train()) {
			return Resolution.without(JvmCacheReport.OFF, "jvm-cache is off for this server");
		}
		JavaCommand command = JavaCommand.parse(server.command());
		if (command.notJava()) {
			return Resolution.without(JvmCacheReport.NOT_JAVA, command.problem());
		}
		if (command.problem() != null) {
			return Resolution.without(JvmCacheReport.UNSUPPORTED, command.problem());
		}
		Path binary = command.binary(server.workingDir(), server.env().getOrDefault("PATH", System.getenv("PATH")));
		if (binary == null) {
			return Resolution.without(JvmCacheReport.UNSUPPORTED, "its java (" + command.java() + ") is not an executable"
					+ " file on this host");
		}
		Jdk jdk;
		try {
			jdk = jdk(binary);
		}
		catch (IOException ex) {
			return Resolution.without(JvmCacheReport.UNSUPPORTED, "could not tell which JDK " + binary + " is: "
					+ ex.getMessage());
		}
		if (jdk.problem() != null) {
			return new Resolution(null, jdk, null, JvmCacheReport.UNSUPPORTED, jdk.problem());
		}
		Map<String, String> env = new LinkedHashMap<>(System.getenv());
		env.putAll(server.env());
		CacheKey key;
		try {
			key = CacheKey.of(command, server.workingDir(), env, jdk, this.hashes);
		}
		catch (IllegalArgumentException ex) {
			return new Resolution(null, jdk, null, JvmCacheReport.UNSUPPORTED, ex.getMessage());
		}
		catch (IOException ex) {
			return new Resolution(null, jdk, null, JvmCacheReport.UNSUPPORTED, "could not read what it runs: " + ex);
		}
		CacheDirectory.Lookup lookup = this.directory.lookup(key);
		return new Resolution(key, jdk, lookup, lookup.reason(), lookup.detail());
	}

	private Jdk jdk(Path binary) throws IOException {
		Jdk known = this.jdks.get(binary);
		if (known == null) {
			known = Jdk.of(binary);
			this.jdks.put(binary, known);
		}
		return known;
	}

	/**
	 * Train the command {@code group} shares, once; {@code null} when another supervisor just
	 * did. Every server of {@code sharing} (the group and those of the same command that only
	 * use caches) is looked up again afterwards.
	 */
	private @Nullable Training train(List<Server> group, List<Server> sharing) {
		Server first = group.get(0);
		Resolution resolution = this.resolutions.get(first.name());
		CacheKey key = resolution.key();
		List<String> names = group.stream().map(Server::name).toList();
		long start = System.nanoTime();
		Path dir = this.directory.entryDir(key);
		try {
			Training training = this.directory.locked(() -> {
				// another supervisor sharing the directory may have trained it meanwhile
				CacheDirectory.Lookup again = this.directory.lookup(key);
				if (again.usable()) {
					return null;
				}
				logger.info("Training the JVM cache of " + String.join(", ", names) + " (" + key.jdk().kindName()
						+ ", JDK " + key.jdk().describe() + ", " + key.target() + "): one start that exits once its "
						+ "context has refreshed; not counted as the fleet's startup. Log: "
						+ dir.resolve(CacheDirectory.TRAINING_LOG));
				Path entry = this.directory.begin(key);
				Trained trained = runTraining(first, key, entry);
				long ms = (System.nanoTime() - start) / 1_000_000;
				if (trained.failure() != null) {
					return new Training(names, key.jdk().kind(), key.jdk().describe(), key.target(), false,
							trained.failure(), ms, 0, entry.toString());
				}
				CacheEntry committed = this.directory.commit(key, entry, launchOf(key, entry), ms);
				List<Path> evicted = this.directory.evict(this.settings.maxBytes(), entry);
				if (!evicted.isEmpty()) {
					logger.info("JVM cache directory over " + this.settings.maxBytes() / (1024 * 1024) + " MB: evicted "
							+ evicted.size() + " least recently used entr" + (evicted.size() == 1 ? "y" : "ies") + ": "
							+ String.join(", ", evicted.stream().map((path) -> path.getFileName().toString()).toList()));
				}
				long size = CacheDirectory.size(entry);
				return new Training(names, key.jdk().kind(), key.jdk().describe(), key.target(), true,
						key.jdk().kindName() + " " + committed.cache().getFileName() + ", " + size / (1024 * 1024)
								+ " MB in all" + (trained.timedOut() ? "; its training start was stopped at the training "
										+ "timeout (" + Durations.format(this.settings.trainingTimeout().toNanos())
										+ "), trained up to then" : ""),
						ms, size, entry.toString());
			});
			if (training != null) {
				logger.info(training.trained()
						? "Trained the JVM cache of " + String.join(", ", names) + " in "
								+ Durations.format(training.durationMs() * 1_000_000) + ": " + training.detail()
						: "Training the JVM cache of " + String.join(", ", names) + " failed: " + training.detail());
			}
			for (Server server : sharing) {
				Resolution trained = resolve(server);
				this.resolutions.put(server.name(), (training != null && !training.trained())
						? new Resolution(key, key.jdk(), null, JvmCacheReport.TRAINING_FAILED, training.detail())
						: trained);
			}
			return training;
		}
		catch (IOException | RuntimeException ex) {
			logger.warn("Training the JVM cache of " + String.join(", ", names) + " failed: " + ex);
			Training failed = new Training(names, key.jdk().kind(), key.jdk().describe(), key.target(), false,
					ex.toString(), (System.nanoTime() - start) / 1_000_000, 0, dir.toString());
			sharing.forEach((server) -> this.resolutions.put(server.name(),
					new Resolution(key, key.jdk(), null, JvmCacheReport.TRAINING_FAILED, ex.toString())));
			return failed;
		}
	}

	/**
	 * Extract a Spring Boot jar, then run the training start(s). A start that the training
	 * timeout ended is no failure by itself: a JVM writes its cache at any exit (SIGTERM's
	 * included), so what it wrote by then counts.
	 */
	private Trained runTraining(Server server, CacheKey key, Path entry) throws IOException {
		Path log = entry.resolve(CacheDirectory.TRAINING_LOG);
		Map<String, String> env = server.env();
		JavaCommand command = JavaCommand.parse(server.command());
		String jar = key.bootJar() ? null : command.jar();
		boolean timedOut = false;
		try {
			if (key.bootJar()) {
				Path app = entry.resolve(CacheDirectory.APP);
				TrainingProcess.Exit extracted = this.training.run(List.of(key.jdk().java().toString(),
						"-Djarmode=tools", "-jar", key.target(), "extract", "--destination", app.toString()),
						server.workingDir(), env, log);
				if (extracted.code() != 0) {
					return Trained.failed(failure("extracting " + key.target() + " exited with " + extracted.code(), log));
				}
				jar = extractedJar(app).toString();
			}
			for (List<String> options : key.jdk().trainingOptions(entry)) {
				TrainingProcess.Exit exit = this.training.run(JavaCommand.withCache(command, options, jar),
						server.workingDir(), env, log);
				if (exit.code() != 0 && !exit.timedOut()) {
					return Trained.failed(failure("the training start exited with " + exit.code(), log));
				}
				timedOut |= exit.timedOut();
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return Trained.failed("interrupted");
		}
		Path cache = entry.resolve(key.jdk().cacheFile());
		if (!Files.isRegularFile(cache) || Files.size(cache) == 0) {
			return Trained.failed(failure("the JVM wrote no " + cache.getFileName(), log));
		}
		return new Trained(null, timedOut);
	}

	/**
	 * How a training's steps went.
	 *
	 * @param failure why it failed, or {@code null} when the cache was written
	 * @param timedOut whether a training start was ended by the training timeout
	 */
	private record Trained(@Nullable String failure, boolean timedOut) {

		static Trained failed(String failure) {
			return new Trained(failure, false);
		}

	}

	private static String failure(String what, Path log) {
		return what + " (log " + log + "):\n" + TrainingProcess.tail(log);
	}

	/** The jar {@code java -Djarmode=tools ... extract} wrote: the one jar directly under its destination. */
	private static Path extractedJar(Path app) throws IOException {
		try (Stream<Path> files = Files.list(app)) {
			List<Path> jars = files.filter((file) -> file.getFileName().toString().endsWith(".jar")).toList();
			if (jars.size() != 1) {
				throw new IOException("expected one jar in " + app + ", found " + jars.size());
			}
			return jars.get(0);
		}
	}

	/** The jar to run with the entry, relative to it, for a Spring Boot jar; {@code null} otherwise. */
	private static @Nullable String launchOf(CacheKey key, Path entry) throws IOException {
		return key.bootJar() ? entry.relativize(extractedJar(entry.resolve(CacheDirectory.APP))).toString() : null;
	}

	/**
	 * The command to start server {@code name} with: with its cache when it has a usable one
	 * and {@code withCache}, else as it is. What was decided is remembered for {@link #observe}.
	 * @param name the server
	 * @param command its command as planned for this start (its port, its name)
	 * @param serverLog its log file: the JVM's log of the cache goes beside it
	 * @param withCache false for a round of {@code compare} without the caches
	 */
	public List<String> apply(String name, List<String> command, Path serverLog, boolean withCache) {
		Resolution resolution = this.resolutions.get(name);
		if (resolution == null) {
			return command;
		}
		if (!withCache) {
			this.applied.put(name, new Applied(resolution, null, null, JvmCacheReport.WITHOUT,
					"a round of compare without the caches"));
			return command;
		}
		CacheEntry entry = (resolution.lookup() != null && resolution.lookup().usable()) ? resolution.lookup().entry()
				: null;
		if (entry == null) {
			this.applied.put(name, new Applied(resolution, null, null, resolution.reason(), resolution.detail()));
			return command;
		}
		JavaCommand current = JavaCommand.parse(command);
		if (current.problem() != null) {
			this.applied.put(name, new Applied(resolution, null, null, JvmCacheReport.UNSUPPORTED, current.problem()));
			return command;
		}
		if (!entry.present()) {
			// evicted by a later training (this supervisor's or another's): a server run from an
			// extracted jar that is gone would not start at all
			this.applied.put(name, new Applied(resolution, null, null, JvmCacheReport.MISSING, "its cache " + entry.dir()
					+ " was deleted since it was looked up (evicted to keep the cache directory under its max-size)"));
			return command;
		}
		Path log = serverLog.resolveSibling(serverLog.getFileName().toString().replaceFirst("\\.log$", "")
				+ ".jvm-cache.log");
		CacheDirectory.touch(entry);
		this.applied.put(name, new Applied(resolution, entry, log, JvmCacheReport.USED, null));
		return JavaCommand.withCache(current, resolution.jdk().useOptions(entry.dir(), log),
				(entry.launch() != null) ? entry.launchJar(current.jar()).toString() : null);
	}

	/**
	 * What the cache did for server {@code name} at its last start, once it is ready: whether
	 * the JVM took or refused it (its log), and how many of its classes came from a cache
	 * (its counters, when it runs on this host).
	 * @param name the server
	 * @param pid its JVM's process id, or -1 when unknown
	 * @param local whether it runs on this host (its counters can be read only then)
	 */
	public ServerCache observe(String name, long pid, boolean local) {
		Applied applied = this.applied.get(name);
		if (applied == null) {
			return notStarted(name);
		}
		Jdk jdk = applied.resolution().jdk();
		ServerCache cache = new ServerCache(name, applied.reason(), applied.detail(),
				(jdk != null) ? jdk.kind() : null, (jdk != null) ? jdk.describe() : null, -1, -1);
		if (applied.entry() != null) {
			JvmCacheLog said = JvmCacheLog.read(applied.log(), applied.entry().cache());
			if (said.refused()) {
				String why = (said.reason() != null) ? said.reason() : "see " + applied.log();
				CacheDirectory.refuse(applied.entry(), why);
				logger.warn("The JVM of '" + name + "' refused its cache " + applied.entry().cache() + ": " + why
						+ "; it started without it (its log: " + applied.log() + ")");
				cache = cache.refused(why);
			}
		}
		if (local && pid > 0 && jdk != null) {
			PerfCounters counters = PerfCounters.of(pid).orElse(null);
			// the pid must be that JVM's: the cache it was given is among its options
			boolean itsJvm = counters != null
					&& (applied.entry() == null || counters.vmArgs().contains(applied.entry().cache().toString()));
			if (itsJvm) {
				cache = cache.withClasses(counters.sharedClasses(), counters.loadedClasses());
			}
		}
		return cache;
	}

	/**
	 * The row of server {@code name} when it was not launched in the last start (its
	 * dependencies never let it, or its launcher failed), whatever an earlier start of it (a
	 * compare round) or its command's making got.
	 */
	public ServerCache notStarted(String name) {
		Jdk jdk = this.resolutions.getOrDefault(name, Resolution.without(JvmCacheReport.OFF, null)).jdk();
		return new ServerCache(name, JvmCacheReport.NOT_STARTED, "it was not launched", (jdk != null) ? jdk.kind() : null,
				(jdk != null) ? jdk.describe() : null, -1, -1);
	}

	/** The report of the last start: its servers' rows, this supervisor's trainings. */
	public JvmCacheReport report(List<ServerCache> servers) {
		return new JvmCacheReport(this.settings.mode(), this.directory.root().toString(), List.copyOf(this.trainings),
				servers, null);
	}

	/** Stop a training under way and run none after it: the supervisor is stopping. */
	public void stop() {
		this.training.stop();
	}

	/**
	 * Where caches live and how they are trained.
	 *
	 * @param mode the fleet's mode, for the report
	 * @param directory the cache directory
	 * @param maxBytes the directory's bound
	 * @param trainingTimeout how long one training step may run
	 */
	public record Settings(String mode, Path directory, long maxBytes, Duration trainingTimeout) {

	}

	/**
	 * One server of the fleet, as planned.
	 *
	 * @param name its name
	 * @param command its command, placeholders filled in
	 * @param workingDir its working directory, or {@code null} for the supervisor's
	 * @param env its own environment, over the supervisor's
	 * @param use whether it may start with its cache
	 * @param train whether it may be trained when it has no usable cache
	 */
	public record Server(String name, List<String> command, @Nullable Path workingDir, Map<String, String> env,
			boolean use, boolean train) {

		public Server {
			command = List.copyOf(command);
			env = Map.copyOf(env);
		}

	}

	/**
	 * A server's command, its key and what the directory holds for it.
	 *
	 * @param key its key, or {@code null} when it cannot have a cache
	 * @param jdk its JDK, when known
	 * @param lookup what the directory holds, or {@code null}
	 * @param reason why it has no usable cache, or {@code null} when it has one
	 * @param detail the words for the reason
	 */
	private record Resolution(@Nullable CacheKey key, @Nullable Jdk jdk, CacheDirectory.@Nullable Lookup lookup,
			@Nullable String reason, @Nullable String detail) {

		static Resolution without(String reason, @Nullable String detail) {
			return new Resolution(null, null, null, reason, detail);
		}

	}

	/**
	 * What one start of a server got.
	 *
	 * @param resolution its resolution
	 * @param entry the cache it was given, or {@code null}
	 * @param log where its JVM logs the cache, or {@code null}
	 * @param reason {@link JvmCacheReport#USED} or why not
	 * @param detail the words for the reason
	 */
	private record Applied(Resolution resolution, @Nullable CacheEntry entry, @Nullable Path log, String reason,
			@Nullable String detail) {

	}

}
