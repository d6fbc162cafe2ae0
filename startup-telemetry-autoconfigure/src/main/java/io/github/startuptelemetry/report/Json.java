package io.github.startuptelemetry.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Just enough JSON for the report files, with the JDK alone: {@link Compare} runs from the
 * starter's jar without Spring on the class path. Writes maps, lists, strings, numbers,
 * booleans and nulls; reads the same back (numbers as {@code Long} or {@code Double}). Reading
 * a malformed document throws {@link IllegalArgumentException} saying where.
 */
final class Json {

	/** Deepest nesting read: a report is a few levels deep; anything deeper is not one. */
	private static final int MAX_DEPTH = 64;

	private final String text;

	private int at;

	private Json(String text) {
		this.text = text;
	}

	static String write(Object value) {
		StringBuilder out = new StringBuilder(8192);
		write(value, out, "");
		return out.append('\n').toString();
	}

	static Object parse(String text) {
		Json json = new Json(text);
		Object value = json.value(0);
		json.space();
		if (json.at != text.length()) {
			throw json.error("end of document");
		}
		return value;
	}

	private static void write(Object value, StringBuilder out, String indent) {
		if (value == null) {
			out.append("null");
		}
		else if (value instanceof String text) {
			string(text, out);
		}
		else if (value instanceof Double number) {
			out.append(number.isNaN() || number.isInfinite() ? "null" : String.format(Locale.ROOT, "%.3f", number));
		}
		else if (value instanceof Number || value instanceof Boolean) {
			out.append(value);
		}
		else if (value instanceof Map<?, ?> map) {
			if (map.isEmpty()) {
				out.append("{}");
				return;
			}
			String inner = indent + "  ";
			out.append("{\n");
			int i = 0;
			for (Map.Entry<?, ?> entry : map.entrySet()) {
				out.append(inner);
				string(String.valueOf(entry.getKey()), out);
				out.append(": ");
				write(entry.getValue(), out, inner);
				out.append((++i < map.size()) ? ",\n" : "\n");
			}
			out.append(indent).append('}');
		}
		else if (value instanceof List<?> list) {
			if (list.isEmpty()) {
				out.append("[]");
				return;
			}
			String inner = indent + "  ";
			out.append("[\n");
			for (int i = 0; i < list.size(); i++) {
				out.append(inner);
				write(list.get(i), out, inner);
				out.append((i + 1 < list.size()) ? ",\n" : "\n");
			}
			out.append(indent).append(']');
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
			return (number.contains(".") || number.contains("e") || number.contains("E")) ? Double.valueOf(number)
					: Long.valueOf(number);
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
		return new IllegalArgumentException("Not a JSON report: expected " + expected + " at character " + this.at);
	}

}
