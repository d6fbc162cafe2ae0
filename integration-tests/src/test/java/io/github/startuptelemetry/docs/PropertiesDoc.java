package io.github.startuptelemetry.docs;

import java.beans.PropertyDescriptor;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.beans.BeanUtils;
import org.springframework.util.ClassUtils;

import io.github.startuptelemetry.internal.JsonText;

/**
 * Renders {@code docs/properties.md} from a module's {@code spring-configuration-metadata.json}:
 * every property with its type, default and description (the Javadoc of its field), grouped by
 * the metadata's groups ({@code telemetry.supervisor.probe}, ...). A list or map of one of our own
 * classes ({@code telemetry.supervisor.servers[]}, {@code .fleet.<name>}) gets a table of that
 * class's fields, read from its source ({@link FieldJavadoc}), since the metadata has none.
 */
final class PropertiesDoc {

	/** What regenerates the page; the stale-page test names it. */
	static final String REGENERATE = "./mvnw -B -q test -pl integration-tests -am -Dtest=PropertiesDocTest "
			+ "-Ddocs.regenerate=true -Dsurefire.failIfNoSpecifiedTests=false";

	private static final String OUR_PACKAGE = "io.github.startuptelemetry.";

	private static final Pattern OUR_TYPE = Pattern.compile("io\\.github\\.startuptelemetry\\.[\\w.$]+");

	private static final Pattern INLINE_TAG = Pattern.compile("\\{@(?:code|literal|link|linkplain|value)\\s+([^}]*)}");

	private final List<Path> sourceRoots;

	/** @param sourceRoots where the sources of the element classes are (each module's {@code src/main/java}) */
	PropertiesDoc(List<Path> sourceRoots) {
		this.sourceRoots = List.copyOf(sourceRoots);
	}

	/** The page for the given metadata (the JSON text of {@code spring-configuration-metadata.json}). */
	@SuppressWarnings("unchecked")
	String render(String metadataJson) {
		Map<String, Object> metadata = JsonText.parseObject(metadataJson);
		if (metadata == null) {
			throw new IllegalArgumentException("Not configuration metadata: " + metadataJson.substring(0, 80));
		}
		List<Map<String, Object>> properties = (List<Map<String, Object>>) metadata.getOrDefault("properties", List.of());
		List<Map<String, Object>> groupList = (List<Map<String, Object>>) metadata.getOrDefault("groups", List.of());
		List<String> groups = new ArrayList<>(groupList.stream().map((group) -> (String) group.get("name")).toList());
		Map<String, List<Map<String, Object>>> byGroup = new LinkedHashMap<>();
		properties.stream()
			.sorted(Comparator.comparing((Map<String, Object> property) -> (String) property.get("name")))
			.forEach((property) -> byGroup.computeIfAbsent(groupOf((String) property.get("name"), groups),
					(group) -> new ArrayList<>()).add(property));
		StringBuilder md = new StringBuilder();
		md.append(HEADER);
		byGroup.keySet().stream().sorted(Comparator.comparing(PropertiesDoc::groupOrder)).forEach((group) -> {
			md.append("\n## `").append(group).append("`\n\n");
			md.append("| property | type | default | description |\n|---|---|---|---|\n");
			Map<Class<?>, List<String>> elements = new LinkedHashMap<>();
			for (Map<String, Object> property : byGroup.get(group)) {
				String name = (String) property.get("name");
				String type = (String) property.get("type");
				md.append(row(name, type, defaultOf(property.get("defaultValue")), (String) property.get("description"),
						property.get("deprecation") != null));
				Class<?> element = elementClass(type);
				if (element != null) {
					elements.computeIfAbsent(element, (key) -> new ArrayList<>())
						.add(type.startsWith("java.util.Map") ? name + ".<name>" : name + "[]");
				}
			}
			// a list's entries first: [] reads as "each of them" before a map's <name>
			elements.forEach((element, owners) -> elementTable(md, element,
					owners.stream().sorted(Comparator.comparing((String owner) -> !owner.endsWith("[]"))).toList()));
		});
		md.append(FOOTER);
		return md.toString();
	}

