package io.github.startuptelemetry.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.internal.Decimals;

/**
 * Just enough JSON for everything of ours that is JSON text: the ready callback (compact), the
 * report files (pretty), and reading both back ({@link #parse}: numbers as {@code Long} or
 * {@code Double}, bounded nesting, malformed text an {@link IllegalArgumentException} saying
 * where). JDK only: a server posts before any JSON library is warm, and the report comparison
 * runs without Spring.
 */
public final class JsonText {

	/** Deepest nesting read: a report is a few levels deep; anything deeper is not one. */
	private static final int MAX_DEPTH = 64;

	private final String text;

	private int at;

	private JsonText(String text) {
		this.text = text;
	}

	/** Indented, decimals to the microsecond (of milliseconds), a final newline: for files people read. */
	public static String pretty(@Nullable Object value) {
		StringBuilder out = new StringBuilder(8192);
		write(value, out, "");
		return out.append('\n').toString();
	}

	/** On one line, decimals exact: for the wire, where what is read back must equal what was written. */
	public static String compact(@Nullable Object value) {
		StringBuilder out = new StringBuilder(4096);
		write(value, out, null);
		return out.toString();
	}

	/** The object the text holds, or {@code null} when it holds another value. */
	@SuppressWarnings("unchecked")
	public static @Nullable Map<String, Object> parseObject(String text) {
		return (parse(text) instanceof Map<?, ?> map) ? (Map<String, Object>) map : null;
	}

	/**
	 * {@code json}, text this class wrote compact before, to be written as it is: the part of a
	 * document that was final early, so that finishing the document later only writes the rest.
	 */
	public record Written(String json) {
	}

	public static @Nullable Object parse(String text) {
		JsonText json = new JsonText(text);
		Object value = json.value(0);
		json.space();
		if (json.at != text.length()) {
			throw json.error("end of document");
		}
		return value;
	}

	/** {@code indent} null: compact. */
	private static void write(@Nullable Object value, StringBuilder out, @Nullable String indent) {
		if (value == null) {
			out.append("null");
		}
		else if (value instanceof String text) {
			string(text, out);
		}
		else if (value instanceof Written written) {
			out.append(written.json());
		}
		else if (value instanceof Double || value instanceof Float) {
			double number = ((Number) value).doubleValue();
			out.append(!Double.isFinite(number) ? "null"
					: (indent != null) ? Decimals.fixed(number, 3) : Double.toString(number));
		}
		else if (value instanceof Number || value instanceof Boolean) {
			out.append(value);
		}
		else if (value instanceof Map<?, ?> map) {
			if (map.isEmpty()) {
				out.append("{}");
				return;
			}
			String inner = (indent != null) ? indent + "  " : null;
			out.append((inner != null) ? "{\n" : "{");
			int i = 0;
			for (Map.Entry<?, ?> entry : map.entrySet()) {
				out.append((inner != null) ? inner : "");
				string(String.valueOf(entry.getKey()), out);
				out.append((inner != null) ? ": " : ":");
				write(entry.getValue(), out, inner);
				out.append((++i < map.size()) ? ((inner != null) ? ",\n" : ",") : ((inner != null) ? "\n" : ""));
			}
			out.append((indent != null) ? indent : "").append('}');
		}
		else if (value instanceof List<?> list) {
			if (list.isEmpty()) {
				out.append("[]");
				return;
			}
			String inner = (indent != null) ? indent + "  " : null;
			out.append((inner != null) ? "[\n" : "[");
			for (int i = 0; i < list.size(); i++) {
				out.append((inner != null) ? inner : "");
				write(list.get(i), out, inner);
				out.append((i + 1 < list.size()) ? ((inner != null) ? ",\n" : ",") : ((inner != null) ? "\n" : ""));
			}
			out.append((indent != null) ? indent : "").append(']');
		}
		else {
			string(String.valueOf(value), out);
		}
	}

