package io.github.startuptelemetry.it.support;

import java.nio.file.Files;
import java.nio.file.Path;

/** The repackaged sample jars this module's tests run (built earlier in the same reactor). */
public final class SampleJars {

	private SampleJars() {
	}

	public static Path server() {
		return jar("sample.server.jar");
	}

	public static Path supervisor() {
		return jar("sample.supervisor.jar");
	}

	/** The startup benchmark's app with the starter. */
	public static Path startupApp() {
		return jar("startup.app.jar");
	}

	/** The same app with the fleet module too: a supervisor without Zipkin, for a declared fleet of the test's. */
	public static Path startupAppSupervisor() {
		return jar("startup.app.supervisor.jar");
	}

	/** The same app without the starter: plain Boot with OpenTelemetry. */
	public static Path plainBoot() {
		return jar("plain.boot.jar");
	}

	/** A plain Boot web app (web starter, one controller at {@code /hello}) as its user has it: no starter. */
	public static Path plainApp() {
		return jar("plain.app.jar");
	}

	/** The same plain web app with the starter added and nothing else changed. */
	public static Path plainAppWithStarter() {
		return jar("plain.app.starter.jar");
	}

	/**
	 * The same plain web app with the starter and its gRPC add-on ({@code startup-telemetry-grpc}):
	 * a server that can export over OTLP/gRPC.
	 */
	public static Path plainAppWithGrpc() {
		return jar("plain.app.grpc.jar");
	}

	/**
	 * The same app with the starter, processed by Spring AOT at build time ({@code process-aot}):
	 * start it with {@code -Dspring.aot.enabled=true}.
	 */
	public static Path plainAppAot() {
		return jar("plain.app.aot.jar");
	}

	/** What the build's Spring AOT processing of {@link #plainAppAot()} logged (its own log file). */
	public static Path plainAppAotBuildLog() {
		return jar("plain.app.aot.log");
	}

	/**
	 * An application built on another Spring Boot line than the project's (compat/boot-&lt;line&gt;):
	 * {@code kind} {@code plain} (benchmarks/plain-app's sources with the starter), {@code grpc}
	 * (and the gRPC add-on), {@code otel} (with the actuator and Boot's own OpenTelemetry),
	 * {@code supervisor} (and the fleet module), {@code actuator} (the actuator, no tracing: Boot 3.5 only).
	 */
	public static Path bootLine(String line, String kind) {
		return jar("boot" + line.replace(".", "") + "." + kind + ".jar");
	}

	/** The repository's root, where the sample supervisor's default fleet finds the server jar. */
	public static Path repositoryRoot() {
		return server().getParent().getParent().getParent();
	}

	private static Path jar(String property) {
		String location = System.getProperty(property);
		if (location == null) {
			throw new IllegalStateException(property + " is not set: run the tests through Maven");
		}
		Path jar = Path.of(location).toAbsolutePath().normalize();
		if (!Files.isRegularFile(jar)) {
			throw new IllegalStateException(jar + " does not exist: build the reactor with 'verify'");
		}
		return jar;
	}

}
