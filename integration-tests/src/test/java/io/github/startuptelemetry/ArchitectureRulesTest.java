package io.github.startuptelemetry;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Each rule {@link ArchitectureTest} holds the starter to fails on a deliberate violation: the
 * classes of {@code archfixture} break every one of them, against a page of their own.
 */
class ArchitectureRulesTest {

	private static final String ROOT = "io.github.startuptelemetry.archfixture";

	private static final JavaClasses FIXTURE = new ClassFileImporter().importPackages(ROOT);

	private static final ArchitectureRules RULES = new ArchitectureRules(ROOT);

	private static final String PAGE = """
			# Fixture

			## Packages

			| package | what | depends on |
			|---|---|---|
			| `a` | half of a cycle | `b` |
			| `b` | the other half | `a` |
			| `api` | what users see | `internal.*`; JDK only |
			| `internal.secret` | what they must not | JDK only |

			## Public API

			| types | why |
			|---|---|
			| `api.Leaky` | the fixture's API |
			""";

	private static final ArchitectureDoc DOC = ArchitectureDoc.parse(PAGE);

	@Test
	void aCycleFails() {
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> RULES.noCycles(DOC).check(FIXTURE))
			.withMessageContaining("Cycle detected: Slice a -> ")
			.withMessageContaining("Slice b");
	}

	@Test
	void aCycleTheExceptionsNamePasses() {
		ArchitectureDoc allowing = ArchitectureDoc.parse(PAGE + """

				## Exceptions

				| what | kind | why |
				|---|---|---|
				| `a`, `b` | cycle | a fixture |
				""");
		RULES.noCycles(allowing).check(FIXTURE);
	}

	@Test
	void aDependencyTheTableDoesNotNameFails() {
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> RULES.dependenciesAsDocumented(DOC).check(FIXTURE))
			.withMessageContaining("a may not depend on api")
			.withMessageContaining("api may not depend on org.springframework.context.annotation")
			.withMessageNotContaining("b may not depend");
	}

	@Test
	void aPackageWithoutARowFails() {
		ArchitectureDoc withoutB = ArchitectureDoc.parse(PAGE.replace("| `b` | the other half | `a` |\n", ""));
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> RULES.dependenciesAsDocumented(withoutB).check(FIXTURE))
			.withMessageContaining("package b of " + ROOT + ".b.B is not in the Packages table");
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
	void thePublicApiIsReadFromTheCodeNotThePage() {
		assertThat(RULES.publicApi(FIXTURE)).containsExactly("a.A", "api.Leaky", "api.PublicBootCondition", "api.PublicCondition", "b.B")
			.isNotEqualTo(DOC.publicApi());
		assertThat(RULES.publicTypes(FIXTURE)).contains("internal.secret.Secret");
	}

}
