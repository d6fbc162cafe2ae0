package io.github.startuptelemetry.fleet;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.startuptelemetry.launch.LaunchRequest;
import io.github.startuptelemetry.launch.LaunchedServer;
import io.github.startuptelemetry.launch.ServerLauncher;
import io.github.startuptelemetry.report.StartupReport;
import io.github.startuptelemetry.supervisor.DisabledSupervisorStartup;
import io.github.startuptelemetry.supervisor.SupervisorStartup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * A {@link FleetRun} through a launcher of the test's own (the SPI a user implements), whose
 * servers exit when the test or a stop says so: what the run waits for once its verdict is in.
 */
class FleetRunTest {

	/** Only a guard against a run that hangs: what it guards takes milliseconds, the hang hours. */
	private static final Duration HANG = Duration.ofSeconds(60);

	@TempDir
	Path tmp;

	private final Jobs launcher = new Jobs();

	@Test
	void aFailedStartupDoesNotWaitForAOneShotJobStillRunningBeforeItReportsAndStopsIt() {
		// a probe timeout of an hour: were the run to wait for the job's "timeline fetch", it would hang for two
		SupervisorProperties properties = fleet(job("migrate"), job("broken"));
		properties.getProbe().setTimeout(Duration.ofHours(1));
		this.launcher.exitAtOnce.put("broken", 3);
		FleetRun run = new FleetRun(properties, new DisabledSupervisorStartup(), new Launchers(List.of(this.launcher),
				properties), new AtomicInteger(20000)::incrementAndGet, null);
		try {
			FleetStartupException failure = assertTimeoutPreemptively(HANG,
					() -> assertThatExceptionOfType(FleetStartupException.class).isThrownBy(run::launch).actual());

			assertThat(failure.outcome()).isEqualTo("crashed");
			assertThat(failure.getMessage()).contains("Server 'broken' exited with code 3");
			assertThat(this.launcher.started.get("migrate").terminated).as("the job still running was stopped").isTrue();
		}
		finally {
			run.stop();
		}
	}

	@Test
	void aFleetNotReadyAtTheTimeoutSaysSoOnceInBoundedWordsAndEachServerItsOwnReason() {
		int replicas = 2000;
		SupervisorProperties.Server server = new SupervisorProperties.Server();
		server.setName("model");
		server.setCommand(List.of("model", "{port}"));
		server.setReplicas(replicas);
		SupervisorProperties properties = fleet(server);
		properties.setReadyTimeout(Duration.ofSeconds(1));
		// port 0: each would bind its own and say so in its callback, so nothing on this host is probed
		properties.getProbe().setTimeout(Duration.ofMillis(50));
		Reasons startup = new Reasons();
		FleetRun run = new FleetRun(properties, startup, new Launchers(List.of(this.launcher), properties), () -> 0,
				null);
		try {
			FleetStartupException failure = assertTimeoutPreemptively(HANG,
					() -> assertThatExceptionOfType(FleetStartupException.class).isThrownBy(run::launch).actual());

			assertThat(failure.outcome()).isEqualTo("timeout");
			assertThat(failure.getMessage()).startsWith("Not ready after 1000 ms: 2000 servers: model-0 (log ")
				.contains("model-9 (log ")
				.doesNotContain("model-10 ")
				.endsWith(" and 1990 more (each one's span and the report name them all)")
				.hasSizeLessThan(4096);
			assertThat(startup.aborted).isSameAs(failure);
			assertThat(startup.reasons).hasSize(replicas);
			assertThat(startup.reasons.get("model-1999")).startsWith("not ready after 1000 ms; last lines of ")
				.contains("model-1999.log");
			assertThat(startup.reasons.values()).allSatisfy((reason) -> assertThat(reason).hasSizeLessThan(4096));
		}
		finally {
			run.stop();
		}
	}