	/** The fields of a list or map element, once for all the properties that hold it. */
	private void elementTable(StringBuilder md, Class<?> element, List<String> owners) {
		md.append("\n### Each entry of `").append(String.join("` and `", owners)).append("`\n\n");
		if (owners.size() > 1) {
			md.append("The same fields under each; below as `").append(owners.get(0)).append(".*`.\n\n");
		}
		md.append("| property | type | default | description |\n|---|---|---|---|\n");
		fieldRows(md, owners.get(0), element);
	}

	/** A row per bindable field of an element class; a nested object of ours, a row per field of it. */
	private void fieldRows(StringBuilder md, String prefix, Class<?> element) {
		Object defaults = BeanUtils.instantiateClass(element);
		Map<String, String> javadoc = FieldJavadoc.of(this.sourceRoots, element);
		Map<String, PropertyDescriptor> readable = new LinkedHashMap<>();
		for (PropertyDescriptor descriptor : BeanUtils.getPropertyDescriptors(element)) {
			if (descriptor.getReadMethod() != null && !descriptor.getName().equals("class")) {
				readable.put(descriptor.getName(), descriptor);
			}
		}
		Set<String> order = new LinkedHashSet<>(javadoc.keySet());
		order.addAll(readable.keySet());
		for (String field : order) {
			PropertyDescriptor descriptor = readable.get(field);
			if (descriptor == null) {
				continue;
			}
			Method getter = descriptor.getReadMethod();
			String name = prefix + "." + kebab(field);
			Class<?> type = getter.getReturnType();
			if (descriptor.getWriteMethod() == null) {
				if (type.getName().startsWith(OUR_PACKAGE) && !type.isEnum()) {
					fieldRows(md, name, type);
				}
				continue;
			}
			Object value;
			try {
				value = getter.invoke(defaults);
			}
			catch (ReflectiveOperationException ex) {
				throw new IllegalStateException("Cannot read " + element.getName() + "." + field, ex);
			}
			md.append(row(name, typeName(getter.getGenericReturnType()), defaultOf(value), javadoc.getOrDefault(field, ""),
					getter.isAnnotationPresent(Deprecated.class)));
		}
	}

	private static String row(String name, String type, String defaultValue, String description, boolean deprecated) {
		return "| `" + name + "` | " + code(shortType(type)) + " | " + defaultValue + " | "
				+ (deprecated ? "**Deprecated.** " : "") + markdown((description != null) ? description : "") + " |\n";
	}

	/** The most specific group a property belongs to ({@code telemetry} for {@code telemetry.enabled}). */
	private static String groupOf(String name, List<String> groups) {
		return groups.stream()
			.filter((group) -> name.startsWith(group + "."))
			.max(Comparator.comparingInt(String::length))
			.orElseGet(() -> name.substring(0, Math.max(name.lastIndexOf('.'), 0)));
	}

	/** {@code telemetry} groups first, in name order; then anything else (actuator's endpoint). */
	private static String groupOrder(String group) {
		return (group.equals("telemetry") || group.startsWith("telemetry.") ? "0" : "1") + group;
	}

	private static Class<?> elementClass(String type) {
		if (type == null || !(type.startsWith("java.util.List<") || type.startsWith("java.util.Map<")
				|| type.startsWith("java.util.Set<"))) {
			return null;
		}
		Matcher ours = OUR_TYPE.matcher(type);
		if (!ours.find()) {
			return null;
		}
		try {
			Class<?> element = ClassUtils.forName(ours.group(), PropertiesDoc.class.getClassLoader());
			return element.isEnum() ? null : element;
		}
		catch (ClassNotFoundException ex) {
			throw new IllegalStateException("The metadata names " + ours.group() + ", which is not on the class path", ex);
		}
	}

