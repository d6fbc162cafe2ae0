package io.github.startuptelemetry.testcontexts;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.Test;

import org.springframework.test.context.BootstrapUtils;
import org.springframework.test.context.MergedContextConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.testcontexts.fixture.Suite;
import io.github.startuptelemetry.testcontexts.internal.Difference;

/**
 * A context's configuration as facts and a name, from the key Spring builds for a test class (no
 * context started): equal keys, equal names; each difference said by what the key compares.
 */
class ContextFactsTest {

	@Test
	void classesThatShareAContextShareItsName() {
		ContextFacts base = facts(Suite.A_BaseTest.class);
		assertThat(facts(Suite.B_SameAsBaseTest.class).name()).isEqualTo(base.name());
		assertThat(facts(Suite.E_DirtiesTest.class).name()).isEqualTo(base.name());
		assertThat(base.name()).matches("DemoApp #[0-9a-f]{6}");
		assertThat(base.boot()).isTrue();
		assertThat(facts(Suite.C_MockedTest.class).name()).isNotEqualTo(base.name());
	}

	@Test
	void aMockedBeanIsTheDifference() {
		ContextFacts mocked = facts(Suite.C_MockedTest.class);
		assertThat(mocked.label()).isEqualTo("DemoApp · @MockitoBean DemoApp.GreetingService");
		assertThat(mocked.differencesFrom(facts(Suite.A_BaseTest.class))).containsExactly(new Difference(
				ContextFacts.BEAN_OVERRIDES, List.of("@MockitoBean DemoApp.GreetingService (field greetings)"), List.of()));
		assertThat(facts(Suite.A_BaseTest.class).differencesFrom(mocked)).containsExactly(new Difference(
				ContextFacts.BEAN_OVERRIDES, List.of(), List.of("@MockitoBean DemoApp.GreetingService (field greetings)")));
		assertThat(mocked.distance(facts(Suite.A_BaseTest.class))).isEqualTo(1);
	}

	@Test
	void aPropertyIsTheDifference() {
		ContextFacts property = facts(Suite.D_PropertyTest.class);
		assertThat(property.label()).isEqualTo("DemoApp · demo.flag=on");
		assertThat(property.differencesFrom(facts(Suite.A_BaseTest.class)))
			.containsExactly(new Difference(ContextFacts.PROPERTIES, List.of("demo.flag=on"), List.of()));
	}

	@Test
	void plainSpringDiffersInItsClassesAndLoader() {
		ContextFacts plain = facts(Suite.G_PlainSpringTest.class);
		assertThat(plain.boot()).isFalse();
		assertThat(plain.differencesFrom(facts(Suite.A_BaseTest.class))).extracting(Difference::aspect)
			.contains(ContextFacts.CLASSES, ContextFacts.LOADER);
	}

	@Test
	void theFactsTellNoIdentityHashCodes() {
		Pattern identity = Pattern.compile("@[0-9a-f]{5,}");
		for (Class<?> test : List.of(Suite.A_BaseTest.class, Suite.C_MockedTest.class, Suite.D_PropertyTest.class,
				Suite.G_PlainSpringTest.class)) {
			facts(test).aspects()
				.forEach((aspect, values) -> assertThat(values).noneMatch((value) -> identity.matcher(value).find()));
		}
	}

	@Test
	void whatEveryBootTestCarriesSaysNothing() {
		Map<String, List<String>> aspects = facts(Suite.A_BaseTest.class).aspects();
		assertThat(aspects).doesNotContainKey(ContextFacts.PROPERTY_MAPPINGS);
		assertThat(aspects.get(ContextFacts.CUSTOMIZERS)).contains("DuplicateJsonObjectContextCustomizer");
		assertThat(aspects.values()).allSatisfy((values) -> assertThat(values).noneMatch((value) -> value.contains("logger=")));
	}

	@Test
	void aTypeWithoutAToStringOfItsOwnIsToldByItsFields() {
		assertThat(ValueText.of(new Holder("x", List.of(3, 1, 2)))).isEqualTo("Holder[name=x, values=[1, 2, 3]]");
		assertThat(ValueText.of(new Object())).isEqualTo("Object[]");
		// a logger is no part of a configuration (Boot's DuplicateJsonObjectContextCustomizer holds one)
		assertThat(ValueText.of(new Logged("x"))).isEqualTo("Logged[name=x]");
	}

	static ContextFacts facts(Class<?> testClass) {
		return ContextFacts.of(config(testClass));
	}

	static MergedContextConfiguration config(Class<?> testClass) {
		return BootstrapUtils.resolveTestContextBootstrapper(testClass).buildMergedContextConfiguration();
	}

	static final class Logged {

		private final Log logger = LogFactory.getLog(Logged.class);

		private final String name;

		Logged(String name) {
			this.name = name;
		}

	}

	static final class Holder {

		private final String name;

		private final List<Integer> values;

		Holder(String name, List<Integer> values) {
			this.name = name;
			this.values = values;
		}

	}

}
