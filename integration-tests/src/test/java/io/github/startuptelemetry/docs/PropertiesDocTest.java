package io.github.startuptelemetry.docs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.internal.JsonText;

/**
 * {@code docs/properties.md} is what the build's configuration metadata says, and every property
 * is documented. After changing a property (or its Javadoc), regenerate the page with
 * {@value PropertiesDoc#REGENERATE} (from the repository root).
 */
class PropertiesDocTest {

	/** The modules whose metadata the page documents: those that run the configuration processor. */
	private static final List<String> MODULES = List.of("startup-telemetry-autoconfigure", "startup-telemetry-fleet",
			"startup-telemetry-kubernetes");

	private static final Path ROOT = RepositoryRoot.find();

	private static final Path PAGE = ROOT.resolve("docs/properties.md");

	private static final PropertiesDoc DOC = new PropertiesDoc(
			MODULES.stream().map((module) -> ROOT.resolve(module).resolve("src/main/java")).toList());

	@Test
	void propertiesPageIsUpToDate() throws IOException {
		GeneratedPage.assertUpToDate(PAGE, DOC.render(metadata()), "the configuration metadata", PropertiesDoc.REGENERATE);
	}

	@Test
	@SuppressWarnings("unchecked")
	void everyPropertyIsOnThePageWithADescription() throws IOException {
		String rendered = DOC.render(metadata());
		Map<String, Object> metadata = JsonText.parseObject(metadata());
		List<Map<String, Object>> properties = (List<Map<String, Object>>) metadata.get("properties");
		assertThat(properties).as("properties in the metadata").hasSizeGreaterThan(40);
		for (Map<String, Object> property : properties) {
			String name = (String) property.get("name");
			assertThat(rendered).as("the page").contains("| `" + name + "` |");
			assertThat((String) property.get("description")).as("the Javadoc of " + name).isNotBlank();
		}
		rendered.lines().filter((line) -> line.startsWith("| `")).forEach((line) -> assertThat(line)
			.as("a row with a description (Javadoc on every field)").doesNotEndWith("|  |"));
	}

	@Test
	void aServersFieldsComeFromTheirJavadocWithTypesAndDefaults() throws IOException {
		String rendered = DOC.render(metadata());
		assertThat(rendered).contains("### Each entry of `telemetry.supervisor.servers[]` and `telemetry.supervisor.fleet.<name>`");
		assertThat(rendered).containsPattern("\\| `telemetry\\.supervisor\\.servers\\[]\\.command` \\| `List<String>` \\|  \\| "
				+ "The program and its arguments, one list element each");
		assertThat(rendered).contains("| `telemetry.supervisor.servers[].replicas` | `int` | `1` |");
		assertThat(rendered).contains("| `telemetry.supervisor.servers[].working-dir` | `String` |  |");
		assertThat(rendered).contains("| `telemetry.supervisor.ready-timeout` | `Duration` | `10m` |");
		assertThat(rendered).contains("\n## `telemetry.supervisor`\n", "\n## `telemetry.supervisor.slurm`\n");
	}

	@Test
	void aNewPropertyMakesThePageStale() throws IOException {
		String metadata = metadata();
		String added = metadata.replaceFirst("\"properties\"\\s*:\\s*\\[", """
				"properties": [{"name": "telemetry.supervisor.brand-new", "type": "java.lang.Boolean",
				  "description": "A {@code new} one | with a <b>pipe</b>.", "defaultValue": true},""");
		String rendered = DOC.render(added);
		assertThat(rendered).isNotEqualTo(DOC.render(metadata))
			.contains("| `telemetry.supervisor.brand-new` | `Boolean` | `true` | A `new` one \\| with a &lt;b>pipe&lt;/b>. |");
	}

	@Test
	void onlyTheListedModulesGenerateConfigurationMetadata() throws IOException {
		try (Stream<Path> poms = Files.walk(ROOT, 3)) {
			List<String> generating = poms.filter((path) -> path.getFileName().toString().equals("pom.xml"))
				.filter((path) -> !path.toString().contains("/target/"))
				.filter((path) -> read(path).contains("<artifactId>spring-boot-configuration-processor</artifactId>"))
				.map((path) -> ROOT.relativize(path.getParent()).toString())
				.sorted()
				.toList();
			assertThat(generating).as("modules that run the configuration processor; the properties page documents "
					+ "only " + MODULES + ": render the others' metadata too (PropertiesDocTest.MODULES)")
				.isEqualTo(MODULES);
		}
	}

	/** The modules' metadata as one document: their groups, properties and hints, in module order. */
	@SuppressWarnings("unchecked")
	private static String metadata() throws IOException {
		Map<String, List<Object>> merged = new java.util.LinkedHashMap<>();
		for (String module : MODULES) {
			Path file = ROOT.resolve(module).resolve("target/classes/META-INF/spring-configuration-metadata.json");
			assertThat(file).as("the build's configuration metadata (compile the module first)").exists();
			Map<String, Object> metadata = JsonText.parseObject(Files.readString(file, StandardCharsets.UTF_8));
			for (String part : List.of("groups", "properties", "hints")) {
				merged.computeIfAbsent(part, (key) -> new java.util.ArrayList<>())
					.addAll((List<Object>) metadata.getOrDefault(part, List.of()));
			}
		}
		return JsonText.pretty(merged);
	}

	private static String read(Path file) {
		try {
			return Files.readString(file, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
