package io.github.startuptelemetry.tracing.internal;

import java.util.regex.Pattern;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.sdk.resources.Resource;
import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.ResourceAttributes;

/**
 * An OpenTelemetry {@link Resource} typed as nemo-lens types one: a value of a key in
 * {@link ResourceAttributes#INT_TYPED} that is a base-10 integer ({@code " +007 "} is 7) becomes
 * an int, anything else stays a string. The one place of that rule, for Boot's resource and the
 * starter's own alike.
 */
public final class TypedResource {

	private static final Pattern INTEGER = Pattern.compile("[+-]?[0-9]+");

	private TypedResource() {
	}

	/** {@code resource} with its int-typed attributes as ints; the same instance when none needed typing. */
	public static Resource typed(Resource resource) {
		AttributesBuilder attributes = Attributes.builder();
		boolean changed = false;
		for (var entry : resource.getAttributes().asMap().entrySet()) {
			AttributeKey<?> key = entry.getKey();
			Long number = ResourceAttributes.INT_TYPED.contains(key.getKey()) ? integer(entry.getValue()) : null;
			if (number != null && !(entry.getValue() instanceof Long)) {
				attributes.put(AttributeKey.longKey(key.getKey()), number);
				changed = true;
			}
			else {
				put(attributes, key, entry.getValue());
			}
		}
		return changed ? Resource.create(attributes.build(), resource.getSchemaUrl()) : resource;
	}

	@SuppressWarnings("unchecked")
	private static <T> void put(AttributesBuilder attributes, AttributeKey<T> key, Object value) {
		attributes.put(key, (T) value);
	}

	/** nemo-lens's int rule: a base-10 integer after stripping, optional sign; else {@code null}. */
	public static @Nullable Long integer(Object value) {
		if (value instanceof Long number) {
			return number;
		}
		if (!(value instanceof String text) || !INTEGER.matcher(text.strip()).matches()) {
			return null;
		}
		try {
			return Long.parseLong(text.strip());
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

}