	@Test
	void aFleetStoppedBeforeItIsReadySaysSoOnEachServersSpan() throws Exception {
		int replicas = 300;
		SupervisorProperties.Server server = new SupervisorProperties.Server();
		server.setName("model");
		server.setCommand(List.of("model"));
		server.setReplicas(replicas);
		SupervisorProperties properties = fleet(server);
		properties.getProbe().setTimeout(Duration.ofMillis(50));
		Reasons startup = new Reasons();
		FleetRun run = new FleetRun(properties, startup, new Launchers(List.of(this.launcher), properties), () -> 0,
				null);
		CompletableFuture<Boolean> launched = CompletableFuture.supplyAsync(run::launch);
		assertTimeoutPreemptively(HANG, () -> {
			// every server launched (then the stop comes while they start)
			while (this.launcher.started.size() < replicas) {
				Thread.onSpinWait();
			}
			run.stop();
			assertThat(launched.get()).as("a stopped run").isFalse();
		});

		assertThat(startup.aborted).isInstanceOfSatisfying(FleetStartupException.class, (failure) -> {
			assertThat(failure.outcome()).isEqualTo("interrupted");
			assertThat(failure.getMessage()).startsWith("The supervisor was stopped before all servers were ready: "
					+ replicas + " servers: model-0 (log ").hasSizeLessThan(4096);
		});
		assertThat(startup.reasons).hasSize(replicas)
			.allSatisfy((name, reason) -> assertThat(reason).startsWith("not ready when the supervisor was stopped; "));
	}

	private SupervisorProperties fleet(SupervisorProperties.Server... servers) {
		SupervisorProperties properties = new SupervisorProperties();
		properties.setServers(List.of(servers));
		properties.setLauncher(this.launcher.name());
		properties.setRunDir(this.tmp.resolve("run"));
		properties.getCallback().setEnabled(false);
		properties.getReport().setHtml(this.tmp.resolve("startup-report.html"));
		properties.getReport().setJson(this.tmp.resolve("startup-report.json"));
		return properties;
	}

	private static SupervisorProperties.Server job(String name) {
		SupervisorProperties.Server server = new SupervisorProperties.Server();
		server.setName(name);
		server.setCommand(List.of(name));
		server.setOneShot(true);
		return server;
	}

	/** A startup that keeps what the run said of each server not ready, and what aborted it. */
	private static final class Reasons implements SupervisorStartup {

		final Map<String, String> reasons = new ConcurrentHashMap<>();

		volatile Throwable aborted;

		@Override
		public void beginTrace() {
		}

		@Override
		public void mark(String stage) {
		}

		@Override
		public Map<String, String> serverEnv(String name, String type, int rank, int worldSize) {
			return new HashMap<>();
		}

		@Override
		public void serverNotReady(String name, String reason) {
			this.reasons.put(name, reason);
		}

		@Override
		public void serverReady(String name) {
		}

		@Override
		public void finish() {
		}

		@Override
		public void abort(String outcome, Throwable error) {
			this.aborted = error;
		}

		@Override
		public Optional<StartupReport> report() {
			return Optional.empty();
		}

	}

	/** Starts nothing: a server exits when told at launch, or once stopped. */
	private static final class Jobs implements ServerLauncher {

		/** Servers that exit as soon as they are launched, with this code. */
		final Map<String, Integer> exitAtOnce = new ConcurrentHashMap<>();

		final Map<String, Job> started = new ConcurrentHashMap<>();

		@Override
		public String name() {
			return "test-jobs";
		}

		@Override
		public LaunchedServer launch(LaunchRequest request) {
			Job job = new Job(request.log());
			this.started.put(request.name(), job);
			Integer code = this.exitAtOnce.get(request.name());
			if (code != null) {
				job.exit.complete(LaunchedServer.ServerExit.ofCode(code));
			}
			return job;
		}

	}

	private static final class Job implements LaunchedServer {

		final CompletableFuture<ServerExit> exit = new CompletableFuture<>();

		private final Path log;

		volatile boolean terminated;

		Job(Path log) {
			this.log = log;
		}

		@Override
		public String describe() {
			return "test job";
		}

		@Override
		public CompletableFuture<String> host() {
			return CompletableFuture.completedFuture("127.0.0.1");
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
		public void terminate() {
			this.terminated = true;
			this.exit.complete(new ServerExit(143, "was terminated"));
		}

		@Override
		public CompletableFuture<Void> stopped() {
			return this.exit.thenApply((exit) -> null);
		}

		@Override
		public List<String> kill() {
			terminate();
			return List.of(describe());
		}

	}

}
