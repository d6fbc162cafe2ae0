package io.github.startuptelemetry.it.support;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * A supervisor of {@link SimulatedLauncher simulated servers} in a JVM of its own: the starter's
 * fleet run, with its auto-configuration as the sample supervisor has it (no web server), and a
 * {@link SimulatedLauncher} bean. Configured from the command line as any supervisor is
 * ({@code --telemetry.supervisor.launcher=simulated} and the fleet), plus {@code --simulated.posters}
 * (the pool, default 16), {@code --simulated.startup} (default 2s) and {@code --simulated.ready}
 * (default true). Start it with {@link JavaProcess#jar} on {@link #jar(Path)}.
 */
public final class SimulatedSupervisor {

	private SimulatedSupervisor() {
	}

	public static void main(String[] args) {
		SpringApplication application = new SpringApplication(Fleet.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.run(args);
	}

	/**
	 * A jar in {@code directory} of nothing but a manifest: this class as its main class, this
	 * JVM's class path as its own (the test classes, the starter, the fleet module), so that it
	 * starts as the sample jars do.
	 */
	public static Path jar(Path directory) throws IOException {
		Manifest manifest = new Manifest();
		Attributes attributes = manifest.getMainAttributes();
		attributes.put(Attributes.Name.MANIFEST_VERSION, "1.0");
		attributes.put(Attributes.Name.MAIN_CLASS, SimulatedSupervisor.class.getName());
		attributes.put(Attributes.Name.CLASS_PATH, Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
			.filter((entry) -> !entry.isBlank())
			.map((entry) -> Path.of(entry).toAbsolutePath().toUri().toString())
			.collect(Collectors.joining(" ")));
		Path jar = directory.resolve("simulated-supervisor.jar");
		try (OutputStream out = Files.newOutputStream(jar); JarOutputStream ignored = new JarOutputStream(out, manifest)) {
			// the manifest is the whole jar
		}
		return jar;
	}

	/** The supervisor's application: the starter's auto-configuration and the simulated launcher. */
	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class Fleet {

		@Bean(destroyMethod = "close")
		SimulatedLauncher simulatedLauncher(Environment environment) {
			return new SimulatedLauncher(environment.getProperty("simulated.posters", Integer.class, 16),
					environment.getProperty("simulated.startup", Duration.class, Duration.ofSeconds(2)),
					environment.getProperty("simulated.ready", Boolean.class, true));
		}

	}

}
