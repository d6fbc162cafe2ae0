package io.github.startuptelemetry.testcontexts.internal;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** Where a test run's report goes: Maven's target/, Gradle's build/, or where a property says. */
class ReportDirectoryTest {

	@TempDir
	Path module;

	@Test
	void aSurefireForkWritesUnderItsBasedirsTarget() {
		assertThat(resolve(Map.of("basedir", "/work/m"))).isEqualTo(Path.of("/work/m/target"));
	}

	@Test
	void aGradleWorkerWritesUnderBuild() {
		assertThat(resolve(Map.of("org.gradle.test.worker", "3"))).isEqualTo(this.module.resolve("build"));
	}

	@Test
	void withoutEitherThePomOrItsAbsenceDecides() throws Exception {
		assertThat(resolve(Map.of())).isEqualTo(this.module.resolve("build"));
		Files.writeString(this.module.resolve("pom.xml"), "<project/>");
		assertThat(resolve(Map.of())).isEqualTo(this.module.resolve("target"));
	}

	@Test
	void thePropertyWinsRelativeToTheWorkingDirectory() {
		assertThat(resolve(Map.of(ReportDirectory.DIRECTORY_PROPERTY, "reports/tests", "basedir", "/work/m")))
			.isEqualTo(this.module.resolve("reports/tests"));
	}

	@Test
	void aRunIsItsBuildToolsJvmOrThisOne() {
		assertThat(ReportDirectory.runId()).matches("\\d+-\\d+");
	}

	private Path resolve(Map<String, String> properties) {
		return ReportDirectory.resolve(properties::get, this.module);
	}

}
