package io.github.startuptelemetry;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The main code of the three modules held to {@link PackageMap} (no package or class cycles but
 * those it lists for now, each package using only what it allows), to Spring Boot's rules for
 * auto-configuration, and to {@code docs/architecture.md}'s Public API table, with Javadoc and a
 * {@code @NullMarked} {@code package-info.java} everywhere; the classes are imported once, for
 * every rule. {@link ArchitectureRulesTest} shows each rule failing on a deliberate violation.
 */
class ArchitectureTest {

	private static final PackageMap MAP = PackageMap.STARTUP_TELEMETRY;

	/** The modules, as a server, a supervisor and Kubernetes add them. */
	static final List<String> MODULES = MAP.modules().stream().map(PackageMap.Module::name).toList();

	/** Each module's sources (a module that is only its dependencies, the gRPC add-on, has none). */
	static final List<Path> MAIN_SOURCES = MODULES.stream()
		.map((module) -> Path.of("..", module, "src/main/java", MAP.root().replace('.', '/')))
		.filter(Files::isDirectory)
		.toList();

	/** The modules' main classes, as the build compiled them (not the class path's other jars). */
	private static final JavaClasses MAIN = new ClassFileImporter()
		.importPaths(MODULES.stream()
			.map((module) -> Path.of("..", module, "target/classes"))
			.filter(Files::isDirectory)
			.toList());

	private static final Path PAGE = Path.of("../docs/architecture.md");

	private static final ArchitectureRules RULES = new ArchitectureRules(MAP);

	/** What the internal packages' {@code package-info.java} says, as OpenTelemetry's SDK does. */
	static final String INTERNAL_NOTICE = "Internal: not API.";

	private static final Pattern PUBLIC_TYPE = Pattern
		.compile("(?m)^public (?:(?:final|abstract|sealed|non-sealed|static) )*(?:class|interface|enum|record|@interface) ");

	@Test
	void noPackageCycles() {
		RULES.noPackageCycles().check(MAIN);
	}

	@Test
	void packagesDependOnlyOnWhatPackageMapAllows() {
		RULES.dependenciesAsMapped().check(MAIN);
	}

	@Test
	void noClassCyclesButThoseListedForNow() {
		List<Map<String, Set<String>>> cycles = RULES.classCycles(MAIN.stream().toList());
		System.out.printf("Class cycles: %d%n", cycles.size());
		cycles.forEach((cycle) -> System.out.printf("  %d: %s%n", cycle.size(), ArchitectureRules.describe(cycle)));
		RULES.noClassCycles().check(MAIN);
	}

	@Test
	void noImportIsUsedOnlyInJavadoc() {
		assertThat(JavadocImports.unusedInCode(MAIN_SOURCES)).as("imports no code uses").isEmpty();
	}

	@Test
	void everyPackageIsNullMarked() {
		RULES.packagesAreNullMarked().check(MAIN);
	}

	/**
	 * Spring Boot's own build rules ({@code buildSrc/.../architecture/ArchitectureRules.java} and
	 * {@code AutoConfigurationChecker}) that fit an auto-configure module. Taken: auto-configuration
	 * classes public and final, with no public member but a no-arg constructor, a constant or an
	 * override (their nested configuration classes and the ones of ours they import too); no
	 * {@code @ConditionalOnClass} on a {@code @Bean} method; {@code BeanPostProcessor} bean methods
	 * static, each parameter {@code @Lazy}, an {@code ObjectProvider}, the context, the
	 * {@code Environment} or an infrastructure bean; {@code BeanFactoryPostProcessor} bean methods
	 * static, taking only the {@code Environment}; no bean method returning a private type (Spring
	 * AOT); no {@code @ConditionalOnMissingBean} naming only the return type;
	 * {@code @ConfigurationProperties} naming its prefix as {@code value}, its {@code Set} and
	 * {@code Map} fields starting as {@code LinkedHashSet}, {@code LinkedHashMap} or
	 * {@code EnumMap}; {@code @ConfigurationPropertiesBinding} bean methods static;
	 * {@code @DeprecatedConfigurationProperty} with its {@code since}; no
	 * {@code Collectors.toList()}, no case conversion without a {@code Locale}, no
	 * {@code URLEncoder}/{@code URLDecoder} by charset name. Held elsewhere, stricter: no public
	 * condition (any {@code Condition}, not only {@code SpringBootCondition}s) and packages free of
	 * cycles (classes too). Left out: {@code Objects.requireNonNull} in favour of Spring's
	 * {@code Assert} (our JDK-only packages may not use Spring, and the JDK's check is the right one
	 * there); {@code ResourceUtils} (we load no resource by location); the {@code StepVerifier}
	 * rules (no Reactor); {@code @EnumSource}, AssertJ's {@code @CheckReturnValue} and test
	 * auto-configurations package-private (rules for test code, and these tests hold main code).
	 */
	@TestFactory
	Stream<DynamicTest> springBootsRulesForAutoConfiguration() {
		return RULES.springBootRules()
			.stream()
			.map((ArchRule rule) -> DynamicTest.dynamicTest(rule.getDescription(), () -> rule.check(MAIN)));
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
		for (PackageMap.Package pkg : MAP.packages()) {
			String name = pkg.name();
			Path info = MAIN_SOURCES.stream()
				.map((root) -> root.resolve(name.replace('.', '/')).resolve("package-info.java"))
				.filter(Files::exists)
				.findFirst()
				.orElse(null);
			assertThat(info).as("package-info of " + name).isNotNull();
			String text = Files.readString(info, StandardCharsets.UTF_8);
			assertThat(text).as("package-info of " + name).startsWith("/**");
			if (RULES.internal(MAP.root() + "." + name)) {
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

	private static List<Path> sources() throws IOException {
		List<Path> all = new ArrayList<>();
		for (Path root : MAIN_SOURCES) {
			try (Stream<Path> files = Files.walk(root)) {
				files.filter((file) -> file.toString().endsWith(".java")).sorted().forEach(all::add);
			}
		}
		return all;
	}

}
