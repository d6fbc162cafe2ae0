package io.github.startuptelemetry.jvmcache.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * A stand-in JDK for the training's bookkeeping without real JVMs (the process tests train real
 * ones): a {@code release} file, and a {@code bin/java} script that does what a training asks of
 * a JVM (extract a Spring Boot jar, write the cache at exit) and nothing else. With
 * {@code FAKE_JAVA_FAIL} in its environment the training start fails; with
 * {@code FAKE_JAVA_SLEEP} it outlives any timeout; with {@code FAKE_JAVA_UNTIL_TERM} it runs
 * until SIGTERM, then writes its cache and exits 143, as a JVM does.
 */
final class FakeJdk {

	private static final String JAVA = """
			#!/bin/sh
			out=""; dest=""; jarmode=""; jar=""
			while [ $# -gt 0 ]; do
				case "$1" in
					-XX:ArchiveClassesAtExit=*) out="${1#-XX:ArchiveClassesAtExit=}";;
					-XX:AOTCacheOutput=*) out="${1#-XX:AOTCacheOutput=}";;
					-Djarmode=tools) jarmode=1;;
					--destination) shift; dest="$1";;
					-jar) shift; jar="$1";;
				esac
				shift
			done
			if [ -n "$jarmode" ]; then mkdir -p "$dest/lib" && cp "$jar" "$dest/$(basename "$jar")" && echo extracted && exit 0; fi
			if [ -n "$FAKE_JAVA_SLEEP" ]; then exec sleep 60; fi
			if [ -n "$FAKE_JAVA_UNTIL_TERM" ]; then
				trap 'kill $! 2>/dev/null; [ -n "$out" ] && printf "a cache" > "$out"; exit 143' TERM
				sleep 60 & wait; exit 0
			fi
			if [ -n "$FAKE_JAVA_FAIL" ]; then echo "Error: training failed on purpose"; exit 3; fi
			[ -n "$out" ] && printf 'a cache' > "$out"
			echo "trained $jar"
			""";

	private FakeJdk() {
	}

	/** A JDK of {@code version} (e.g. {@code 17.0.9+1}) under {@code dir}; its {@code bin/java}. */
	static Path install(Path dir, String version) throws IOException {
		Path bin = Files.createDirectories(dir.resolve("bin"));
		Files.writeString(dir.resolve("release"), "IMPLEMENTOR=\"Test\"\nJAVA_RUNTIME_VERSION=\"" + version + "\"\n");
		Path java = Files.writeString(bin.resolve("java"), JAVA);
		java.toFile().setExecutable(true);
		return java;
	}

	/** A Spring Boot executable jar (its launcher and jarmode tools named), with {@code content} in it. */
	static Path bootJar(Path file, String content) throws IOException {
		Manifest manifest = new Manifest();
		manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
		manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "org.springframework.boot.loader.launch.JarLauncher");
		Files.createDirectories(file.toAbsolutePath().getParent());
		try (OutputStream out = Files.newOutputStream(file); JarOutputStream jar = new JarOutputStream(out, manifest)) {
			jar.putNextEntry(new JarEntry("BOOT-INF/lib/spring-boot-jarmode-tools-4.0.7.jar"));
			jar.closeEntry();
			jar.putNextEntry(new JarEntry("BOOT-INF/classes/content.txt"));
			jar.write(content.getBytes());
			jar.closeEntry();
		}
		return file;
	}

}
