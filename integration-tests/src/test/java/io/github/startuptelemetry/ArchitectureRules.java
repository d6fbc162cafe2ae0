package io.github.startuptelemetry;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import java.util.stream.Collectors;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaAnnotation;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaConstructor;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaFieldAccess;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaPackage;
import com.tngtech.archunit.core.domain.JavaParameter;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.lang.AbstractClassesTransformer;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.lang.syntax.elements.GivenMethodsConjunction;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.all;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The rules {@link ArchitectureTest} holds the starter to, for any {@link PackageMap}, so that
 * {@link ArchitectureRulesTest} can show each of them failing on a deliberate violation; among
 * them Spring Boot's own rules for auto-configuration ({@link #springBootRules()}).
 */
final class ArchitectureRules {

	private static final String AUTO_CONFIGURATION = "org.springframework.boot.autoconfigure.AutoConfiguration";

	private static final String CONFIGURATION = "org.springframework.context.annotation.Configuration";

	private static final String IMPORT = "org.springframework.context.annotation.Import";

	private static final String BEAN = "org.springframework.context.annotation.Bean";

	private static final String CONDITIONAL_ON_CLASS = "org.springframework.boot.autoconfigure.condition.ConditionalOnClass";

	private static final String CONDITIONAL_ON_MISSING_BEAN = "org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean";

	private static final String CONFIGURATION_PROPERTIES = "org.springframework.boot.context.properties.ConfigurationProperties";

	private static final String NULL_MARKED = "org.jspecify.annotations.NullMarked";

	private final PackageMap map;

	private final String root;

	ArchitectureRules(PackageMap map) {
		this.map = map;
		this.root = map.root();
	}

	/** No cycle between packages (each package a slice of its own, its subpackages slices of their own). */
	ArchRule noPackageCycles() {
		return slices().matching(this.root + ".(**)").should().beFreeOfCycles();
	}

	/**
	 * Each package depends on no package of ours but those the map lets it use (and on nothing
	 * beyond the JDK when it is JDK only); a package the map does not declare fails.
	 */
	ArchRule dependenciesAsMapped() {
		return classes().that()
			.resideInAPackage(this.root + "..")
			.should(check("depend only on the packages PackageMap allows", (JavaClass origin, ConditionEvents events) -> {
				String from = relative(origin.getPackageName());
				PackageMap.Package allowed = this.map.get(from);
				if (allowed == null) {
					violated(events, origin, "package " + from + " of " + origin.getName() + " is not in PackageMap");
					return;
				}
				Set<String> reported = new TreeSet<>();
				for (Dependency dependency : origin.getDirectDependenciesFromSelf()) {
					JavaClass target = dependency.getTargetClass().getBaseComponentType();
					if (!target.isPrimitive() && !allowed(allowed, target.getPackageName())) {
						reported.add(target.getPackageName());
						violated(events, dependency, from + " may not depend on " + shown(target.getPackageName()) + ": "
								+ dependency.getDescription());
					}
				}
				for (String target : inlinedConstants(origin)) {
					if (!allowed(allowed, packageOf(target)) && reported.add(packageOf(target))) {
						violated(events, origin, from + " may not depend on " + shown(packageOf(target)) + ": "
								+ origin.getName() + " names " + target + " in its constant pool (an inlined constant)");
					}
				}
			}));
	}

	private boolean allowed(PackageMap.Package from, String to) {
		return ours(to) ? from.allows(relative(to)) : !from.jdkOnly() || jdk(to);
	}

	private String shown(String packageName) {
		return ours(packageName) ? relative(packageName) : packageName;
	}

