package io.github.startuptelemetry;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import com.tngtech.archunit.core.domain.AccessTarget;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.github.startuptelemetry.it.support.SampleJars;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The main code of the server and supervisor modules against each Boot line's own jars (an
 * application's, as its Boot parent resolves them), without starting anything: every member of
 * Spring's, Micrometer's and OpenTelemetry's it calls, reads or references exists there (Boot 3.5
 * brings OpenTelemetry 1.49: anything newer would fail at export, here it fails at {@code mvn
 * verify}); no class of ours names a type the line lacks but the one Boot 4 registration that Boot
 * 3 never loads; and {@code BootLine}, loaded among the line's jars, names classes and properties
 * that are there.
 */
class BootLineLinkTest {

	/** What the supervisor and server modules are made of (the Kubernetes module, optional, has its own client). */
	private static final JavaClasses OURS = new ClassFileImporter().importPaths(
			Path.of("../startup-telemetry-autoconfigure/target/classes"),
			Path.of("../startup-telemetry-fleet/target/classes"));

	private static final List<String> EXTERNAL = List.of("org.springframework.", "io.micrometer.", "io.opentelemetry.");

	/** Optional libraries, not in these applications: the classes that name them load only with them. */
	private static final List<String> OPTIONAL = List.of("io.opentelemetry.exporter.zipkin.", "zipkin2.");

	/** The registrations of ours for one Boot line only, never loaded on the other. */
	private static final Map<String, Set<String>> LINE_ONLY = Map.of("3.5",
			Set.of("io.github.startuptelemetry.lifecycle.TelemetryEnvironmentPostProcessor"), "4.0", Set.of(), "4.1",
			Set.of());

	static Stream<Arguments> lines() {
		return Stream.of(Arguments.of("3.5", SampleJars.bootLine("3.5", "supervisor")),
				Arguments.of("4.0", SampleJars.startupAppSupervisor()), Arguments.of("4.1", SampleJars.bootLine("4.1", "supervisor")));
	}

	@ParameterizedTest(name = "Boot {0}")
	@MethodSource("lines")
	void everyMemberOfOursLinksAgainstTheLinesJars(String line, Path application) throws Exception {
		try (URLClassLoader jars = libraries(line, application)) {
			Set<String> missing = new TreeSet<>();
			int checked = 0;
			for (JavaClass type : OURS) {
				for (JavaAccess<?> access : type.getAccessesFromSelf()) {
					AccessTarget target = access.getTarget();
					String owner = target.getOwner().getName();
					if (!external(owner) || optional(owner)) {
						continue;
					}
					checked++;
					if (!resolves(jars, target)) {
						missing.add(target.getFullName() + " (from " + type.getName() + ")");
					}
				}
			}
			System.out.printf("Boot %s: %d member references checked%n", line, checked);
			assertThat(checked).as("references to check").isGreaterThan(200);
			assertThat(missing).as("members of ours' that Boot %s's jars lack", line).isEmpty();
		}
	}

	@ParameterizedTest(name = "Boot {0}")
	@MethodSource("lines")
	void noClassOfOursALineLoadsNamesATypeItLacks(String line, Path application) throws Exception {
		try (URLClassLoader jars = libraries(line, application)) {
			Map<String, Set<String>> names = new LinkedHashMap<>();
			for (JavaClass type : OURS) {
				Set<String> named = new TreeSet<>(ConstantPoolClasses.of(type.getSource().orElseThrow().getUri()));
				type.getDirectDependenciesFromSelf().forEach((dependency) -> named.add(dependency.getTargetClass().getBaseComponentType().getName()));
				names.put(type.getName(), named);
			}
			// a class that names one that cannot load cannot load either
			Set<String> unloadable = new TreeSet<>();
			boolean grew = true;
			while (grew) {
				grew = false;
				for (Map.Entry<String, Set<String>> type : names.entrySet()) {
					if (!unloadable.contains(type.getKey()) && type.getValue()
						.stream()
						.anyMatch((name) -> unloadable.contains(name)
								|| (external(name) && !optional(name) && jars.getResource(resource(name)) == null))) {
						unloadable.add(type.getKey());
						grew = true;
					}
				}
			}
			assertThat(unloadable).as("classes of ours naming a type Boot %s lacks", line)
				.containsExactlyInAnyOrderElementsOf(LINE_ONLY.get(line));
		}
	}

	@ParameterizedTest(name = "Boot {0}")
	@MethodSource("lines")
	void bootLineNamesWhatTheLineHas(String line, Path application) throws Exception {
		List<URL> urls = new ArrayList<>(List.of(Path.of("../startup-telemetry-autoconfigure/target/classes").toUri().toURL()));
		urls.addAll(Arrays.asList(libraries(line, application).getURLs()));
		try (URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
			Class<?> bootLine = Class.forName("io.github.startuptelemetry.internal.BootLine", true, loader);
			assertThat(bootLine.getClassLoader()).isSameAs(loader);
			assertThat(bootLine.getField("BOOT_4").getBoolean(null)).isEqualTo(!line.equals("3.5"));
			assertThat(bootLine.getField("BOOT_MAPS_OTEL_ENVIRONMENT").getBoolean(null)).isEqualTo(line.equals("4.1"));
			for (String field : List.of("OPENTELEMETRY_SDK_CONFIGURATION", "OPENTELEMETRY_TRACING_CONFIGURATION",
					"OTLP_TRACING_CONFIGURATION", "OTLP_METRICS_CONFIGURATION", "METER_REGISTRY_CLOSER",
					"WEB_SERVER_INITIALIZED_EVENT", "WEB_SERVER_APPLICATION_CONTEXT")) {
				String name = (String) bootLine.getField(field).get(null);
				assertThat(loader.getResource(resource(name))).as("%s = %s", field, name).isNotNull();
			}
			String metadata = configurationMetadata(loader);
			for (String field : List.of("OTLP_TRACES_ENDPOINT", "OTLP_TRACES_TRANSPORT", "OTLP_TRACES_HEADERS",
					"TRACES_EXPORT_ENABLED")) {
				String name = (String) bootLine.getField(field).get(null);
				assertThat(metadata).as("%s = %s, in Boot's configuration metadata", field, name)
					.contains("\"name\": \"" + name + "\"");
			}
		}
	}

