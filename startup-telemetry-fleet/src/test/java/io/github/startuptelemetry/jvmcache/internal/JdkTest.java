package io.github.startuptelemetry.jvmcache.internal;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;

/** Which JDK a {@code java} binary is, and the cache it supports. */
class JdkTest {

	@Test
	void thisJvmsBinaryReadsAsThisJvm() throws Exception {
		Jdk jdk = Jdk.of(Path.of(System.getProperty("java.home"), "bin", "java"));

		assertThat(jdk.runtimeVersion()).isEqualTo(System.getProperty("java.runtime.version"));
		assertThat(jdk.feature()).isEqualTo(Runtime.version().feature());
		assertThat(jdk.vendor()).isNotBlank();
		assertThat(jdk.java()).isEqualTo(Path.of(System.getProperty("java.home"), "bin", "java").toRealPath());
	}

	@Test
	void aBinaryWithoutAReleaseFileIsAskedForItsVersion(@TempDir Path tmp) throws Exception {
		Path bin = Files.createDirectories(tmp.resolve("jdk/bin"));
		Path java = Files.writeString(bin.resolve("java"), """
				#!/bin/sh
				echo "Property settings:"
				echo "    java.runtime.version = 21.0.4+7-LTS"
				echo "    java.vendor = Example Corp"
				echo 'openjdk version "21.0.4"'
				""");
		java.toFile().setExecutable(true);

		Jdk jdk = Jdk.of(java);

		assertThat(jdk.runtimeVersion()).isEqualTo("21.0.4+7-LTS");
		assertThat(jdk.vendor()).isEqualTo("Example Corp");
		assertThat(jdk.kind()).isEqualTo("appcds");
		Files.writeString(java, "#!/bin/sh\necho nothing\n");
		assertThatIOException().isThrownBy(() -> Jdk.of(java)).withMessageContaining("did not say its version");
	}

	@Test
	void jdk25TrainsInOneStartJdk24InTwoAndOlderOnesAnAppCdsArchive() {
		Path entry = Path.of("/c/e");
		assertThat(jdk(25).trainingOptions(entry))
			.containsExactly(List.of("-XX:AOTCacheOutput=/c/e/app.aot", "-Dspring.context.exit=onRefresh"));
		assertThat(jdk(24).trainingOptions(entry)).containsExactly(
				List.of("-XX:AOTMode=record", "-XX:AOTConfiguration=/c/e/app.aotconf", "-Dspring.context.exit=onRefresh"),
				List.of("-XX:AOTMode=create", "-XX:AOTConfiguration=/c/e/app.aotconf", "-XX:AOTCache=/c/e/app.aot"));
		assertThat(jdk(17).trainingOptions(entry))
			.containsExactly(List.of("-XX:ArchiveClassesAtExit=/c/e/app.jsa", "-Dspring.context.exit=onRefresh"));
		assertThat(jdk(11).kind()).isNull();
		assertThat(jdk(11).problem()).contains("JDK 11 has no dynamic AppCDS archive");
	}

	@Test
	void aServerUsesItsCacheAndLogsWhatTheJvmSaysOfItUnderTheTagOfItsJdk() {
		Path log = Path.of("/run/model-0.jvm-cache.log");
		assertThat(jdk(25).useOptions(Path.of("/c/e"), log)).containsExactly("-XX:AOTCache=/c/e/app.aot",
				"-Xlog:aot=info:file=\"/run/model-0.jvm-cache.log\"::filecount=0");
		assertThat(jdk(24).useOptions(Path.of("/c/e"), log)).containsExactly("-XX:AOTCache=/c/e/app.aot",
				"-Xlog:cds=info:file=\"/run/model-0.jvm-cache.log\"::filecount=0");
		assertThat(jdk(17).useOptions(Path.of("/c/e"), log)).containsExactly("-XX:SharedArchiveFile=/c/e/app.jsa",
				"-Xlog:cds=info:file=\"/run/model-0.jvm-cache.log\"::filecount=0");
	}

	@Test
	void theFeatureReleaseIsTheVersionsFirstNumber() {
		assertThat(Jdk.feature("25.0.3+9-LTS")).isEqualTo(25);
		assertThat(Jdk.feature("17.0.15+6-Debian-1deb12u1")).isEqualTo(17);
		assertThat(Jdk.feature("1.8.0_392-b08")).isEqualTo(8);
		assertThat(Jdk.feature("26-ea+3")).isEqualTo(26);
		assertThat(Jdk.feature("x")).isZero();
	}

	private static Jdk jdk(int feature) {
		return new Jdk(Path.of("/jdk/bin/java"), feature + ".0.1+1", "Test", feature);
	}

}
