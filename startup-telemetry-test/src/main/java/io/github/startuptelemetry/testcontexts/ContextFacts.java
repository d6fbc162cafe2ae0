package io.github.startuptelemetry.testcontexts;

import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.core.io.support.PropertySourceDescriptor;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.bean.override.BeanOverrideHandler;
import org.springframework.test.context.web.WebMergedContextConfiguration;
import org.springframework.util.ReflectionUtils;

import io.github.startuptelemetry.testcontexts.internal.Difference;

/**
 * A context's configuration (its {@link MergedContextConfiguration}, the context cache's key) as
 * facts a developer reads, aspect by aspect, in the order the key is compared, each told by what
 * the key compares (never the test class that happened to create it): the same in every JVM, so
 * that a context has the same name run after run. Built from the key alone, off any context's
 * startup: at the end of the run.
 */
final class ContextFacts {

	static final String APPLICATION_CONTEXT = "application context";

	static final String CLASSES = "configuration classes";

	static final String LOCATIONS = "configuration files";

	static final String INITIALIZERS = "initializers";

	static final String PROFILES = "active profiles";

	static final String PROPERTY_FILES = "property files";

	static final String PROPERTIES = "properties";

	static final String BEAN_OVERRIDES = "bean overrides";

	static final String DYNAMIC_PROPERTIES = "@DynamicPropertySource methods";

	static final String SPRING_BOOT_TEST = "@SpringBootTest";

	static final String IMPORTS = "imports";

	static final String PROPERTY_MAPPINGS = "property mappings";

	static final String TYPE_FILTERS = "type exclude filters";

	static final String SERVICE_CONNECTIONS = "service connections";

	static final String CUSTOMIZERS = "context customizers";

	static final String LOADER = "context loader";

	static final String PARENT = "parent context";

	/** What every {@code @SpringBootTest}'s key carries: told by the loader, not listed as a property. */
	static final String BOOT_MARKER = "org.springframework.boot.test.context.SpringBootTestContextBootstrapper=true";

	private static final String BOOT_LOADER = "org.springframework.boot.test.context.SpringBootContextLoader";

	/** A package prefix in a type's or annotation's name: {@code org.example.}. */
	private static final Pattern PACKAGE = Pattern.compile("\\b(?:[a-z_][a-z0-9_]*\\.)+(?=[A-Z])");

	private static final int LABEL_LENGTH = 100;

	private final Map<String, List<Fact>> aspects;

	private final boolean boot;

	private final String label;

	private final String hash;

	private ContextFacts(Map<String, List<Fact>> aspects, boolean boot, String label) {
		this.aspects = aspects;
		this.boot = boot;
		this.label = label;
		this.hash = hash(canonical());
	}

	static ContextFacts of(MergedContextConfiguration config) {
		Map<String, List<Fact>> aspects = new LinkedHashMap<>();
		String kind = config.getClass().getSimpleName();
		if (config instanceof WebMergedContextConfiguration web) {
			add(aspects, APPLICATION_CONTEXT, Fact.of("web (resources " + web.getResourceBasePath() + ")"));
		}
		else {
			add(aspects, APPLICATION_CONTEXT, Fact.of(kind.startsWith("Reactive") ? "reactive web" : "plain"));
		}
		for (Class<?> type : config.getClasses()) {
			add(aspects, CLASSES, new Fact(TypeNames.simple(type), type.getName()));
		}
		for (String location : config.getLocations()) {
			add(aspects, LOCATIONS, Fact.of(location));
		}
		config.getContextInitializerClasses()
			.stream()
			.map((type) -> new Fact(TypeNames.simple(type), type.getName()))
			.sorted()
			.forEach((fact) -> add(aspects, INITIALIZERS, fact));
		for (String profile : config.getActiveProfiles()) {
			add(aspects, PROFILES, Fact.of(profile));
		}
		for (PropertySourceDescriptor descriptor : config.getPropertySourceDescriptors()) {
			for (String location : descriptor.locations()) {
				add(aspects, PROPERTY_FILES, Fact.of(location));
			}
		}
		boolean boot = BOOT_LOADER.equals(config.getContextLoader().getClass().getName());
		for (String property : config.getPropertySourceProperties()) {
			if (BOOT_MARKER.equals(property)) {
				boot = true;
			}
			else {
				add(aspects, PROPERTIES, Fact.of(property));
			}
		}
		List<Map.Entry<String, Fact>> customizers = new ArrayList<>();
		for (ContextCustomizer customizer : config.getContextCustomizers()) {
			// not ours (TestContextTiming): in every key alike, it tells nothing
			if (!customizer.getClass().getPackageName().equals(ContextFacts.class.getPackageName())) {
				customizers.addAll(describe(customizer));
			}
		}
		customizers.sort(Map.Entry.<String, Fact>comparingByKey().thenComparing(Map.Entry.comparingByValue()));
		customizers.forEach((entry) -> add(aspects, entry.getKey(), entry.getValue()));
		Class<?> loader = config.getContextLoader().getClass();
		add(aspects, LOADER, new Fact(loader.getSimpleName(), loader.getName()));
		MergedContextConfiguration parent = config.getParent();
		if (parent != null) {
			ContextFacts parentFacts = of(parent);
			add(aspects, PARENT, new Fact(parentFacts.label(), parentFacts.canonical()));
		}
		return new ContextFacts(aspects, boot, label(aspects));
	}

