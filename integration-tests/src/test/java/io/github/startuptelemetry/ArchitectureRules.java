package io.github.startuptelemetry;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceRule;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The rules {@link ArchitectureTest} holds the starter to, for any root package and any
 * architecture page, so that {@link ArchitectureRulesTest} can show each of them failing on a
 * deliberate violation.
 */
final class ArchitectureRules {

	/** Beyond the JDK, what a {@code JDK only} package may still use: nullness annotations. */
	private static final List<String> JDK = List.of("java.", "javax.", "jdk.", "com.sun.", "sun.", "org.jspecify.");

	private final String root;

	ArchitectureRules(String root) {
		this.root = root;
	}

	/**
	 * No cycle between packages (each package is a slice of its own, its subpackages slices of
	 * their own), but those the page's Exceptions allow: dependencies between their packages are
	 * not looked at.
	 */
	ArchRule noCycles(ArchitectureDoc doc) {
		SliceRule rule = slices().matching(this.root + ".(**)").should().beFreeOfCycles();
		for (List<String> cycle : doc.allowedCycles()) {
			DescribedPredicate<JavaClass> inCycle = DescribedPredicate.describe("in " + cycle,
					(type) -> cycle.contains(relative(type.getPackageName())));
			rule = rule.ignoreDependency(inCycle, inCycle);
		}
		return rule;
	}

	/** Each package depends on no package of ours but those its Packages row names (and on nothing beyond the JDK when it says so). */
	ArchRule dependenciesAsDocumented(ArchitectureDoc doc) {
		return classes().that()
			.resideInAPackage(this.root + "..")
			.should(new ArchCondition<JavaClass>("depend only on the packages architecture.md's table allows") {

				@Override
				public void check(JavaClass origin, ConditionEvents events) {
					String from = relative(origin.getPackageName());
					ArchitectureDoc.Allowed allowed = doc.packages().get(from);
					if (allowed == null) {
						events.add(SimpleConditionEvent.violated(origin,
								"package " + from + " of " + origin.getName() + " is not in the Packages table"));
						return;
					}
					for (Dependency dependency : origin.getDirectDependenciesFromSelf()) {
						JavaClass target = dependency.getTargetClass().getBaseComponentType();
						if (target.isPrimitive()) {
							continue;
						}
						String to = target.getPackageName();
						boolean ours = to.equals(ArchitectureRules.this.root) || to.startsWith(ArchitectureRules.this.root + ".");
						if (ours ? !relative(to).equals(from) && !allowed.allows(relative(to))
								: allowed.jdkOnly() && !startsWithAny(to, JDK)) {
							events.add(SimpleConditionEvent.violated(dependency,
									from + " may not depend on " + (ours ? relative(to) : to) + ": "
											+ dependency.getDescription()));
						}
					}
				}

			});
	}

	/**
	 * No public condition: Spring Boot's own build forbids them (a condition is applied through
	 * its annotation; a public class invites using it directly, and makes it API).
	 */
	ArchRule noPublicCondition() {
		return noClasses().that()
			.resideInAPackage(this.root + "..")
			.and()
			.areAssignableTo("org.springframework.context.annotation.Condition")
			.should()
			.bePublic()
			.because("Spring Boot's own build forbids public conditions: apply one through its annotation");
	}

	/**
	 * No type a user can see outside {@code internal} shows an {@code internal} type: not as its
	 * supertype, nor in a public or protected member's type, parameters, return type, type
	 * arguments or throws clause.
	 */
	ArchRule noApiExposesInternal() {
		return classes().that(api())
			.should(new ArchCondition<JavaClass>("expose no internal type in their public or protected signatures") {

				@Override
				public void check(JavaClass type, ConditionEvents events) {
					List<JavaType> shown = new ArrayList<>();
					type.getRawSuperclass().ifPresent(shown::add);
					shown.addAll(type.getInterfaces());
					report(type, type.getName(), shown, events);
					for (JavaMember member : type.getMembers()) {
						if (!visible(member) || member.getModifiers().contains(JavaModifier.SYNTHETIC)
								|| member.getModifiers().contains(JavaModifier.BRIDGE)) {
							continue;
						}
						List<JavaType> types = new ArrayList<>();
						if (member instanceof JavaField field) {
							types.add(field.getType());
						}
						else if (member instanceof JavaCodeUnit code) {
							types.add(code.getReturnType());
							types.addAll(code.getParameterTypes());
							types.addAll(code.getThrowsClause().getTypes());
						}
						report(type, member.getFullName(), types, events);
					}
				}

				private void report(JavaClass owner, String where, List<? extends JavaType> types, ConditionEvents events) {
					for (JavaType shown : types) {
						for (JavaClass raw : shown.getAllInvolvedRawTypes()) {
							if (internal(raw.getBaseComponentType().getPackageName())) {
								events.add(SimpleConditionEvent.violated(owner, where + " exposes " + raw.getName()));
							}
						}
					}
				}

			});
	}

	/** The public top-level types outside {@code internal}, relative to the root: the API as the code has it. */
	Set<String> publicApi(JavaClasses classes) {
		Set<String> api = new TreeSet<>();
		for (JavaClass type : classes) {
			if (api().test(type) && type.isTopLevelClass()) {
				api.add(relative(type.getName()));
			}
		}
		return api;
	}

	/** The public top-level types of the whole jar, {@code internal} included. */
	Set<String> publicTypes(JavaClasses classes) {
		Set<String> all = new TreeSet<>();
		for (JavaClass type : classes) {
			if (type.isTopLevelClass() && type.getModifiers().contains(JavaModifier.PUBLIC)
					&& !type.getSimpleName().equals("package-info")) {
				all.add(relative(type.getName()));
			}
		}
		return all;
	}

	/** A type a user can name from outside its package, outside {@code internal}. */
	private DescribedPredicate<JavaClass> api() {
		return DescribedPredicate.describe("are API (accessible from another package, outside internal)",
				(type) -> type.getPackageName().startsWith(this.root) && !internal(type.getPackageName())
						&& accessible(type));
	}

	private static boolean accessible(JavaClass type) {
		if (!type.getModifiers().contains(JavaModifier.PUBLIC) || type.isAnonymousClass() || type.isLocalClass()) {
			return false;
		}
		return type.getEnclosingClass().map(ArchitectureRules::accessible).orElse(true);
	}

	private static boolean visible(JavaMember member) {
		return member.getModifiers().contains(JavaModifier.PUBLIC)
				|| member.getModifiers().contains(JavaModifier.PROTECTED);
	}

	/** An {@code internal} package: the root's, or the leaf of a feature ({@code timeline.internal}). */
	boolean internal(String packageName) {
		return packageName.equals(this.root + ".internal") || packageName.startsWith(this.root + ".internal.")
				|| packageName.endsWith(".internal") && packageName.startsWith(this.root + ".")
				|| packageName.contains(".internal.") && packageName.startsWith(this.root + ".");
	}

	/** {@code io.github.startuptelemetry.report.render.HtmlReport} → {@code report.HtmlReport}. */
	String relative(String name) {
		if (name.equals(this.root)) {
			return "";
		}
		return name.startsWith(this.root + ".") ? name.substring(this.root.length() + 1) : name;
	}

	private static boolean startsWithAny(String name, List<String> prefixes) {
		for (String prefix : prefixes) {
			if (name.startsWith(prefix)) {
				return true;
			}
		}
		return false;
	}

}
