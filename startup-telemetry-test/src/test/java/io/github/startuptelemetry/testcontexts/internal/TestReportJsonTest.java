package io.github.startuptelemetry.testcontexts.internal;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.report.gate.ReportTimes;

/**
 * The test report's JSON both ways, a run's JVMs merged (a configuration another fork created
 * first marked so), and the files each JVM's end leaves: its part, the run's merge, the page.
 */
class TestReportJsonTest {

	@TempDir
	Path directory;

	@Test
	void aJvmsPartReadsBackAsItWasWritten() {
		TestReport report = Reports.jvm(100, 0);
		TestReport read = TestReportJson.read(TestReportJson.render(report));
		assertThat(read).isEqualTo(report);
	}

	@Test
	void theGateReadsTheDocumentContextByContext() {
		List<ReportTimes.ServerTimes> times = ReportTimes.readTimes(TestReportJson.render(Reports.jvm(100, 0)));
		assertThat(times).extracting(ReportTimes.ServerTimes::name).containsExactly(Reports.BASE, Reports.MOCKED);
		assertThat(times.get(0).units().get(0).wallMs()).isEqualTo(2600.0);
		assertThat(times.get(0).beans()).containsEntry("catalogue", 60.0);
	}

	@Test
	void forksAreMergedInTheOrderTheirContextsStartedAndADuplicateIsMarked() {
		TestReport merged = TestReport.merge(List.of(Reports.jvm(200, 500), Reports.jvm(100, 0)));
		assertThat(merged.jvms()).extracting(TestJvm::pid).containsExactly(100L, 200L);
		assertThat(merged.contexts()).extracting(TestContextReport::pid).containsExactly(100L, 200L, 100L, 200L);
		TestContextReport duplicate = merged.contexts().get(1);
		assertThat(duplicate.name()).isEqualTo(Reports.BASE);
		assertThat(duplicate.why().otherJvm()).isEqualTo(100L);
		assertThat(merged.causes().get(0).text()).isEqualTo("created in another test JVM too (forks share no context cache)");
		assertThat(merged.causes()).extracting(TestReport.Cause::text)
			.contains("bean overrides: + @MockitoBean GreetingService (field greetings)");
	}

	@Test
	void eachJvmsEndLeavesItsPartAndTheRunsMerge() throws Exception {
		ByteArrayOutputStream console = new ByteArrayOutputStream();
		PrintStream out = new PrintStream(console, true, StandardCharsets.UTF_8);
		TestReportFiles.finish(Reports.jvm(100, 0), this.directory, out);
		TestReport merged = TestReportFiles.finish(Reports.jvm(200, 500), this.directory, out);
		assertThat(merged.jvms()).hasSize(2);
		TestReport file = TestReportJson.read(Files.readString(this.directory.resolve("startup-test-report.json")));
		assertThat(file.contexts()).hasSize(4);
		assertThat(this.directory.resolve("startup-test-report.html")).content().contains("4 test contexts");
		assertThat(this.directory.resolve("startup-test-report/42-1")).isDirectoryContaining("glob:**/100.json")
			.isDirectoryContaining("glob:**/200.json");
		assertThat(console.toString(StandardCharsets.UTF_8))
			.contains("[startup-telemetry] Test contexts: 2 created in this JVM (pid 100)")
			.contains("the run's 2 test JVMs so far");
		// a later run starts afresh: the earlier run's parts are gone
		TestReport next = Reports.jvm(300, 0);
		next = new TestReport("43-1", next.host(), next.jvms(), next.contexts());
		assertThat(TestReportFiles.finish(next, this.directory, out).jvms()).extracting(TestJvm::pid).containsExactly(300L);
		assertThat(this.directory.resolve("startup-test-report/42-1")).doesNotExist();
	}

	@Test
	void aMergeHeldByAnotherForkIsWaitedForABoundedTimeThenLeftToIt() throws Exception {
		ByteArrayOutputStream console = new ByteArrayOutputStream();
		PrintStream out = new PrintStream(console, true, StandardCharsets.UTF_8);
		Path lockFile = Files.createDirectories(this.directory.resolve("startup-test-report")).resolve(".lock");
		try (FileChannel other = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
				FileLock held = other.lock()) {
			assertThat(TestReportFiles.finish(Reports.jvm(100, 0), this.directory, out, Duration.ofMillis(50)).jvms())
				.extracting(TestJvm::pid)
				.containsExactly(100L);
		}
		assertThat(this.directory.resolve("startup-test-report/42-1")).isDirectoryContaining("glob:**/100.json");
		assertThat(this.directory.resolve("startup-test-report.json")).doesNotExist();
		assertThat(console.toString(StandardCharsets.UTF_8)).contains("another test JVM held")
			.contains("this JVM's part is in");
	}

}
