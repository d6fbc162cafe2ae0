package io.github.startuptelemetry.report.internal;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.internal.JsonText;
import io.github.startuptelemetry.report.JsonReport;
import io.github.startuptelemetry.report.ServerReport;
import io.github.startuptelemetry.report.StartupReport;
import io.github.startuptelemetry.timeline.Stage;

/** Writing a report file never fails the supervisor. */
@ExtendWith(OutputCaptureExtension.class)
class ReportFileTest {

	private static final long T0 = 1_700_000_000_000_000_000L;

	private static final StartupReport REPORT = new StartupReport("abc", T0, T0 + 2_000_000_000L, "ready", null,
			List.of(new Stage("wait_for_servers", T0, T0 + 2_000_000_000L)),
			List.of(ServerReport.of("model-0", "model", T0, T0 + 2_000_000_000L, "ready")));

	/** A page as a renderer of the fleet's would make it. */
	private static ReportFile html(Path file) {
		return ReportFile.of(file, "HTML startup report",
				(report) -> "<!DOCTYPE html><p>" + report.servers().get(0).name() + "</p>");
	}

	@TempDir
	Path tmp;

	@Test
	void writesThePageCreatingItsDirectoryAndReturnsItsAbsolutePath() throws Exception {
		Path file = this.tmp.resolve("reports/run 1/startup-report.html");

		assertThat(html(file).write(REPORT)).contains(file.toAbsolutePath());
		assertThat(Files.readString(file)).startsWith("<!DOCTYPE html>").contains("model-0");
	}

	@Test
	void aPathThatCannotBeWrittenIsAWarningNamingIt(CapturedOutput output) throws Exception {
		Path notADirectory = Files.writeString(this.tmp.resolve("plain-file"), "x");
		Path file = notADirectory.resolve("startup-report.html");

		assertThat(html(file).write(REPORT)).isEmpty();
		assertThat(output).contains("Could not write the HTML startup report to " + file);
	}

	@Test
	void theJsonDocumentBesideIt() throws Exception {
		Path file = this.tmp.resolve("startup-report.json");

		assertThat(ReportFile.json(file).write(REPORT)).contains(file.toAbsolutePath());
		assertThat(Files.readString(file)).startsWith("{\n  \"schemaVersion\": 1,\n  \"kind\": \"fleet\"");
		Map<String, Object> document = JsonText.parseObject(Files.readString(file));
		assertThat((List<?>) document.get("servers")).singleElement()
			.satisfies((server) -> assertThat(((Map<?, ?>) server).get("spawnToReadyMs")).isEqualTo(2000.0));
	}

	@Test
	void noPathNoFile() {
		assertThat(html(null).write(REPORT)).isEmpty();
	}

}