	/**
	 * No cycle between classes, in one package or across packages, but those the map allows for
	 * now, each exactly: a nested, local or anonymous class counts as its top-level class, and a
	 * dependency is one in the bytecode, the class of an inlined constant included (a Javadoc
	 * reference is none). A listed cycle the code no longer has fails too, so that the list only
	 * shrinks.
	 */
	ArchRule noClassCycles() {
		return classes().that()
			.resideInAPackage(this.root + "..")
			.should(new ArchCondition<JavaClass>("be in no cycle between classes, but those PackageMap allows for now") {

				private List<Map<String, Set<String>>> cycles = List.of();

				@Override
				public void init(Collection<JavaClass> all) {
					this.cycles = classCycles(all);
				}

				@Override
				public void check(JavaClass item, ConditionEvents events) {
				}

				@Override
				public void finish(ConditionEvents events) {
					Map<Set<String>, PackageMap.ClassCycle> allowed = new LinkedHashMap<>();
					ArchitectureRules.this.map.allowedClassCycles().forEach((cycle) -> allowed.put(cycle.classes(), cycle));
					for (Map<String, Set<String>> cycle : this.cycles) {
						if (allowed.remove(cycle.keySet()) == null) {
							violated(events, cycle, "a cycle between " + cycle.size() + " classes: " + describe(cycle));
						}
					}
					for (PackageMap.ClassCycle gone : allowed.values()) {
						violated(events, gone, "the allowed class cycle " + gone.classes() + " (" + gone.reason()
								+ ") is not one any more: drop it from PackageMap, or list the classes its cycle has now");
					}
				}

			});
	}

	/**
	 * The cycles between top-level classes (the strongly connected components of two classes or
	 * more), each class relative to the root with the classes of its cycle it depends on, sorted.
	 */
	List<Map<String, Set<String>>> classCycles(Collection<JavaClass> classes) {
		Map<String, Set<String>> graph = new TreeMap<>();
		for (JavaClass type : classes) {
			String from = topLevel(type.getName());
			Set<String> edges = graph.computeIfAbsent(from, (key) -> new TreeSet<>());
			Set<String> targets = new TreeSet<>(inlinedConstants(type));
			for (Dependency dependency : type.getDirectDependenciesFromSelf()) {
				targets.add(dependency.getTargetClass().getBaseComponentType().getName());
			}
			for (String target : targets) {
				String to = topLevel(target);
				if (ours(packageOf(to)) && !to.equals(from)) {
					edges.add(to);
				}
			}
		}
		List<Map<String, Set<String>>> cycles = new ArrayList<>();
		for (Set<String> component : new StronglyConnected(graph).components()) {
			if (component.size() > 1) {
				Map<String, Set<String>> cycle = new TreeMap<>();
				for (String name : component) {
					Set<String> inCycle = new TreeSet<>();
					graph.get(name).stream().filter(component::contains).map(this::relative).forEach(inCycle::add);
					cycle.put(relative(name), inCycle);
				}
				cycles.add(cycle);
			}
		}
		cycles.sort((a, b) -> a.keySet().iterator().next().compareTo(b.keySet().iterator().next()));
		return cycles;
	}

	/** {@code fleet.A → fleet.B, fleet.C; fleet.B → fleet.A; ...}: each class and what it uses in the cycle. */
	static String describe(Map<String, Set<String>> cycle) {
		return cycle.entrySet()
			.stream()
			.map((entry) -> entry.getKey() + " → " + String.join(", ", entry.getValue()))
			.collect(Collectors.joining("; "));
	}

