package io.github.startuptelemetry.jvmcache.internal;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** Reading a server's command as the {@code java} launcher does. */
class JavaCommandTest {

	@Test
	void aJarLaunchSplitsIntoTheJvmsOptionsTheJarAndTheApplicationsArguments() {
		JavaCommand command = JavaCommand.parse(List.of("/opt/jdk/bin/java", "-XX:TieredStopAtLevel=1",
				"-Dserver.port=1", "--add-opens", "java.base/java.lang=ALL-UNNAMED", "-jar", "app.jar",
				"--server.port=2", "-jar"));

		assertThat(command.problem()).isNull();
		assertThat(command.jar()).isEqualTo("app.jar");
		assertThat(command.options()).containsExactly("-XX:TieredStopAtLevel=1", "-Dserver.port=1", "--add-opens",
				"java.base/java.lang=ALL-UNNAMED");
		assertThat(command.arguments()).containsExactly("--server.port=2", "-jar");
		// system properties change what an application loads, not whether a JVM takes a cache
		assertThat(command.keyOptions()).containsExactly("-XX:TieredStopAtLevel=1", "--add-opens",
				"java.base/java.lang=ALL-UNNAMED");
	}

	@Test
	void aClassPathLaunchNamesItsJarsAndMainClass() {
		JavaCommand command = JavaCommand.parse(List.of("java", "-Xmx1g", "-cp", "a.jar:lib/b.jar", "com.example.Main",
				"x"));

		assertThat(command.problem()).isNull();
		assertThat(command.classPath()).containsExactly("a.jar", "lib/b.jar");
		assertThat(command.mainClass()).isEqualTo("com.example.Main");
		assertThat(command.arguments()).containsExactly("x");
		assertThat(JavaCommand.withCache(command, List.of("-XX:SharedArchiveFile=c.jsa"), null)).containsExactly("java",
				"-XX:SharedArchiveFile=c.jsa", "-Xmx1g", "-cp", "a.jar:lib/b.jar", "com.example.Main", "x");
	}

	@Test
	void withACacheTheCacheOptionsComeFirstAndTheExtractedJarReplacesTheFatOne() {
		JavaCommand replica = JavaCommand.parse(List.of("/jdk/bin/java", "-XX:TieredStopAtLevel=1", "-jar", "fat.jar",
				"--server.port=20001", "--spring.application.name=model-1"));

		assertThat(JavaCommand.withCache(replica, List.of("-XX:AOTCache=/c/app.aot", "-Xlog:aot=info:file=\"x\""),
				"/c/app/fat.jar"))
			.containsExactly("/jdk/bin/java", "-XX:AOTCache=/c/app.aot", "-Xlog:aot=info:file=\"x\"",
					"-XX:TieredStopAtLevel=1", "-jar", "/c/app/fat.jar", "--server.port=20001",
					"--spring.application.name=model-1");
	}

	@Test
	void whatTheCachesCannotServeSaysWhy() {
		assertThat(JavaCommand.parse(List.of("python3", "server.py")).notJava()).isTrue();
		assertThat(JavaCommand.parse(List.of("python3", "server.py")).problem()).contains("it runs python3");
		assertThat(JavaCommand.parse(List.of("java", "-m", "app/app.Main")).problem()).contains("module launch");
		assertThat(JavaCommand.parse(List.of("java", "@args.txt")).problem()).contains("argument file");
		assertThat(JavaCommand.parse(List.of("java", "-Xshare:off", "-jar", "a.jar")).problem())
			.contains("manages class data sharing itself (-Xshare:off)");
		assertThat(JavaCommand.parse(List.of("java", "-XX:SharedArchiveFile=x.jsa", "-jar", "a.jar")).problem())
			.contains("-XX:SharedArchiveFile=x.jsa");
		assertThat(JavaCommand.parse(List.of("java", "-cp", "classes:a.jar", "Main")).problem())
			.contains("class path directory (classes)");
		assertThat(JavaCommand.parse(List.of("java", "-cp", "lib/*", "Main")).problem()).contains("wildcard");
		assertThat(JavaCommand.parse(List.of("java", "-version")).problem()).contains("runs no application");
		assertThat(JavaCommand.parse(List.of("java", "-jar")).problem()).contains("-jar without a jar");
		assertThat(JavaCommand.parse(List.of("java", "Main")).problem()).contains("without -cp");
		assertThat(JavaCommand.parse(List.of("java", "-cp", "a.jar", "Main")).notJava()).isFalse();
	}

	@Test
	void theBinaryIsTheNamedFileOrTheFirstOnThePath(@TempDir Path tmp) throws Exception {
		Path bin = Files.createDirectories(tmp.resolve("bin"));
		Path java = Files.writeString(bin.resolve("java"), "#!/bin/sh\n");
		java.toFile().setExecutable(true);

		assertThat(JavaCommand.parse(List.of("java", "-jar", "a.jar")).binary(null, "/nowhere:" + bin)).isEqualTo(java);
		assertThat(JavaCommand.parse(List.of("bin/java", "-jar", "a.jar")).binary(tmp, null)).isEqualTo(java);
		assertThat(JavaCommand.parse(List.of("java", "-jar", "a.jar")).binary(null, "/nowhere")).isNull();
	}

}