	private static boolean external(String className) {
		return EXTERNAL.stream().anyMatch(className::startsWith);
	}

	private static boolean optional(String className) {
		return OPTIONAL.stream().anyMatch(className::startsWith);
	}

	private static String resource(String className) {
		return className.replace('.', '/') + ".class";
	}

	/** Whether the member {@code target} names is there, by name and erased signature, on the class or a supertype. */
	private static boolean resolves(ClassLoader jars, AccessTarget target) {
		Class<?> owner;
		try {
			owner = Class.forName(target.getOwner().getName(), false, jars);
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return false;
		}
		String name = target.getName();
		List<String> parameters = (target instanceof AccessTarget.CodeUnitAccessTarget code)
				? code.getRawParameterTypes().stream().map(JavaClass::getName).toList() : null;
		Deque<Class<?>> types = new ArrayDeque<>(List.of(owner));
		Set<Class<?>> seen = new HashSet<>();
		while (!types.isEmpty()) {
			Class<?> type = types.pop();
			if (!seen.add(type)) {
				continue;
			}
			try {
				List<Member> members = new ArrayList<>();
				if (parameters == null) {
					members.addAll(Arrays.asList(type.getDeclaredFields()));
				}
				else if (name.equals("<init>")) {
					members.addAll(Arrays.asList(type.getDeclaredConstructors()));
				}
				else {
					members.addAll(Arrays.asList(type.getDeclaredMethods()));
				}
				for (Member member : members) {
					if (matches(member, name, parameters)) {
						return true;
					}
				}
			}
			catch (LinkageError ex) {
				return false;
			}
			if (name.equals("<init>")) {
				return false;
			}
			if (type.getSuperclass() != null) {
				types.add(type.getSuperclass());
			}
			types.addAll(Arrays.asList(type.getInterfaces()));
			if (type.isInterface()) {
				types.add(Object.class);
			}
		}
		return false;
	}

	private static boolean matches(Member member, String name, List<String> parameters) {
		if (member instanceof Field) {
			return member.getName().equals(name);
		}
		Class<?>[] types = (member instanceof Method method) ? method.getParameterTypes()
				: ((java.lang.reflect.Constructor<?>) member).getParameterTypes();
		boolean sameName = (member instanceof Method) ? member.getName().equals(name) : name.equals("<init>");
		return sameName && Arrays.stream(types).map(Class::getName).toList().equals(parameters);
	}

	/** Boot's configuration metadata, every jar's, as one text. */
	private static String configurationMetadata(ClassLoader loader) throws IOException {
		StringBuilder all = new StringBuilder();
		for (URL url : java.util.Collections.list(loader.getResources("META-INF/spring-configuration-metadata.json"))) {
			try (InputStream in = url.openStream()) {
				all.append(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
			}
		}
		return all.toString().replaceAll("\"name\"\\s*:\\s*\"", "\"name\": \"");
	}

	/**
	 * The application's libraries but ours, as it runs with them, unpacked once per build under
	 * {@code target/boot-lines/<line>} from its executable jar's {@code BOOT-INF/lib}.
	 */
	private static URLClassLoader libraries(String line, Path application) throws IOException {
		Path dir = Path.of("target/boot-lines", line);
		Path stamp = dir.resolve(".from");
		String from = application + " " + Files.getLastModifiedTime(application).toMillis();
		if (!Files.isRegularFile(stamp) || !Files.readString(stamp).equals(from)) {
			Files.createDirectories(dir);
			try (Stream<Path> old = Files.list(dir)) {
				for (Path file : old.toList()) {
					Files.delete(file);
				}
			}
			try (JarFile jar = new JarFile(application.toFile())) {
				for (JarEntry entry : jar.stream().toList()) {
					String name = entry.getName();
					if (name.startsWith("BOOT-INF/lib/") && name.endsWith(".jar")
							&& !name.startsWith("BOOT-INF/lib/startup-telemetry-")) {
						try (InputStream in = jar.getInputStream(entry)) {
							Files.copy(in, dir.resolve(name.substring(name.lastIndexOf('/') + 1)),
									StandardCopyOption.REPLACE_EXISTING);
						}
					}
				}
			}
			Files.writeString(stamp, from);
		}
		try (Stream<Path> jars = Files.list(dir)) {
			URL[] urls = jars.filter((file) -> file.toString().endsWith(".jar")).sorted().map((file) -> {
				try {
					return file.toUri().toURL();
				}
				catch (IOException ex) {
					throw new UncheckedIOException(ex);
				}
			}).toArray(URL[]::new);
			return new URLClassLoader(urls, ClassLoader.getPlatformClassLoader());
		}
	}

}
