package io.github.startuptelemetry;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The API line and the package map, as {@code docs/architecture.md} states them, held by the
 * main code: no package cycles, each package depending only on what its row in the Packages
 * table names, no public condition, no API type exposing an {@code internal} one, the public
 * types outside {@code internal} exactly the Public API table (and the Exceptions table's
 * {@code not API} rows), a Javadoc comment on every public type, and a {@code package-info.java}
 * in every package (saying so in every internal one). {@link ArchitectureRulesTest} shows each
 * rule failing on a deliberate violation.
 */
class ArchitectureTest {

	private static final String ROOT = "io.github.startuptelemetry";

	/** The three modules, as a server, a supervisor and Kubernetes add them. */
	static final List<String> MODULES = List.of("startup-telemetry-autoconfigure", "startup-telemetry-fleet",
			"startup-telemetry-kubernetes");

	private static final List<Path> MAIN_SOURCES = MODULES.stream()
		.map((module) -> Path.of("..", module, "src/main/java/io/github/startuptelemetry"))
		.toList();

	/** The modules' main classes, as the build compiled them (not the class path's other jars). */
	private static final JavaClasses MAIN = new ClassFileImporter()
		.importPaths(MODULES.stream().map((module) -> Path.of("..", module, "target/classes")).toList());

	private static final Path PAGE = Path.of("../docs/architecture.md");

	private static final ArchitectureRules RULES = new ArchitectureRules(ROOT);

	/** What the internal packages' {@code package-info.java} says, as OpenTelemetry's SDK does. */
	static final String INTERNAL_NOTICE = "Internal: not API.";

	private static final Pattern PUBLIC_TYPE = Pattern
		.compile("(?m)^public (?:(?:final|abstract|sealed|non-sealed|static) )*(?:class|interface|enum|record|@interface) ");

	@Test
	void noPackageCycles() {
		RULES.noCycles(ArchitectureDoc.read(PAGE)).check(MAIN);
	}

	@Test
	void packagesDependOnlyOnWhatThePackagesTableSays() {
		RULES.dependenciesAsDocumented(ArchitectureDoc.read(PAGE)).check(MAIN);
	}

	@Test
	void everyPackageHasARowAndEveryRowAPackage() throws IOException {
		assertThat(ArchitectureDoc.read(PAGE).packages().keySet()).as("packages in architecture.md's table")
			.containsExactlyInAnyOrderElementsOf(sourcePackages());
	}

	@Test
	void noPublicCondition() {
		RULES.noPublicCondition().check(MAIN);
	}

	@Test
	void noApiTypeExposesAnInternalOne() {
		RULES.noApiExposesInternal().check(MAIN);
	}

	@Test
	void thePublicApiIsWhatArchitectureMdLists() {
		Set<String> api = RULES.publicApi(MAIN);
		System.out.printf("Public top-level types: %d, outside internal: %d%n  %s%n", RULES.publicTypes(MAIN).size(),
				api.size(), String.join("\n  ", api));
		ArchitectureDoc doc = ArchitectureDoc.read(PAGE);
		// noneMatch, not doesNotContainAnyElementsOf: that one refuses an empty list (no Exceptions section)
		assertThat(doc.publicApi()).as("types both API and not API").noneMatch(doc.publicNotApi()::contains);
		Set<String> documented = new TreeSet<>(doc.publicApi());
		documented.addAll(doc.publicNotApi());
		assertThat(api).as("public types outside internal, against the Public API table and the Exceptions")
			.containsExactlyInAnyOrderElementsOf(documented);
	}

	@Test
	void everyPackageSaysWhatItIsForAndEveryInternalOneThatItIsInternal() throws IOException {
		for (String name : sourcePackages()) {
			Path info = MAIN_SOURCES.stream()
				.map((root) -> root.resolve(name.replace('.', '/')).resolve("package-info.java"))
				.filter(Files::exists)
				.findFirst()
				.orElse(null);
			assertThat(info).as("package-info of " + name).isNotNull();
			String text = Files.readString(info, StandardCharsets.UTF_8);
			assertThat(text).as("package-info of " + name).startsWith("/**");
			if (RULES.internal(ROOT + "." + name)) {
				assertThat(text).as("package-info of " + name).contains(INTERNAL_NOTICE);
			}
			else {
				assertThat(text).as("package-info of " + name).doesNotContain(INTERNAL_NOTICE);
			}
		}
	}

	/** Every public top-level type, internal ones included, says what it is in a Javadoc comment. */
	@Test
	void everyPublicTypeHasJavadoc() throws IOException {
		List<String> undocumented = new ArrayList<>();
		for (Path source : sources()) {
			String text = Files.readString(source, StandardCharsets.UTF_8);
			var declaration = PUBLIC_TYPE.matcher(text);
			if (declaration.find()) {
				// the last comment before the declaration, with nothing but annotations between them
				String before = text.substring(0, declaration.start());
				int end = before.lastIndexOf("*/");
				int start = (end < 0) ? -1 : before.lastIndexOf("/*", end);
				if (start < 0 || !before.startsWith("/**", start) || before.substring(end).contains(";")) {
					undocumented.add(source.toString());
				}
			}
		}
		assertThat(undocumented).as("public types without a Javadoc comment").isEmpty();
	}

	private static Set<String> sourcePackages() throws IOException {
		Set<String> packages = new TreeSet<>();
		for (Path root : MAIN_SOURCES) {
			for (Path source : sources(root)) {
				packages.add(root.relativize(source.getParent()).toString().replace('/', '.'));
			}
		}
		return packages;
	}

	private static List<Path> sources() throws IOException {
		List<Path> all = new ArrayList<>();
		for (Path root : MAIN_SOURCES) {
			all.addAll(sources(root));
		}
		return all;
	}

	private static List<Path> sources(Path root) throws IOException {
		try (Stream<Path> files = Files.walk(root)) {
			return files.filter((file) -> file.toString().endsWith(".java")).sorted().toList();
		}
	}

}