	/** A name for people that is the same run after run: its configuration in short, and the hash of the whole. */
	String name() {
		return this.label + " #" + this.hash;
	}

	String label() {
		return this.label;
	}

	boolean boot() {
		return this.boot;
	}

	/** Aspect → what it says, for people. */
	Map<String, List<String>> aspects() {
		Map<String, List<String>> aspects = new LinkedHashMap<>();
		this.aspects.forEach((aspect, facts) -> aspects.put(aspect, facts.stream().map(Fact::display).toList()));
		return aspects;
	}

	/**
	 * What this configuration has that {@code earlier}'s has not and the reverse, aspect by
	 * aspect, in the key's order.
	 */
	List<Difference> differencesFrom(ContextFacts earlier) {
		List<String> names = new ArrayList<>(this.aspects.keySet());
		earlier.aspects.keySet().stream().filter((name) -> !names.contains(name)).forEach(names::add);
		List<Difference> differences = new ArrayList<>();
		for (String aspect : names) {
			List<Fact> now = this.aspects.getOrDefault(aspect, List.of());
			List<Fact> then = earlier.aspects.getOrDefault(aspect, List.of());
			List<String> added = now.stream().filter((fact) -> !then.contains(fact)).map(Fact::display).toList();
			List<String> removed = then.stream().filter((fact) -> !now.contains(fact)).map(Fact::display).toList();
			boolean reordered = added.isEmpty() && removed.isEmpty() && !now.equals(then);
			if (!added.isEmpty() || !removed.isEmpty() || reordered) {
				differences.add(new Difference(aspect, reordered ? List.of("the same, in another order") : added,
						removed));
			}
		}
		return differences;
	}

	/** How far apart two configurations are: the facts one has and the other has not. */
	int distance(ContextFacts other) {
		int distance = 0;
		for (Difference difference : differencesFrom(other)) {
			distance += Math.max(1, difference.added().size() + difference.removed().size());
		}
		return distance;
	}

	private String canonical() {
		StringBuilder text = new StringBuilder(this.boot ? "boot\n" : "spring\n");
		this.aspects.forEach((aspect, facts) -> {
			text.append(aspect).append(':');
			facts.forEach((fact) -> text.append('\n').append(fact.canonical()));
			text.append('\n');
		});
		return text.toString();
	}

	private static String hash(String canonical) {
		try {
			byte[] digest = MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
			return HexFormat.of().formatHex(digest, 0, 3);
		}
		catch (NoSuchAlgorithmException ex) {
			return Integer.toHexString(canonical.hashCode());
		}
	}