	private static String defaultOf(Object value) {
		if (value == null || (value instanceof Collection<?> collection && collection.isEmpty())
				|| (value instanceof Map<?, ?> map && map.isEmpty())) {
			return "";
		}
		if (value instanceof Collection<?> collection) {
			return code(String.join(", ", collection.stream().map(String::valueOf).toList()));
		}
		if (value instanceof Duration duration) {
			return code(duration(duration));
		}
		if (value instanceof Enum<?> constant) {
			return code(constant.name().toLowerCase(Locale.ROOT).replace('_', '-'));
		}
		return code(String.valueOf(value));
	}

	/** A duration as Boot writes one in metadata ({@code 250ms}, {@code 10s}, {@code 5m}). */
	private static String duration(Duration duration) {
		long ms = duration.toMillis();
		if (ms == 0) {
			return "0ms";
		}
		if (ms % 86_400_000 == 0) {
			return ms / 86_400_000 + "d";
		}
		if (ms % 3_600_000 == 0) {
			return ms / 3_600_000 + "h";
		}
		if (ms % 60_000 == 0) {
			return ms / 60_000 + "m";
		}
		if (ms % 1000 == 0) {
			return ms / 1000 + "s";
		}
		return ms + "ms";
	}

	private static String typeName(Type type) {
		return type.getTypeName();
	}

	/** {@code java.util.Map<java.lang.String,a.b.Outer$Inner>} → {@code Map<String, Inner>}. */
	static String shortType(String type) {
		if (type == null) {
			return "";
		}
		return type.replaceAll("\\b[a-z][\\w]*\\.", "").replaceAll("\\w+\\$", "").replaceAll(",\\s*", ", ");
	}

	/** {@code workingDir} → {@code working-dir}. */
	static String kebab(String field) {
		return field.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
	}

	private static String code(String text) {
		return text.isEmpty() ? "" : "`" + text.replace("|", "\\|") + "`";
	}

	/**
	 * Javadoc text as Markdown in a table cell: inline tags become code, and outside code a
	 * {@code |} is escaped and a {@code <} written as an entity (GitHub would take it for HTML).
	 */
	static String markdown(String javadoc) {
		StringBuilder out = new StringBuilder();
		Matcher tag = INLINE_TAG.matcher(javadoc);
		int last = 0;
		while (tag.find()) {
			out.append(plain(javadoc.substring(last, tag.start())));
			String content = tag.group(1).trim();
			if (tag.group().startsWith("{@link")) {
				int space = content.indexOf(' ');
				content = (space > 0) ? content.substring(space + 1) : content.replace('#', '.');
			}
			out.append(code(content));
			last = tag.end();
		}
		out.append(plain(javadoc.substring(last)));
		return out.toString().replaceAll("\\s+", " ").trim();
	}

	private static String plain(String text) {
		return text.replace("|", "\\|").replace("<", "&lt;");
	}

	private static final String HEADER = """
			# Properties

			Every property of the starter, with its type, its default and what it does. Each can also be
			set as an environment variable by Spring's relaxed binding
			(`telemetry.startup.server-type` → `TELEMETRY_STARTUP_SERVER_TYPE`). An invalid value is
			ignored, never fatal to a server; a bad supervisor setting fails the supervisor at start,
			naming the property. A supervisor hands some of its settings to the servers it spawns
			([telemetry-lifecycle.md](telemetry-lifecycle.md#settings-a-supervisor-hands-its-servers)).
			Boot's own settings still apply: `management.opentelemetry.tracing.export.otlp.endpoint`,
			`management.opentelemetry.resource-attributes`, `management.tracing.sampling.probability`,
			`spring.application.name` (→ `service.name`).
			""";

	private static final String FOOTER = "\n---\n\nGenerated from the build's `spring-configuration-metadata.json` "
			+ "(the Javadoc of each properties class's fields) by `PropertiesDocTest`, which fails when this page is "
			+ "stale. Do not edit it: change the Javadoc, then regenerate it from the repository root with\n\n```\n"
			+ REGENERATE + "\n```\n";

}
