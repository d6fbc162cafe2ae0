package io.github.startuptelemetry.testcontexts;

import java.lang.annotation.Annotation;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.core.ResolvableType;
import org.springframework.core.env.EnumerablePropertySource;

/**
 * A value of a context's configuration as text that is the same in every JVM: sets and maps
 * sorted, no identity hash codes, objects without a useful {@code toString} by their fields.
 * What a customizer without a describer of its own is told by.
 */
final class ValueText {

	/** {@code Foo@1b2c3d}: an identity hash code, different in every JVM. */
	private static final Pattern IDENTITY = Pattern.compile("@[0-9a-f]{4,}");

	private static final int MAX_DEPTH = 3;

	private static final int MAX_LENGTH = 400;

	private static final Set<String> LOGGERS = Set.of("org.apache.commons.logging.Log", "org.slf4j.Logger",
			"java.util.logging.Logger", "java.lang.System$Logger", "org.apache.logging.log4j.Logger");

	private ValueText() {
	}

	static String of(@Nullable Object value) {
		String text = render(value, 0);
		return (text.length() > MAX_LENGTH) ? text.substring(0, MAX_LENGTH) + "…" : text;
	}

	/** An object's instance fields, each as text, in declaration order from its class up to (not including) {@code stop}. */
	static List<String> fields(Object value, @Nullable Class<?> stop) {
		return fields(value, stop, 1);
	}

	/** A logger says nothing about a configuration (Boot's DuplicateJsonObjectContextCustomizer holds one). */
	private static boolean isLogger(Class<?> type) {
		return LOGGERS.contains(type.getName());
	}

	private static List<String> fields(Object value, @Nullable Class<?> stop, int depth) {
		List<String> fields = new ArrayList<>();
		for (Class<?> type = value.getClass(); type != null && type != Object.class && type != stop; type = type
			.getSuperclass()) {
			for (Field field : type.getDeclaredFields()) {
				if (Modifier.isStatic(field.getModifiers()) || field.isSynthetic() || isLogger(field.getType())) {
					continue;
				}
				try {
					field.setAccessible(true);
					fields.add(field.getName() + "=" + render(field.get(value), depth));
				}
				catch (RuntimeException | IllegalAccessException ex) {
					fields.add(field.getName() + "=?");
				}
			}
		}
		return fields;
	}

	private static String render(@Nullable Object value, int depth) {
		if (value == null) {
			return "null";
		}
		if (value instanceof CharSequence || value instanceof Number || value instanceof Boolean
				|| value instanceof Character) {
			return value.toString();
		}
		if (value instanceof Enum<?> constant) {
			return constant.name();
		}
		if (value instanceof Class<?> type) {
			return type.getName();
		}
		if (value instanceof Method method) {
			return method.getDeclaringClass().getName() + "." + method.getName() + "()";
		}
		if (value instanceof Field field) {
			return field.getName();
		}
		if (value instanceof Annotation annotation) {
			return annotation.toString();
		}
		if (value instanceof ResolvableType type) {
			return type.toString();
		}
		if (value instanceof EnumerablePropertySource<?> source) {
			List<String> entries = new ArrayList<>();
			for (String name : source.getPropertyNames()) {
				entries.add(name + "=" + render(source.getProperty(name), depth + 1));
			}
			return sorted(entries);
		}
		if (value instanceof Collection<?> collection) {
			List<String> items = new ArrayList<>();
			collection.forEach((item) -> items.add(render(item, depth + 1)));
			return sorted(items);
		}
		if (value instanceof Map<?, ?> map) {
			List<String> entries = new ArrayList<>();
			map.forEach((key, item) -> entries.add(render(key, depth + 1) + "=" + render(item, depth + 1)));
			return sorted(entries);
		}
		if (value.getClass().isArray()) {
			List<String> items = new ArrayList<>();
			for (int i = 0; i < Array.getLength(value); i++) {
				items.add(render(Array.get(value, i), depth + 1));
			}
			return items.toString();
		}
		String text = ownToString(value);
		if (text != null) {
			return text;
		}
		if (depth >= MAX_DEPTH) {
			return value.getClass().getName();
		}
		return value.getClass().getSimpleName() + fields(value, null, depth + 1);
	}

	/** Its own {@code toString}, when it has one that tells no identity hash code. */
	private static @Nullable String ownToString(Object value) {
		try {
			if (value.getClass().getMethod("toString").getDeclaringClass() == Object.class) {
				return null;
			}
			String text = value.toString();
			return (text != null && !IDENTITY.matcher(text).find()) ? text : null;
		}
		catch (RuntimeException | NoSuchMethodException | LinkageError ex) {
			return null;
		}
	}

	private static String sorted(List<String> items) {
		items.sort(null);
		return items.toString();
	}

}
