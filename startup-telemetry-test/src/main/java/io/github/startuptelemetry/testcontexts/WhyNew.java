package io.github.startuptelemetry.testcontexts;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.testcontexts.internal.Difference;
import io.github.startuptelemetry.testcontexts.internal.TestContextReport;
import io.github.startuptelemetry.testcontexts.internal.Why;

/**
 * Why each context of a JVM was created rather than taken from the cache: the same configuration
 * as one closed since (by {@code @DirtiesContext}, an eviction, a failure), or the difference from
 * the nearest earlier one, in words a developer can act on.
 */
final class WhyNew {

	private WhyNew() {
	}

	/** The JVM's contexts, each named and explained against the ones before it. */
	static List<TestContextReport> explain(List<ContextRecord> records, long pid) {
		List<ContextFacts> facts = new ArrayList<>();
		Map<String, Integer> creations = new HashMap<>();
		List<TestContextReport> reports = new ArrayList<>();
		for (int i = 0; i < records.size(); i++) {
			ContextRecord record = records.get(i);
			ContextFacts own = ContextFacts.of(record.config());
			facts.add(own);
			int creation = creations.merge(own.name(), 1, Integer::sum);
			String name = (creation > 1) ? own.name() + " (again, #" + creation + ")" : own.name();
			reports.add(record.report(own, name, why(records, facts, i), pid));
		}
		return reports;
	}

	private static Why why(List<ContextRecord> records, List<ContextFacts> facts, int index) {
		if (index == 0) {
			return Why.first();
		}
		ContextRecord record = records.get(index);
		for (int i = index - 1; i >= 0; i--) {
			ContextRecord earlier = records.get(i);
			if (earlier.config().equals(record.config())) {
				return sameAs(earlier);
			}
		}
		int nearest = 0;
		int distance = Integer.MAX_VALUE;
		for (int i = 0; i < index; i++) {
			int to = facts.get(index).distance(facts.get(i));
			// the nearest; of equally near ones, one still cached (the one a developer could have had)
			if (to < distance || (to == distance && records.get(nearest).isClosed() && !records.get(i).isClosed())) {
				nearest = i;
				distance = to;
			}
		}
		ContextRecord near = records.get(nearest);
		List<Difference> differences = facts.get(index).differencesFrom(facts.get(nearest));
		String text = "differs from #" + near.number() + " (" + near.creator() + ") in "
				+ String.join(", ", differences.stream().map(Difference::aspect).toList());
		return new Why(text, near.number(), differences, null, null,
				differences.isEmpty() ? null : hint(differences.get(0).aspect()));
	}

	/** The very same configuration as {@code earlier}, which is no longer in the cache. */
	private static Why sameAs(ContextRecord earlier) {
		String closedBy = earlier.closedBy();
		String reason;
		String hint;
		if (earlier.failed()) {
			reason = "which failed to start";
			hint = null;
		}
		else if (closedBy != null && closedBy.startsWith(CloseCause.DIRTIES_CONTEXT)) {
			reason = "which was closed by " + closedBy;
			hint = "drop @DirtiesContext where the test leaves the context usable, or dirty it in fewer classes:"
					+ " each dirtied context is started again by the next class that needs it";
		}
		else if (closedBy != null && closedBy.startsWith(CloseCause.EVICTION)) {
			reason = "which was closed by " + closedBy;
			hint = "the cache holds " + CloseCause.cacheMaxSize() + " contexts: raise -D"
					+ CloseCause.MAX_SIZE_PROPERTY + " or make fewer configurations";
		}
		else {
			reason = (closedBy != null) ? "which was closed by " + closedBy : "which was no longer cached";
			hint = null;
		}
		return new Why("the same configuration as #" + earlier.number() + " (" + earlier.creator() + "), " + reason,
				earlier.number(), List.of(), earlier.number(), null, hint);
	}

	/** What to change so that a test class reuses the nearest context, for the first aspect that differs. */
	static @Nullable String hint(String aspect) {
		return switch (aspect) {
			case ContextFacts.BEAN_OVERRIDES -> "each set of @MockitoBean, @MockitoSpyBean and @TestBean fields is a"
					+ " context of its own: declare the same ones (same types, same field names) in a base class the"
					+ " test classes share, so that they share one context";
			case ContextFacts.PROPERTIES, ContextFacts.PROPERTY_FILES -> "a property set for some test classes only"
					+ " makes their own context: set it for all (src/test/resources, a shared base class's"
					+ " @TestPropertySource), or keep it only where the test needs another value";
			case ContextFacts.PROFILES -> "different @ActiveProfiles make different contexts: give the classes that"
					+ " could share one the same profiles (a shared base class)";
			case ContextFacts.DYNAMIC_PROPERTIES -> "each class's own @DynamicPropertySource method is part of the"
					+ " key: declare it once, in a base class the test classes share";
			case ContextFacts.SPRING_BOOT_TEST -> "another webEnvironment, args or useMainMethod starts another"
					+ " context: use the same @SpringBootTest settings where the tests allow";
			case ContextFacts.CLASSES, ContextFacts.LOCATIONS, ContextFacts.IMPORTS, ContextFacts.TYPE_FILTERS,
					ContextFacts.PROPERTY_MAPPINGS -> "another configuration (classes, @Import, a slice and its"
							+ " filters) is another context: expected for a slice test; full @SpringBootTest classes"
							+ " can share one configuration";
			case ContextFacts.INITIALIZERS -> "different context initializers make different contexts: use the same"
					+ " ones where the tests allow";
			case ContextFacts.APPLICATION_CONTEXT, ContextFacts.LOADER -> "a web and a plain context, or a Spring"
					+ " and a Boot test, never share a context";
			case ContextFacts.PARENT -> "a different @ContextHierarchy parent is a different context";
			default -> null;
		};
	}

}
