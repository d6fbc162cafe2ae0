package io.github.startuptelemetry.it.zipkin;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.startuptelemetry.it.support.ClassLoadLog;
import io.github.startuptelemetry.it.support.Fleets;
import io.github.startuptelemetry.it.support.JavaProcess;
import io.github.startuptelemetry.it.support.Ports;
import io.github.startuptelemetry.it.support.SampleJars;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Zipkin is opt-in: the starter brings no Zipkin jar. The startup benchmark's app has the
 * starter and nothing else, so it is an application that did not opt in; given
 * {@code telemetry.export.zipkin.endpoint} it starts as always, loads no Zipkin class, and as a
 * supervisor still passes the endpoint on to its servers (it is only a property). Exporting to a
 * real Zipkin once the jar is added is {@link ZipkinExportProcessTest}.
 */
class ZipkinOptInProcessTest {

	private static final Duration TIMEOUT = Duration.ofSeconds(120);

	private static final String ENDPOINT = "http://127.0.0.1:9/api/v2/spans";

	@TempDir
	Path tmp;

	@Test
	void withoutTheZipkinJarTheEndpointIsIgnoredQuietlyAndNoZipkinClassLoads() throws Exception {
		Path classes = this.tmp.resolve("classes.log");
		try (JavaProcess app = JavaProcess.jar(SampleJars.startupApp())
			.jvmArgs(ClassLoadLog.jvmArg(classes))
			.args("--server.port=" + Ports.free(), "--telemetry.export.zipkin.endpoint=" + ENDPOINT)
			.start(this.tmp.resolve("app.log"))) {
			app.awaitLog("Startup of 'startup-app'", TIMEOUT);
			assertThat(app.log()).doesNotContainIgnoringCase("zipkin").doesNotContain("ERROR");
		}
		ClassLoadLog log = ClassLoadLog.read(classes);
		assertThat(log.inPackage("io.opentelemetry.exporter.zipkin.")).isEmpty();
		assertThat(log.inPackage("zipkin2.")).isEmpty();
		assertThat(log.inPackage("io.github.startuptelemetry.lifecycle.ZipkinExportAutoConfiguration")).isEmpty();
	}

	@Test
	void aSupervisorWithoutTheZipkinJarStillPassesTheEndpointOn() throws Exception {
		Path env = this.tmp.resolve("server.env");
		try (JavaProcess supervisor = JavaProcess.jar(SampleJars.startupAppSupervisor())
			.args("--server.port=" + Ports.free(), "--telemetry.export.zipkin.endpoint=" + ENDPOINT,
					"--telemetry.supervisor.run-dir=" + this.tmp.resolve("run"),
					"--telemetry.supervisor.report.html=" + this.tmp.resolve("report.html"),
					"--telemetry.supervisor.report.json=" + this.tmp.resolve("report.json"))
			.args(Fleets.envDump(env))
			.start(this.tmp.resolve("supervisor.log"))) {
			supervisor.awaitFile(env, TIMEOUT);
			assertThat(Files.readAllLines(env)).contains("TELEMETRY_EXPORT_ZIPKIN_ENDPOINT=" + ENDPOINT);
		}
	}

}