	/** The configuration in short: its classes, then what sets it apart from a plain one. */
	private static String label(Map<String, List<Fact>> aspects) {
		List<String> parts = new ArrayList<>();
		List<String> classes = displays(aspects, CLASSES);
		parts.add(!classes.isEmpty() ? String.join("+", classes)
				: !displays(aspects, LOCATIONS).isEmpty() ? String.join("+", displays(aspects, LOCATIONS)) : "(default)");
		List<String> profiles = displays(aspects, PROFILES);
		if (!profiles.isEmpty()) {
			parts.add("profiles " + String.join(",", profiles));
		}
		displays(aspects, PROPERTY_FILES).forEach(parts::add);
		displays(aspects, PROPERTIES).stream().filter((property) -> !property.equals("server.port=0")).forEach(parts::add);
		displays(aspects, BEAN_OVERRIDES).stream().map(ContextFacts::overrideShort).forEach(parts::add);
		displays(aspects, DYNAMIC_PROPERTIES).forEach((method) -> parts.add("@DynamicPropertySource " + method));
		displays(aspects, SPRING_BOOT_TEST).stream()
			.filter((setting) -> !setting.equals("webEnvironment=MOCK"))
			.map((setting) -> setting.startsWith("webEnvironment=") ? setting.substring("webEnvironment=".length())
					: setting)
			.forEach(parts::add);
		displays(aspects, INITIALIZERS).forEach((initializer) -> parts.add("initializer " + initializer));
		displays(aspects, PARENT).forEach((parent) -> parts.add("child of " + parent));
		String label = String.join(" · ", parts);
		return (label.length() > LABEL_LENGTH) ? label.substring(0, LABEL_LENGTH - 1) + "…" : label;
	}

	/** {@code @MockitoBean GreetingService (field greeting)} → {@code @MockitoBean GreetingService}. */
	private static String overrideShort(String override) {
		int detail = override.indexOf(" (");
		return (detail > 0) ? override.substring(0, detail) : override;
	}

	private static List<String> displays(Map<String, List<Fact>> aspects, String aspect) {
		return aspects.getOrDefault(aspect, List.of()).stream().map(Fact::display).toList();
	}

	private static void add(Map<String, List<Fact>> aspects, String aspect, Fact fact) {
		aspects.computeIfAbsent(aspect, (name) -> new ArrayList<>()).add(fact);
	}

	/** What one customizer adds to the key, by aspect: known customizers by what their equality compares. */
	private static List<Map.Entry<String, Fact>> describe(ContextCustomizer customizer) {
		List<Map.Entry<String, Fact>> facts = new ArrayList<>();
		String type = customizer.getClass().getName();
		switch (type) {
			case "org.springframework.test.context.bean.override.BeanOverrideContextCustomizer" -> {
				for (Object handler : collection(field(customizer, "handlers"))) {
					if (handler instanceof BeanOverrideHandler override) {
						facts.add(Map.entry(BEAN_OVERRIDES, override(override)));
					}
				}
			}
			case "org.springframework.test.context.support.DynamicPropertiesContextCustomizer" -> {
				for (Object method : collection(field(customizer, "methods"))) {
					if (method instanceof java.lang.reflect.Method declared) {
						facts.add(Map.entry(DYNAMIC_PROPERTIES,
								new Fact(TypeNames.simple(declared.getDeclaringClass()) + "." + declared.getName() + "()",
										ValueText.of(declared))));
					}
				}
			}
			case "org.springframework.boot.test.context.SpringBootTestAnnotation" -> {
				facts.add(Map.entry(SPRING_BOOT_TEST, Fact.of("webEnvironment=" + ValueText.of(field(customizer, "webEnvironment")))));
				Object args = field(customizer, "args");
				if (args instanceof String[] values && values.length > 0) {
					facts.add(Map.entry(SPRING_BOOT_TEST, Fact.of("args=" + Arrays.toString(values))));
				}
				String useMainMethod = ValueText.of(field(customizer, "useMainMethod"));
				if (!"NEVER".equals(useMainMethod)) {
					facts.add(Map.entry(SPRING_BOOT_TEST, Fact.of("useMainMethod=" + useMainMethod)));
				}
			}
			case "org.springframework.boot.test.context.ImportsContextCustomizer" -> {
				Object key = field(customizer, "key");
				for (Object item : collection((key != null) ? field(key, "key") : null)) {
					String text = ValueText.of(item);
					facts.add(Map.entry(IMPORTS, new Fact(shortNames(text), text)));
				}
			}
			case "org.springframework.boot.test.context.PropertyMappingContextCustomizer" -> {
				String mappings = ValueText.of(field(customizer, "propertySource"));
				// every @SpringBootTest has one, empty unless a slice's annotations map properties
				if (!mappings.equals("[]")) {
					facts.add(Map.entry(PROPERTY_MAPPINGS, fact(mappings)));
				}
			}
			case "org.springframework.boot.test.context.filter.annotation.TypeExcludeFiltersContextCustomizer" -> {
				for (Object filter : collection(field(customizer, "filters"))) {
					facts.add(Map.entry(TYPE_FILTERS, fact(ValueText.of(filter))));
				}
			}
			case "org.springframework.boot.testcontainers.service.connection.ServiceConnectionContextCustomizer" -> facts
				.add(Map.entry(SERVICE_CONNECTIONS, fact(ValueText.of(field(customizer, "keys")))));
			default -> {
				List<String> fields = ValueText.fields(customizer, null);
				if (fields.isEmpty()) {
					// one of the customizers equal by class alone: its presence is all it says
					facts.add(Map.entry(CUSTOMIZERS, new Fact(customizer.getClass().getSimpleName(), type)));
				}
				else {
					String text = String.join(", ", fields);
					facts.add(Map.entry("customizer " + customizer.getClass().getSimpleName(), fact(text)));
				}
			}
		}
		return facts;
	}

