package io.github.startuptelemetry.launch.local;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.startuptelemetry.launch.LaunchRequest;
import io.github.startuptelemetry.launch.LaunchedServer;

import static org.assertj.core.api.Assertions.assertThat;

/** The {@code local} launcher stopping several servers at once, for real with {@code /bin/sh}. */
class LocalServerLauncherTest {

	@TempDir
	Path dir;

	@Test
	void stoppingSeveralServersAtOnceEndsEachOnesWholeTreeWithOneSignalEach() throws Exception {
		LocalServerLauncher launcher = new LocalServerLauncher();
		List<LaunchedServer> servers = new ArrayList<>();
		List<Path> children = new ArrayList<>();
		try {
			for (int i = 0; i < 3; i++) {
				Path child = this.dir.resolve("child-" + i);
				children.add(child);
				// a server that started a process of its own and waits for it
				servers.add(launcher.launch(new LaunchRequest("s-" + i, "s", i, 3,
						List.of("/bin/sh", "-c", "sleep 300 & echo $! > " + child + ".tmp; mv " + child + ".tmp " + child
								+ "; wait"),
						null, this.dir, Map.of(), this.dir.resolve("s-" + i + ".log"))));
			}
			List<ProcessHandle> started = new ArrayList<>();
			for (Path child : children) {
				started.add(ProcessHandle.of(Long.parseLong(awaitFile(child).strip())).orElseThrow());
			}
			List<ProcessHandle> guards = new ArrayList<>();
			servers.forEach((server) -> ProcessHandle.of(((ServerProcess) server).pid())
				.orElseThrow()
				.children()
				.filter(io.github.startuptelemetry.launch.internal.LaunchShell::isGuard)
				.forEach(guards::add));
			assertThat(guards).as("each server's guard").hasSize(3);

			launcher.terminate(servers);

			CompletableFuture.allOf(servers.stream().map(LaunchedServer::stopped).toArray(CompletableFuture[]::new))
				.get(30, TimeUnit.SECONDS);
			assertThat(servers).allSatisfy((server) -> assertThat(server.onExit().get(10, TimeUnit.SECONDS).code())
				.as("ended by SIGTERM").isEqualTo(128 + 15));
			for (ProcessHandle process : started) {
				assertThat(awaitEnded(process)).as("the child %d of a server", process.pid()).isTrue();
			}
			for (ProcessHandle guard : guards) {
				assertThat(awaitEnded(guard)).as("guard %d, ending with its server", guard.pid()).isTrue();
			}
			assertThat(launcher.kill(servers)).as("nothing left to kill").isEmpty();
		}
		finally {
			servers.forEach((server) -> ProcessHandle.of(((ServerProcess) server).pid())
				.ifPresent((process) -> process.descendants().forEach(ProcessHandle::destroyForcibly)));
			servers.forEach(LaunchedServer::kill);
		}
	}

	private static String awaitFile(Path file) throws Exception {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		while (!Files.exists(file) && System.nanoTime() < deadline) {
			// written by the server once it started its child: polled, bounded by the deadline
			TimeUnit.MILLISECONDS.sleep(20);
		}
		return Files.readString(file);
	}

	private static boolean awaitEnded(ProcessHandle process) throws Exception {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (System.nanoTime() < deadline) {
			if (LaunchShellTest.ended(process)) {
				return true;
			}
			process.onExit().completeOnTimeout(process, 20, TimeUnit.MILLISECONDS).join();
		}
		return false;
	}

}