	private static void string(String text, StringBuilder out) {
		out.append('"');
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			switch (c) {
				case '"' -> out.append("\\\"");
				case '\\' -> out.append("\\\\");
				case '\n' -> out.append("\\n");
				case '\r' -> out.append("\\r");
				case '\t' -> out.append("\\t");
				default -> {
					if (c < 0x20 || c == '<' || c == '>' || c == '&') {
						out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
					}
					else {
						out.append(c);
					}
				}
			}
		}
		out.append('"');
	}

	private Object value(int depth) {
		if (depth > MAX_DEPTH) {
			throw error("less nesting");
		}
		space();
		if (this.at >= this.text.length()) {
			throw error("a value");
		}
		char c = this.text.charAt(this.at);
		return switch (c) {
			case '{' -> object(depth);
			case '[' -> array(depth);
			case '"' -> string();
			case 't' -> literal("true", Boolean.TRUE);
			case 'f' -> literal("false", Boolean.FALSE);
			case 'n' -> literal("null", null);
			default -> number();
		};
	}

	private Map<String, Object> object(int depth) {
		Map<String, Object> map = new LinkedHashMap<>();
		this.at++;
		space();
		if (peek('}')) {
			return map;
		}
		do {
			space();
			if (!peek('"')) {
				throw error("a field name");
			}
			String key = string();
			space();
			expect(':');
			map.put(key, value(depth + 1));
			space();
		}
		while (next(','));
		expect('}');
		return map;
	}

	private List<Object> array(int depth) {
		List<Object> list = new ArrayList<>();
		this.at++;
		space();
		if (peek(']')) {
			return list;
		}
		do {
			list.add(value(depth + 1));
			space();
		}
		while (next(','));
		expect(']');
		return list;
	}

	private String string() {
		expect('"');
		StringBuilder out = new StringBuilder();
		while (this.at < this.text.length()) {
			char c = this.text.charAt(this.at++);
			if (c == '"') {
				return out.toString();
			}
			if (c != '\\') {
				out.append(c);
				continue;
			}
			if (this.at >= this.text.length()) {
				break;
			}
			char escaped = this.text.charAt(this.at++);
			switch (escaped) {
				case 'n' -> out.append('\n');
				case 'r' -> out.append('\r');
				case 't' -> out.append('\t');
				case 'b' -> out.append('\b');
				case 'f' -> out.append('\f');
				case 'u' -> {
					if (this.at + 4 > this.text.length()) {
						throw error("four hex digits");
					}
					try {
						out.append((char) Integer.parseInt(this.text.substring(this.at, this.at + 4), 16));
					}
					catch (NumberFormatException ex) {
						throw error("four hex digits");
					}
					this.at += 4;
				}
				default -> out.append(escaped);
			}
		}
		throw error("the end of a string");
	}

	private Object number() {
		int start = this.at;
		while (this.at < this.text.length() && "+-0123456789.eE".indexOf(this.text.charAt(this.at)) >= 0) {
			this.at++;
		}
		String number = this.text.substring(start, this.at);
		try {
			// not a ?: expression: it would unbox both sides and make every Long a Double
			if (number.contains(".") || number.contains("e") || number.contains("E")) {
				return Double.valueOf(number);
			}
			return Long.valueOf(number);
		}
		catch (NumberFormatException ex) {
			this.at = start;
			throw error("a value");
		}
	}

	private Object literal(String word, Object value) {
		if (!this.text.startsWith(word, this.at)) {
			throw error("a value");
		}
		this.at += word.length();
		return value;
	}

	private void space() {
		while (this.at < this.text.length() && Character.isWhitespace(this.text.charAt(this.at))) {
			this.at++;
		}
	}

	private boolean peek(char c) {
		if (this.at < this.text.length() && this.text.charAt(this.at) == c) {
			if (c == '}' || c == ']') {
				this.at++;
			}
			return true;
		}
		return false;
	}

	private boolean next(char c) {
		if (this.at < this.text.length() && this.text.charAt(this.at) == c) {
			this.at++;
			return true;
		}
		return false;
	}

	private void expect(char c) {
		if (!next(c)) {
			throw error("'" + c + "'");
		}
	}

	private IllegalArgumentException error(String expected) {
		return new IllegalArgumentException("Not JSON: expected " + expected + " at character " + this.at);
	}

	/** A parsed JSON number (or a number written as text) as a {@code long}. */
	public static long asLong(Object value) {
		return (value instanceof Number number) ? number.longValue() : Long.parseLong(String.valueOf(value).strip());
	}

	/** A parsed JSON string, or {@code null} for anything else (and for the text {@code null}). */
	public static @Nullable String asText(@Nullable Object value) {
		return (value instanceof String text && !"null".equals(text)) ? text : null;
	}

}