	/**
	 * {@code @MockitoBean GreetingService (field greeting)}: the annotation, the bean's type, and
	 * its name or the field's, as the override's equality compares them (not the field's class).
	 */
	private static Fact override(BeanOverrideHandler handler) {
		String annotation = switch (handler.getClass().getSimpleName()) {
			case "MockitoBeanOverrideHandler" -> "@MockitoBean";
			case "MockitoSpyBeanOverrideHandler" -> "@MockitoSpyBean";
			case "TestBeanOverrideHandler" -> "@TestBean";
			default -> handler.getClass().getSimpleName();
		};
		Field field = handler.getField();
		String target = (handler.getBeanName() != null) ? " '" + handler.getBeanName() + "'"
				: (field != null) ? " (field " + field.getName() + ")" : "";
		String display = annotation + " " + shortNames(handler.getBeanType().toString()) + target;
		List<String> details = new ArrayList<>(List.of(handler.getBeanType().toString(), String.valueOf(handler.getBeanName()),
				handler.getContextName(), handler.getStrategy().name()));
		if (handler.getBeanName() == null && field != null) {
			details.add(field.getName());
			details.add(ValueText.of(Arrays.stream(field.getDeclaredAnnotations())
				.filter((candidate) -> !candidate.annotationType().getName().startsWith("org.springframework.test."))
				.toList()));
		}
		// what a subclass adds to its equality (Mockito's reset, answers, extra interfaces, ...)
		details.addAll(ValueText.fields(handler, BeanOverrideHandler.class));
		return new Fact(display, annotation + " " + String.join(" ", details));
	}

	private static @Nullable Object field(Object target, String name) {
		Field field = ReflectionUtils.findField(target.getClass(), name);
		if (field == null) {
			return null;
		}
		try {
			ReflectionUtils.makeAccessible(field);
			return field.get(target);
		}
		catch (RuntimeException | IllegalAccessException ex) {
			return null;
		}
	}

	private static Collection<?> collection(@Nullable Object value) {
		return (value instanceof Collection<?> collection) ? collection : List.of();
	}

	private static Fact fact(String text) {
		return new Fact(shortNames(text), text);
	}

	/** Type and annotation names without their packages. */
	static String shortNames(String text) {
		return PACKAGE.matcher(text).replaceAll("").replace('$', '.');
	}

	/**
	 * One fact of a configuration: what people read, and the text that tells it apart from any
	 * other (compared, and hashed into the context's name).
	 */
	private record Fact(String display, String canonical) implements Comparable<Fact> {

		static Fact of(String text) {
			return new Fact(text, text);
		}

		@Override
		public boolean equals(@Nullable Object other) {
			return other instanceof Fact fact && fact.canonical.equals(this.canonical);
		}

		@Override
		public int hashCode() {
			return this.canonical.hashCode();
		}

		@Override
		public int compareTo(Fact other) {
			return this.canonical.compareTo(other.canonical);
		}

	}

}