	/** Every package of ours says {@code @NullMarked} in its {@code package-info.java}. */
	ArchRule packagesAreNullMarked() {
		return all(new AbstractClassesTransformer<JavaPackage>("packages of ours") {

			@Override
			public Iterable<JavaPackage> doTransform(JavaClasses classes) {
				Map<String, JavaPackage> packages = new TreeMap<>();
				for (JavaClass type : classes) {
					if (ours(type.getPackageName())) {
						packages.put(type.getPackageName(), type.getPackage());
					}
				}
				return packages.values();
			}

		}).should(check("be @NullMarked", (JavaPackage pkg, ConditionEvents events) -> {
			if (!pkg.isAnnotatedWith(NULL_MARKED)) {
				violated(events, pkg, "package " + pkg.getName() + " is not @NullMarked (in its package-info.java)");
			}
		}));
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
								violated(events, owner, where + " exposes " + raw.getName());
							}
						}
					}
				}

			});
	}

	/** Spring Boot's own rules that fit an auto-configure module (the class Javadoc says which). */
	List<ArchRule> springBootRules() {
		return List.of(autoConfigurationsArePublicAndFinal(), autoConfigurationsHaveNoPublicMembers(),
				noConditionalOnClassOnBeanMethods(), beanPostProcessorMethodsAreStaticAndInitialiseNothingEarly(),
				beanFactoryPostProcessorMethodsAreStaticAndTakeOnlyTheEnvironment(), beanMethodsReturnNoPrivateType(),
				conditionalOnMissingBeanNamesMoreThanTheReturnType(), configurationPropertiesNameTheirPrefixAsValue(),
				configurationPropertiesKeepTheirOrder(), configurationPropertiesBindingMethodsAreStatic(),
				deprecatedConfigurationPropertiesSaySince(), noCollectorsToList(), noCaseConversionWithoutLocale(),
				noUrlCodingByCharsetName());
	}

	/** Boot's: an auto-configuration class is public (a user excludes and orders by it) and final. */
	ArchRule autoConfigurationsArePublicAndFinal() {
		return classes().that(autoConfigurations())
			.should()
			.bePublic()
			.andShould()
			.haveModifier(JavaModifier.FINAL)
			.as("auto-configuration classes should be public and final, as Spring Boot's are");
	}

	/**
	 * Boot's: an auto-configuration, its nested configuration classes and the configuration
	 * classes of ours it imports have no public member but a no-arg constructor, a constant or an
	 * override of a public method: the class is API only as a name to exclude or order by.
	 */
	ArchRule autoConfigurationsHaveNoPublicMembers() {
		return all(new AbstractClassesTransformer<JavaClass>("auto-configurations, the configuration classes nested "
				+ "in them and those of ours they import") {

			@Override
			public Iterable<JavaClass> doTransform(JavaClasses classes) {
				Map<String, JavaClass> found = new TreeMap<>();
				for (JavaClass type : classes) {
					if (autoConfigurations().test(type) || (type.isMetaAnnotatedWith(CONFIGURATION) && nestedInAutoConfiguration(type))) {
						addWithImports(type, found);
					}
				}
				return found.values();
			}

		}).should(check("have no public members but no-arg constructors, constants and overrides",
				(JavaClass type, ConditionEvents events) -> {
					for (JavaMember member : type.getMembers()) {
						if (member.getModifiers().contains(JavaModifier.PUBLIC) && !allowedPublic(member)) {
							violated(events, member, member.getFullName() + " is public in a configuration class: "
									+ "make it package-private, as Spring Boot's are");
						}
					}
				}));
	}

	/**
	 * Boot's: {@code @ConditionalOnClass} on a {@code @Bean} method does not keep the method's
	 * signature from being loaded; the condition belongs on a configuration class.
	 */
	ArchRule noConditionalOnClassOnBeanMethods() {
		return methods().that()
			.areAnnotatedWith(BEAN)
			.should()
			.notBeAnnotatedWith(CONDITIONAL_ON_CLASS)
			.because("it does not keep the method's signature from being loaded: put the condition on a "
					+ "(nested) configuration class, as Spring Boot's build requires")
			.allowEmptyShould(true);
	}

	/**
	 * Boot's: a {@code @Bean} method returning a {@code BeanPostProcessor} is static, and each of
	 * its parameters is {@code @Lazy}, an {@code ObjectProvider}, the {@code ApplicationContext},
	 * the {@code Environment} or an infrastructure bean: anything else is created before the
	 * post-processor can process it.
	 */
	ArchRule beanPostProcessorMethodsAreStaticAndInitialiseNothingEarly() {
		return beanMethodsReturning("org.springframework.beans.factory.config.BeanPostProcessor").should()
			.beStatic()
			.andShould(check("take only parameters that initialise no bean early", (JavaMethod method, ConditionEvents events) -> {
				for (JavaParameter parameter : method.getParameters()) {
					if (!parameter.isAnnotatedWith("org.springframework.context.annotation.Lazy")
							&& !safeToInject(parameter.getRawType())) {
						violated(events, parameter, parameter.getDescription() + " initialises that bean before the "
								+ "post-processor exists: take an ObjectProvider, or make it @Lazy");
					}
				}
			}))
			.allowEmptyShould(true);
	}

	/**
	 * Boot's: a {@code @Bean} method returning a {@code BeanFactoryPostProcessor} is static and
	 * takes nothing but the {@code Environment}.
	 */
	ArchRule beanFactoryPostProcessorMethodsAreStaticAndTakeOnlyTheEnvironment() {
		return beanMethodsReturning("org.springframework.beans.factory.config.BeanFactoryPostProcessor").should()
			.beStatic()
			.andShould(check("take nothing but the Environment", (JavaMethod method, ConditionEvents events) -> {
				for (JavaParameter parameter : method.getParameters()) {
					if (!parameter.getRawType().getName().equals("org.springframework.core.env.Environment")) {
						violated(events, parameter, parameter.getDescription() + " is not the Environment");
					}
				}
			}))
			.allowEmptyShould(true);
	}

	/** Boot's: a {@code @Bean} method returns no private type (Spring AOT cannot name one). */
	ArchRule beanMethodsReturnNoPrivateType() {
		return methods().that()
			.areAnnotatedWith(BEAN)
			.should(check("not return a private type (Spring AOT cannot name it)", (JavaMethod method, ConditionEvents events) -> {
				if (method.getRawReturnType().getModifiers().contains(JavaModifier.PRIVATE)) {
					violated(events, method, method.getFullName() + " returns the private " + method.getRawReturnType().getName());
				}
			}))
			.allowEmptyShould(true);
	}

	/** Boot's: {@code @ConditionalOnMissingBean(X.class)} on a method returning {@code X} says nothing the default does not. */
	ArchRule conditionalOnMissingBeanNamesMoreThanTheReturnType() {
		return methods().that()
			.areAnnotatedWith(CONDITIONAL_ON_MISSING_BEAN)
			.should(check("not name only their return type in @ConditionalOnMissingBean (the default)",
					(JavaMethod method, ConditionEvents events) -> {
						JavaAnnotation<JavaMethod> condition = method.getAnnotationOfType(CONDITIONAL_ON_MISSING_BEAN);
						if (!set(condition, "type") && !set(condition, "name") && condition.get("value")
							.map((value) -> ((Object[]) value).length == 1 && method.getReturnType().equals(((Object[]) value)[0]))
							.orElse(false)) {
							violated(events, method, method.getFullName()
									+ ": @ConditionalOnMissingBean names only the method's return type, which it looks for anyway");
						}
					}))
			.allowEmptyShould(true);
	}

	/** Boot's: {@code @ConfigurationProperties("a.b")}, not {@code (prefix = "a.b")} when the prefix is all it says. */
	ArchRule configurationPropertiesNameTheirPrefixAsValue() {
		return classes().that()
			.areAnnotatedWith(CONFIGURATION_PROPERTIES)
			.should(check("name their prefix as value when it is all they say", (JavaClass type, ConditionEvents events) -> {
				JavaAnnotation<?> annotation = type.getAnnotationOfType(CONFIGURATION_PROPERTIES);
				Map<String, Object> properties = annotation.getProperties();
				// absent: the default (the annotation's type is not imported, so its defaults are not either)
				if (set(annotation, "prefix") && !set(annotation, "value")
						&& !Boolean.TRUE.equals(properties.get("ignoreInvalidFields"))
						&& !Boolean.FALSE.equals(properties.get("ignoreUnknownFields"))) {
					violated(events, type, type.getName() + ": @ConfigurationProperties(prefix = ...) says only its "
							+ "prefix: write it as the value");
				}
			}))
			.allowEmptyShould(true);
	}

	/**
	 * Boot's: a {@code Set} or {@code Map} property of a {@code @ConfigurationProperties} class
	 * (or a class nested in one) starts as a {@code LinkedHashSet}, {@code LinkedHashMap} or
	 * {@code EnumMap}, so that it keeps the order it was bound in.
	 */
	ArchRule configurationPropertiesKeepTheirOrder() {
		Map<String, List<String>> ordered = Map.of("java.util.Set", List.of("java.util.LinkedHashSet"), "java.util.Map",
				List.of("java.util.LinkedHashMap", "java.util.EnumMap"));
		return classes().that(DescribedPredicate.describe("are or are nested in @ConfigurationProperties",
				ArchitectureRules::inConfigurationProperties))
			.should(check("start their Set and Map properties ordered", (JavaClass type, ConditionEvents events) -> {
				for (JavaField field : type.getFields()) {
					List<String> allowed = ordered.get(field.getRawType().getName());
					if (allowed == null) {
						continue;
					}
					for (JavaFieldAccess access : field.getAccessesToSelf()) {
						if (access.getAccessType() != JavaFieldAccess.AccessType.SET) {
							continue;
						}
						access.getOrigin()
							.getConstructorCallsFromSelf()
							.stream()
							.filter((call) -> call.getLineNumber() == access.getLineNumber())
							.map((call) -> call.getTargetOwner())
							.filter((created) -> !allowed.contains(created.getName()))
							.forEach((created) -> violated(events, field, field.getFullName() + " starts as a "
									+ created.getName() + ": use " + String.join(" or ", allowed) + " (bound order kept)"));
					}
				}
			}))
			.allowEmptyShould(true);
	}

	/** Boot's: a {@code @ConfigurationPropertiesBinding} converter's {@code @Bean} method is static. */
	ArchRule configurationPropertiesBindingMethodsAreStatic() {
		return methods().that()
			.areAnnotatedWith(BEAN)
			.and()
			.areAnnotatedWith("org.springframework.boot.context.properties.ConfigurationPropertiesBinding")
			.should()
			.beStatic()
			.allowEmptyShould(true);
	}

	/** Boot's: {@code @DeprecatedConfigurationProperty} says since when. */
	ArchRule deprecatedConfigurationPropertiesSaySince() {
		String deprecated = "org.springframework.boot.context.properties.DeprecatedConfigurationProperty";
		return methods().that()
			.areAnnotatedWith(deprecated)
			.should(check("say since when", (JavaMethod method, ConditionEvents events) -> {
				if (!set(method.getAnnotationOfType(deprecated), "since")) {
					violated(events, method, method.getFullName() + ": @DeprecatedConfigurationProperty without 'since'");
				}
			}))
			.allowEmptyShould(true);
	}

	/** Boot's: {@code Stream.toList()}, not {@code Collectors.toList()}. */
	ArchRule noCollectorsToList() {
		return noClasses().should()
			.callMethod(Collectors.class, "toList")
			.because("Stream.toList() says the same, unmodifiable, as Spring Boot's build requires");
	}

	/** Boot's: {@code toLowerCase(Locale.ROOT)}, never the default locale's (a Turkish one turns I into ı). */
	ArchRule noCaseConversionWithoutLocale() {
		return noClasses().should()
			.callMethod(String.class, "toLowerCase")
			.orShould()
			.callMethod(String.class, "toUpperCase")
			.because("the default locale changes the result (Turkish: I → ı): pass Locale.ROOT, as Spring Boot's build requires");
	}

	/** Boot's: {@code URLEncoder}/{@code URLDecoder} with a {@code Charset}, not a charset name. */
	ArchRule noUrlCodingByCharsetName() {
		return noClasses().should()
			.callMethod(URLEncoder.class, "encode", String.class, String.class)
			.orShould()
			.callMethod(URLDecoder.class, "decode", String.class, String.class)
			.because("the Charset overloads cannot fail on a name, as Spring Boot's build requires");
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
				(type) -> ours(type.getPackageName()) && !internal(type.getPackageName()) && accessible(type));
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

	private static DescribedPredicate<JavaClass> autoConfigurations() {
		return DescribedPredicate.describe("are auto-configurations",
				(JavaClass type) -> type.isAnnotatedWith(AUTO_CONFIGURATION) && !type.isAnnotation());
	}

	private static boolean nestedInAutoConfiguration(JavaClass type) {
		for (JavaClass outer = type.getEnclosingClass().orElse(null); outer != null;
				outer = outer.getEnclosingClass().orElse(null)) {
			if (autoConfigurations().test(outer)) {
				return true;
			}
		}
		return false;
	}

	/** The class, and what it imports of ours ({@code @Import}), and what those import. */
	private void addWithImports(JavaClass type, Map<String, JavaClass> found) {
		if (found.putIfAbsent(type.getName(), type) != null) {
			return;
		}
		type.tryGetAnnotationOfType(IMPORT)
			.flatMap((annotation) -> annotation.get("value"))
			.ifPresent((imported) -> {
				for (Object each : (Object[]) imported) {
					if (each instanceof JavaClass importedClass && ours(importedClass.getPackageName())) {
						addWithImports(importedClass, found);
					}
				}
			});
	}

	/** What Boot's rule lets an auto-configuration make public: a no-arg constructor, a constant, an override. */
	private static boolean allowedPublic(JavaMember member) {
		Set<JavaModifier> modifiers = member.getModifiers();
		if (modifiers.contains(JavaModifier.SYNTHETIC) || modifiers.contains(JavaModifier.BRIDGE)) {
			return true;
		}
		if (member instanceof JavaConstructor constructor) {
			return constructor.getParameters().isEmpty();
		}
		if (member instanceof JavaField) {
			return modifiers.contains(JavaModifier.STATIC) && modifiers.contains(JavaModifier.FINAL);
		}
		if (member instanceof JavaMethod method) {
			List<JavaClass> supertypes = new ArrayList<>(method.getOwner().getAllRawSuperclasses());
			supertypes.addAll(method.getOwner().getAllRawInterfaces());
			return supertypes.stream()
				.flatMap((supertype) -> supertype.getMethods().stream())
				.anyMatch((inherited) -> inherited.getModifiers().contains(JavaModifier.PUBLIC)
						&& inherited.getName().equals(method.getName())
						&& inherited.getDescriptor().equals(method.getDescriptor()));
		}
		return false;
	}

	private static boolean inConfigurationProperties(JavaClass type) {
		for (JavaClass current = type; current != null; current = current.getEnclosingClass().orElse(null)) {
			if (current.isAnnotatedWith(CONFIGURATION_PROPERTIES)) {
				return true;
			}
		}
		return false;
	}

	private static boolean safeToInject(JavaClass type) {
		for (String safe : List.of("org.springframework.beans.factory.ObjectProvider",
				"org.springframework.context.ApplicationContext", "org.springframework.core.env.Environment")) {
			if (type.isAssignableTo(safe)) {
				return true;
			}
		}
		return type.tryGetAnnotationOfType("org.springframework.context.annotation.Role")
			.map((role) -> Integer.valueOf(2).equals(role.get("value").orElse(null))) // BeanDefinition.ROLE_INFRASTRUCTURE
			.orElse(false);
	}

	private static GivenMethodsConjunction beanMethodsReturning(String type) {
		return methods().that()
			.areAnnotatedWith(BEAN)
			.and()
			.haveRawReturnType(DescribedPredicate.describe("assignable to " + type,
					(JavaClass candidate) -> candidate.isAssignableTo(type)));
	}

	/** Whether the annotation sets that attribute to something (not an empty string or array). */
	private static boolean set(JavaAnnotation<?> annotation, String attribute) {
		Object value = annotation.getProperties().get(attribute);
		if (value == null) {
			return false;
		}
		return value.getClass().isArray() ? ((Object[]) value).length > 0 : !value.toString().isEmpty();
	}

	/** An {@code internal} package: the root's, or the leaf of a feature ({@code timeline.internal}). */
	boolean internal(String packageName) {
		return ours(packageName) && (packageName.endsWith(".internal") || packageName.contains(".internal."));
	}

	/** A package of ours: the root or under it. */
	boolean ours(String packageName) {
		return packageName.equals(this.root) || packageName.startsWith(this.root + ".");
	}

	/** {@code io.github.startuptelemetry.report.render.HtmlReport} → {@code report.render.HtmlReport}. */
	String relative(String name) {
		if (name.equals(this.root)) {
			return "";
		}
		return name.startsWith(this.root + ".") ? name.substring(this.root.length() + 1) : name;
	}

	/** {@code a.B$C$1} → {@code a.B}: nested, local and anonymous classes count as their top-level class. */
	private static String topLevel(String className) {
		int nested = className.indexOf('$', className.lastIndexOf('.') + 1);
		return (nested < 0) ? className : className.substring(0, nested);
	}

	/**
	 * What the class's constant pool names: beyond ArchUnit's dependencies, the classes of the
	 * compile-time constants javac inlined, which the code no longer names.
	 */
	private static Set<String> inlinedConstants(JavaClass type) {
		return type.getSource().map((source) -> ConstantPoolClasses.of(source.getUri())).orElse(Set.of());
	}

	private static String packageOf(String className) {
		int dot = className.lastIndexOf('.');
		return (dot < 0) ? "" : className.substring(0, dot);
	}

	private static boolean jdk(String packageName) {
		return PackageMap.JDK.stream().anyMatch((prefix) -> (packageName + ".").startsWith(prefix));
	}

	private static <T> ArchCondition<T> check(String description, BiConsumer<T, ConditionEvents> check) {
		return new ArchCondition<>(description) {

			@Override
			public void check(T item, ConditionEvents events) {
				check.accept(item, events);
			}

		};
	}

	private static void violated(ConditionEvents events, Object item, String message) {
		events.add(SimpleConditionEvent.violated(item, message));
	}

	/** Tarjan's strongly connected components of a directed graph, each sorted. */
	private static final class StronglyConnected {

		private final Map<String, Set<String>> graph;

		private final Map<String, Integer> index = new LinkedHashMap<>();

		private final Map<String, Integer> lowLink = new LinkedHashMap<>();

		private final List<String> stack = new ArrayList<>();

		private final Set<String> onStack = new TreeSet<>();

		private final List<Set<String>> components = new ArrayList<>();

		StronglyConnected(Map<String, Set<String>> graph) {
			this.graph = graph;
		}

		List<Set<String>> components() {
			for (String node : this.graph.keySet()) {
				if (!this.index.containsKey(node)) {
					visit(node);
				}
			}
			return this.components;
		}

		private void visit(String node) {
			this.index.put(node, this.index.size());
			this.lowLink.put(node, this.index.get(node));
			this.stack.add(node);
			this.onStack.add(node);
			for (String next : this.graph.getOrDefault(node, Set.of())) {
				if (!this.index.containsKey(next)) {
					visit(next);
					this.lowLink.put(node, Math.min(this.lowLink.get(node), this.lowLink.get(next)));
				}
				else if (this.onStack.contains(next)) {
					this.lowLink.put(node, Math.min(this.lowLink.get(node), this.index.get(next)));
				}
			}
			if (this.lowLink.get(node).equals(this.index.get(node))) {
				Set<String> component = new TreeSet<>();
				String member;
				do {
					member = this.stack.remove(this.stack.size() - 1);
					this.onStack.remove(member);
					component.add(member);
				}
				while (!member.equals(node));
				this.components.add(component);
			}
		}

	}

}
