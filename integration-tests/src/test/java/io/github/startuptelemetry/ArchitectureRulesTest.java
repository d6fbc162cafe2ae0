package io.github.startuptelemetry;

import java.nio.file.Path;
import java.util.List;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * Each rule {@link ArchitectureTest} and {@link PackageMapTest} hold the starter to fails on a
 * deliberate violation: the classes of {@code archfixture} break every one of them (each beside
 * a twin that keeps it), against a map of their own.
 */
class ArchitectureRulesTest {

	private static final String ROOT = "io.github.startuptelemetry.archfixture";

	/** The fixture's classes, from where the build compiled them (not a scan of the whole class path). */
	private static final JavaClasses FIXTURE = new ClassFileImporter()
		.importPath(Path.of("target/test-classes", ROOT.replace('.', '/')));

	private static final Path FIXTURE_SOURCES = Path.of("src/test/java", ROOT.replace('.', '/'));

	private static final ArchitectureRules RULES = new ArchitectureRules(map(true));

	private static final List<List<String>> FIXTURE_CYCLES = List.of(List.of("a.A", "b.B"),
			List.of("cycle.Chicken", "cycle.Egg"), List.of("cycle.Hen", "cycle.Rooster"));

	@Test
	void aPackageCycleFails() {
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> RULES.noPackageCycles().check(FIXTURE))
			.withMessageContaining("Cycle detected: Slice a -> ")
			.withMessageContaining("Slice b");
	}

	@Test
	void aDependencyTheMapDoesNotAllowFails() {
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> RULES.dependenciesAsMapped().check(FIXTURE))
			.withMessageContaining("a may not depend on api")
			.withMessageContaining("api may not depend on org.springframework.context.annotation")
			.withMessageContaining("cycle may not depend on internal.secret: " + ROOT + ".cycle.Whisper names " + ROOT
					+ ".internal.secret.Secret in its constant pool (an inlined constant)")
			.withMessageNotContaining("b may not depend");
	}

	@Test
	void aPackageTheMapDoesNotHaveFails() {
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> new ArchitectureRules(map(false)).dependenciesAsMapped().check(FIXTURE))
			.withMessageContaining("package b of " + ROOT + ".b.B is not in PackageMap");
	}

	@Test
	void aClassCycleFailsWithItsClassesThoseOfAnAnonymousClassAndAnInlinedConstantIncluded() {
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> RULES.noClassCycles().check(FIXTURE))
			.withMessageContaining("was violated (3 times)")
			.withMessageContaining("a cycle between 2 classes: a.A → b.B; b.B → a.A")
			.withMessageContaining("a cycle between 2 classes: cycle.Chicken → cycle.Egg; cycle.Egg → cycle.Chicken")
			.withMessageContaining("a cycle between 2 classes: cycle.Hen → cycle.Rooster; cycle.Rooster → cycle.Hen")
			.withMessageNotContaining("Lonely");
	}

	@Test
	void theClassCyclesTheMapListsPass() {
		assertThatNoException()
			.isThrownBy(() -> new ArchitectureRules(map(true, FIXTURE_CYCLES)).noClassCycles().check(FIXTURE));
	}

	@Test
	void aListedClassCycleTheCodeNoLongerHasFailsSoThatTheListOnlyShrinks() {
		List<List<String>> grown = List.of(List.of("a.A", "b.B", "api.Leaky"), FIXTURE_CYCLES.get(1),
				FIXTURE_CYCLES.get(2), List.of("api.Leaky", "internal.secret.Secret"));
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> new ArchitectureRules(map(true, grown)).noClassCycles().check(FIXTURE))
			.withMessageContaining("was violated (3 times)")
			.withMessageContaining("a cycle between 2 classes: a.A → b.B; b.B → a.A")
			.withMessageContaining("the allowed class cycle [a.A, api.Leaky, b.B] (a fixture) is not one any more")
			.withMessageContaining("the allowed class cycle [api.Leaky, internal.secret.Secret] (a fixture) is not one any more")
			.withMessageNotContaining("cycle.Chicken");
	}

	@Test
	void anImportOnlyJavadocUsesFails() {
		assertThat(JavadocImports.unusedInCode(List.of(FIXTURE_SOURCES)))
			.containsExactly("javadoc/LinkOnly.java: import " + ROOT + ".b.B (used only in Javadoc)");
	}

	@Test
	void anImportIsUsedOnlyWhereCodeNamesIt() {
		assertThat(JavadocImports.unusedInCode("""
				/** Marked. */
				@NullMarked
				package a;

				import org.jspecify.annotations.NullMarked;
				""")).as("a package annotation, before the import").isEmpty();
		assertThat(JavadocImports.unusedInCode("""
				package a;

				import java.util.List;
				import java.util.Map;
				import java.util.Set;
				import static java.util.Objects.requireNonNull;
				import java.util.concurrent.*;

				/** A {@link List}, a {@value Map#X}. */
				class A {
					// a Set, said in a comment
					String text = "List Set Map";
					char c = '"';
					String block = \"""
						Map \\\""" Set
						\""";
					Object o = java.util.Set.of(); // a qualified name is not the import's
					Object n = requireNonNull(o);
				}
				""")).containsExactly("import java.util.List (used only in Javadoc)",
				"import java.util.Map (used only in Javadoc)", "import java.util.Set (used only in Javadoc)");
	}

	@Test
	void aPackageWithoutNullMarkedFails() {
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> RULES.packagesAreNullMarked().check(FIXTURE))
			.withMessageContaining("package " + ROOT + ".b is not @NullMarked")
			.withMessageContaining("package " + ROOT + ".boot is not @NullMarked")
			.withMessageNotContaining("package " + ROOT + ".a is not");
	}

	@Test
	void aPublicConditionFails() {
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> RULES.noPublicCondition().check(FIXTURE))
			.withMessageContaining("PublicCondition")
			.withMessageContaining("PublicBootCondition");
	}

	@Test
	void anApiTypeShowingAnInternalOneFails() {
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> RULES.noApiExposesInternal().check(FIXTURE))
			.withMessageContaining(ROOT + ".api.Leaky.secret() exposes " + ROOT + ".internal.secret.Secret")
			.withMessageNotContaining("fine()");
	}

	@Test
	void thePublicApiIsReadFromTheCode() {
		assertThat(RULES.publicApi(FIXTURE)).containsExactly("a.A", "api.Leaky", "api.PublicBootCondition",
				"api.PublicCondition", "b.B", "boot.LooseAutoConfiguration", "boot.TidyAutoConfiguration");
		assertThat(RULES.publicTypes(FIXTURE)).contains("internal.secret.Secret");
	}

	@Test
	void anAutoConfigurationThatIsNotFinalFails() {
		assertFails(RULES.autoConfigurationsArePublicAndFinal(), "LooseAutoConfiguration> does not have modifier FINAL")
			.withMessageNotContaining("TidyAutoConfiguration");
	}

	@Test
	void aPublicMemberOfAnAutoConfigurationItsNestedOrImportedConfigurationFails() {
		assertFails(RULES.autoConfigurationsHaveNoPublicMembers(), "LooseAutoConfiguration.visible is public",
				"LooseAutoConfiguration.<init>(" + ROOT + ".boot.Thing) is public",
				"LooseAutoConfiguration.publicThing() is public", "LooseAutoConfiguration$Nested.nestedName() is public",
				"ImportedConfiguration.importedName() is public")
			.withMessageContaining("was violated (5 times)")
			.withMessageNotContaining("Tidy");
	}

	@Test
	void aClassConditionOnABeanMethodFails() {
		assertFails(RULES.noConditionalOnClassOnBeanMethods(), "LooseAutoConfiguration.classConditioned()")
			.withMessageNotContaining("Tidy");
	}

	@Test
	void aBeanPostProcessorMethodThatIsNotStaticOrInitialisesABeanEarlyFails() {
		assertFails(RULES.beanPostProcessorMethodsAreStaticAndInitialiseNothingEarly(),
				"LooseAutoConfiguration.eagerPostProcessor(" + ROOT + ".boot.Thing)> does not have modifier STATIC",
				"initialises that bean before the post-processor exists")
			.withMessageContaining("was violated (2 times)")
			.withMessageNotContaining("Tidy");
	}

	@Test
	void aBeanFactoryPostProcessorMethodThatIsNotStaticOrTakesMoreThanTheEnvironmentFails() {
		assertFails(RULES.beanFactoryPostProcessorMethodsAreStaticAndTakeOnlyTheEnvironment(),
				"busyFactoryPostProcessor(" + ROOT + ".boot.Thing)> does not have modifier STATIC", "is not the Environment")
			.withMessageContaining("was violated (2 times)")
			.withMessageNotContaining("Tidy");
	}

	@Test
	void aBeanMethodReturningAPrivateTypeFails() {
		assertFails(RULES.beanMethodsReturnNoPrivateType(),
				"LooseAutoConfiguration.hidden() returns the private " + ROOT + ".boot.LooseAutoConfiguration$Hidden")
			.withMessageContaining("was violated (1 times)");
	}

	@Test
	void aMissingBeanConditionNamingOnlyTheReturnTypeFails() {
		assertFails(RULES.conditionalOnMissingBeanNamesMoreThanTheReturnType(),
				"LooseAutoConfiguration.thing(): @ConditionalOnMissingBean names only the method's return type")
			.withMessageNotContaining("Tidy");
	}

	@Test
	void configurationPropertiesSayingOnlyTheirPrefixAsPrefixFail() {
		assertFails(RULES.configurationPropertiesNameTheirPrefixAsValue(),
				ROOT + ".boot.LooseProperties: @ConfigurationProperties(prefix = ...) says only its prefix")
			.withMessageNotContaining("Tidy");
	}

	@Test
	void configurationPropertiesThatLoseTheirOrderFail() {
		assertFails(RULES.configurationPropertiesKeepTheirOrder(),
				"LooseProperties.byName starts as a java.util.HashMap: use java.util.LinkedHashMap or java.util.EnumMap",
				"LooseProperties.names starts as a java.util.HashSet: use java.util.LinkedHashSet")
			.withMessageContaining("was violated (2 times)");
	}

	@Test
	void aBindingConverterMethodThatIsNotStaticFails() {
		assertFails(RULES.configurationPropertiesBindingMethodsAreStatic(), "LooseAutoConfiguration.thingConverter()")
			.withMessageNotContaining("Tidy");
	}

	@Test
	void aDeprecatedPropertyWithoutSinceFails() {
		assertFails(RULES.deprecatedConfigurationPropertiesSaySince(),
				"LooseProperties.getOld(): @DeprecatedConfigurationProperty without 'since'")
			.withMessageNotContaining("Tidy");
	}

	@Test
	void theJdkCallsSpringBootsRulesForbidFail() {
		assertFails(RULES.noCollectorsToList(), "LooseCalls.calls()> calls method <java.util.stream.Collectors.toList()>")
			.withMessageNotContaining("Tidy");
		assertFails(RULES.noCaseConversionWithoutLocale(), "calls method <java.lang.String.toLowerCase()>",
				"calls method <java.lang.String.toUpperCase()>")
			.withMessageNotContaining("Tidy");
		assertFails(RULES.noUrlCodingByCharsetName(), "calls method <java.net.URLEncoder.encode(java.lang.String, java.lang.String)>",
				"calls method <java.net.URLDecoder.decode(java.lang.String, java.lang.String)>")
			.withMessageNotContaining("Tidy");
	}

	@Test
	void theMapMayNotUseAPackageAboveItNorHaveACycle() {
		PackageMap broken = new PackageMap.Builder(ROOT)
			.module("startup-telemetry-autoconfigure", null, "every server", "what a server runs")
			.module("startup-telemetry-fleet", null, "a supervisor", "the fleet")
			.uses("startup-telemetry-autoconfigure", "startup-telemetry-kubernetes")
			.module("startup-telemetry-kubernetes", null, "pods", "Kubernetes")
			.uses("startup-telemetry-autoconfigure", "startup-telemetry-fleet")
			.inModule("startup-telemetry-autoconfigure")
			.add("report", "the model")
			.uses("report.render")
			.add("timeline", "the values")
			.uses("timeline.internal")
			.add("timeline.internal", "how they are measured")
			.uses("timeline", "timeline.internal", "nowhere")
			.inModule("startup-telemetry-fleet")
			.add("report.render", "the renderers")
			.uses("report", "launch.kubernetes")
			.inModule("startup-telemetry-kubernetes")
			.add("launch.kubernetes", "the pods")
			.uses("report.render")
			.allowClassCycle("a fixture", "report.Lonely")
			.allowClassCycle("a fixture", "report.A", "report.B")
			.allowClassCycle("a fixture", "report.B", "report.C")
			.build();
		assertThat(broken.problems()).containsExactly(
				"module startup-telemetry-fleet depends on startup-telemetry-kubernetes, which is not a module declared before it",
				"report (startup-telemetry-autoconfigure) may not use report.render (startup-telemetry-fleet): it sits above it",
				"timeline.internal names itself", "timeline.internal uses nowhere, which is not in the map",
				"report.render (startup-telemetry-fleet) may not use launch.kubernetes (startup-telemetry-kubernetes): it sits above it",
				"a cycle between packages: report -> report.render -> report",
				"a cycle between packages: report.render -> launch.kubernetes -> report.render",
				"a cycle between packages: timeline -> timeline.internal -> timeline",
				"a cycle between packages: timeline.internal -> timeline.internal",
				"an allowed class cycle of fewer than two classes: [report.Lonely]",
				"report.B is in two allowed class cycles (a class is in one cycle at most)");
	}

	private static org.assertj.core.api.ThrowableAssertAlternative<AssertionError> assertFails(ArchRule rule,
			String... messages) {
		var failure = assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> rule.check(FIXTURE));
		for (String message : messages) {
			failure.withMessageContaining(message);
		}
		return failure;
	}

	/** The fixture's map: with or without package {@code b}, allowing those class cycles. */
	private static PackageMap map(boolean withB, List<List<String>> cycles) {
		PackageMap.Builder map = new PackageMap.Builder(ROOT).module("fixture", null, "the tests", "the fixture")
			.add("a", "half of a cycle")
			.uses("b");
		if (withB) {
			map.add("b", "the other half").uses("a");
		}
		map.add("api", "what users see")
			.uses("internal.secret")
			.jdkOnly()
			.add("internal.secret", "what they must not")
			.jdkOnly()
			.add("cycle", "class cycles in one package")
			.jdkOnly()
			.add("javadoc", "an import only Javadoc uses")
			.uses("b")
			.jdkOnly()
			.add("boot", "what Spring Boot's rules forbid")
			.beyond("Spring Boot");
		cycles.forEach((cycle) -> map.allowClassCycle("a fixture", cycle.toArray(String[]::new)));
		return map.build();
	}

	private static PackageMap map(boolean withB) {
		return map(withB, List.of());
	}

}
