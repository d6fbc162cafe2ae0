package io.github.startuptelemetry.it.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.startuptelemetry.contract.ReadinessCallback;
import io.github.startuptelemetry.contract.StageNames;
import io.github.startuptelemetry.contract.StartupEnv;
import io.github.startuptelemetry.contract.TelemetryEnv;
import io.github.startuptelemetry.internal.Http11;
import io.github.startuptelemetry.internal.JsonText;
import io.github.startuptelemetry.launch.LaunchRequest;
import io.github.startuptelemetry.launch.LaunchedServer;
import io.github.startuptelemetry.launch.ServerLauncher;
import io.github.startuptelemetry.timeline.ServerTimeline;
import io.github.startuptelemetry.timeline.Stage;
import io.github.startuptelemetry.timeline.internal.ReadyCallback;
import io.github.startuptelemetry.timeline.internal.WallClock;

/**
 * A {@link ServerLauncher} ({@value #NAME}) whose servers are not processes: each, once launched,
 * asks its supervisor's readiness callback for the clock, as a server with the starter does early
 * in its startup, and after a synthetic startup posts its ready callback with a synthetic timeline,
 * both over real HTTP (a connection each, as a server's own) from a bounded pool of threads; a
 * server never ready only asks for the clock. So the supervisor's whole path (callback server,
 * run, spans, report) runs at fleet sizes no box could spawn as processes. What the calls met is
 * counted ({@link #summary()}).
 */
public final class SimulatedLauncher implements ServerLauncher, AutoCloseable {

	public static final String NAME = "simulated";

	/** What {@link #summary()}'s line starts with. */
	public static final String SUMMARY = "Simulated servers:";

	/** Connect and read timeouts, the starter's own: a call slower than this a real server gives up. */
	static final int TIMEOUT_MS = 1000;

	/** A simulated server tries its ready call this often, where a real one would fall back to the probe. */
	static final int ATTEMPTS = 3;

	private static final List<String> STAGES = List.of(StageNames.INTERPRETER_START, StageNames.MAIN_START,
			StageNames.ENVIRONMENT_PREPARED, StageNames.CONTEXT_PREPARED, StageNames.BEANS_INSTANTIATED,
			StageNames.WEB_SERVER_STARTED, StageNames.CONTEXT_REFRESHED, StageNames.APPLICATION_STARTED,
			StageNames.APPLICATION_READY);

	private final ScheduledThreadPoolExecutor posters;

	private final List<Thread> posterThreads = new CopyOnWriteArrayList<>();

	private final Duration startup;

	private final boolean ready;

	private final AtomicInteger launched = new AtomicInteger();

	private final Calls clock = new Calls();

	private final Calls readyCalls = new Calls();

	/**
	 * @param posters how many calls may be under way at once (the pool's threads)
	 * @param startup how long after its launch each server posts its ready callback
	 * @param ready whether the servers ever become ready
	 */
	public SimulatedLauncher(int posters, Duration startup, boolean ready) {
		AtomicInteger count = new AtomicInteger();
		this.posters = new ScheduledThreadPoolExecutor(posters, (task) -> {
			Thread thread = new Thread(task, "sim-server-" + count.incrementAndGet());
			thread.setDaemon(true);
			this.posterThreads.add(thread);
			return thread;
		});
		this.posters.setRemoveOnCancelPolicy(true);
		this.startup = startup;
		this.ready = ready;
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public LaunchedServer launch(LaunchRequest request) {
		this.launched.incrementAndGet();
		SimulatedServer server = new SimulatedServer(request);
		this.posters.execute(server::askClock);
		if (this.ready) {
			server.readyCall = this.posters.schedule(server::callReady, this.startup.toNanos(), TimeUnit.NANOSECONDS);
		}
		return server;
	}

	/**
	 * One line: servers launched; per kind of call, those answered, the attempts that failed (an
	 * error, a timeout, a refusal) and, for the ready call, the servers whose every attempt did;
	 * the answered calls' latency (p50, p99, max); the CPU the pool's threads used (this JVM's
	 * work for the simulation, not the supervisor's).
	 */
	public String summary() {
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		long cpuNs = 0;
		for (Thread thread : this.posterThreads) {
			long ns = threads.getThreadCpuTime(thread.getId());
			cpuNs += Math.max(0, ns);
		}
		return String.format(Locale.ROOT, "%s launched=%d %s %s posters.cpuMs=%.0f", SUMMARY, this.launched.get(),
				this.clock.summary("clock."), this.readyCalls.summary("ready."), cpuNs / 1e6);
	}

	/** Print the summary (the supervisor's log has it) and stop the pool. */
	@Override
	public void close() {
		System.out.println(summary());
		this.posters.shutdownNow();
	}

	/** The planned port, the last argument of its command that is one; 0 without. */
	private static int port(LaunchRequest request) {
		List<String> command = request.command();
		for (int i = command.size() - 1; i >= 0; i--) {
			if (command.get(i).matches("\\d{1,5}") && Integer.parseInt(command.get(i)) <= 65535) {
				return Integer.parseInt(command.get(i));
			}
		}
		return 0;
	}

	/** A synthetic timeline: its stages evenly from its spawn to now. */
	private static ServerTimeline timeline(LaunchRequest request, long spawnNs, long readyNs) {
		List<Stage> stages = new ArrayList<>();
		long step = Math.max(0, readyNs - spawnNs) / STAGES.size();
		for (int i = 0; i < STAGES.size(); i++) {
			long start = spawnNs + i * step;
			stages.add(new Stage(STAGES.get(i), start, (i == STAGES.size() - 1) ? readyNs : start + step));
		}
		return new ServerTimeline(request.name(), request.type(), false, ProcessHandle.current().pid(), null, null,
				spawnNs, readyNs, stages, List.of(), List.of());
	}

	/** One call to the supervisor's callback endpoint: its HTTP status, or -1 when it failed. */
	private static int call(URI base, String token, String method, String target, byte[] body) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(base.getHost(), base.getPort()), TIMEOUT_MS);
			socket.setSoTimeout(TIMEOUT_MS);
			String headers = Http11.header(ReadinessCallback.AUTHORIZATION, ReadinessCallback.BEARER + token)
					+ ((body.length > 0) ? Http11.header("Content-Type", "application/json")
							+ Http11.header("Content-Length", Integer.toString(body.length)) : "");
			OutputStream out = socket.getOutputStream();
			out.write(Http11.requestHead(method, target, Http11.host(base), headers));
			out.write(body);
			out.flush();
			InputStream in = socket.getInputStream();
			byte[] answer = in.readNBytes(64);
			return Http11.status(answer, answer.length);
		}
		catch (IOException ex) {
			return -1;
		}
	}

	/** A simulated server: its calls, and an exit that comes only when it is stopped. */
	private final class SimulatedServer implements LaunchedServer {

		private final LaunchRequest request;

		private final URI callback;

		private final String token;

		private final long spawnNs;

		private final CompletableFuture<ServerExit> exit = new CompletableFuture<>();

		private volatile ScheduledFuture<?> readyCall;

		SimulatedServer(LaunchRequest request) {
			this.request = request;
			Map<String, String> env = request.env();
			String url = env.get(TelemetryEnv.TELEMETRY_SUPERVISOR_CALLBACK_URL);
			this.callback = (url != null) ? URI.create(url) : null;
			this.token = env.getOrDefault(TelemetryEnv.TELEMETRY_SUPERVISOR_CALLBACK_TOKEN, "");
			String spawn = env.get(StartupEnv.SPAWN_NS);
			this.spawnNs = (spawn != null) ? Long.parseLong(spawn) : WallClock.nowNs();
		}

		void askClock() {
			if (this.callback == null || this.exit.isDone()) {
				return;
			}
			String target = ReadinessCallback.CLOCK_PATH + "?" + ReadinessCallback.SERVER_PARAM + "="
					+ URLEncoder.encode(this.request.name(), StandardCharsets.UTF_8);
			long start = System.nanoTime();
			int status = call(this.callback, this.token, "GET", target, new byte[0]);
			SimulatedLauncher.this.clock.record(status == 200, System.nanoTime() - start);
		}

		void callReady() {
			if (this.callback == null) {
				SimulatedLauncher.this.readyCalls.lost();
				return;
			}
			long readyNs = WallClock.nowNs();
			byte[] body = JsonText
				.compact(new ReadyCallback(this.request.name(), ProcessHandle.current().pid(), "simulated",
						port(this.request), readyNs, null, timeline(this.request, this.spawnNs, readyNs)).write())
				.getBytes(StandardCharsets.UTF_8);
			for (int attempt = 1; attempt <= ATTEMPTS && !this.exit.isDone(); attempt++) {
				long start = System.nanoTime();
				int status = call(this.callback, this.token, "POST", ReadinessCallback.READY_PATH, body);
				// a 409 after a failed attempt: that one arrived after all
				boolean accepted = status == 204 || (attempt > 1 && status == 409);
				SimulatedLauncher.this.readyCalls.record(accepted, System.nanoTime() - start);
				if (accepted) {
					return;
				}
			}
			SimulatedLauncher.this.readyCalls.lost();
		}

		@Override
		public String describe() {
			return NAME;
		}

		@Override
		public CompletableFuture<String> host() {
			return CompletableFuture.completedFuture("127.0.0.1");
		}

		@Override
		public CompletableFuture<ServerExit> onExit() {
			return this.exit.copy();
		}

		@Override
		public Path log() {
			return this.request.log();
		}

		@Override
		public String logTail(int lines) {
			return "(a simulated server: no output)";
		}

		@Override
		public void terminate() {
			ScheduledFuture<?> call = this.readyCall;
			if (call != null) {
				call.cancel(false);
			}
			this.exit.complete(new ServerExit(143, "stopped (simulated)"));
		}

		@Override
		public CompletableFuture<Void> stopped() {
			return this.exit.thenApply((exit) -> null);
		}

		@Override
		public List<String> kill() {
			this.exit.complete(new ServerExit(137, "killed (simulated)"));
			return List.of();
		}

	}

	/** What one kind of call met: answered, failed attempts, servers that gave up, latencies. */
	private static final class Calls {

		private final List<Long> answeredNs = new ArrayList<>();

		private int failed;

		private int lost;

		synchronized void record(boolean answered, long ns) {
			if (answered) {
				this.answeredNs.add(ns);
			}
			else {
				this.failed++;
			}
		}

		synchronized void lost() {
			this.lost++;
		}

		/** {@code key=value} pairs, each key with {@code prefix}. */
		synchronized String summary(String prefix) {
			long[] sorted = this.answeredNs.stream().mapToLong(Long::longValue).sorted().toArray();
			return String.format(Locale.ROOT, "%1$sok=%2$d %1$sfailed=%3$d %1$slost=%4$d %1$sp50Ms=%5$.2f %1$sp99Ms=%6$.2f "
					+ "%1$smaxMs=%7$.2f", prefix, sorted.length, this.failed, this.lost, percentileMs(sorted, 50),
					percentileMs(sorted, 99), percentileMs(sorted, 100));
		}

		private static double percentileMs(long[] sorted, double p) {
			if (sorted.length == 0) {
				return Double.NaN;
			}
			int rank = (int) Math.ceil(p / 100 * sorted.length);
			return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)] / 1e6;
		}

	}

}
