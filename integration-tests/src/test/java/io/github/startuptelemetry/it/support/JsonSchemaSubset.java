package io.github.startuptelemetry.it.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Validates a document against the subset of JSON Schema our schemas use: {@code type} (one or
 * several), {@code required}, {@code properties}, {@code items}, {@code enum}, {@code const},
 * {@code minimum} and local {@code $ref}s ({@code #/$defs/...}). Anything else in the schema is
 * a failure, so that a schema never silently asks for more than is checked.
 */
public final class JsonSchemaSubset {

	private static final List<String> KNOWN = List.of("$schema", "$id", "title", "description", "type", "required",
			"properties", "items", "enum", "const", "minimum", "$ref", "$defs");

	private final JsonNode root;

	private JsonSchemaSubset(JsonNode root) {
		this.root = root;
	}

	public static JsonSchemaSubset load(Path schema) throws IOException {
		return new JsonSchemaSubset(new ObjectMapper().readTree(Files.readString(schema)));
	}

	/** What does not match, one line each with its JSON pointer; empty when it validates. */
	public List<String> problems(String document) {
		List<String> problems = new ArrayList<>();
		check(this.root, new ObjectMapper().readTree(document), "", problems);
		return problems;
	}

	private void check(JsonNode schema, JsonNode value, String at, List<String> problems) {
		for (Iterator<String> names = schema.propertyNames().iterator(); names.hasNext();) {
			String keyword = names.next();
			if (!KNOWN.contains(keyword)) {
				problems.add(at + ": schema keyword " + keyword + " is not supported by this validator");
			}
		}
		if (schema.has("$ref")) {
			String ref = schema.get("$ref").asString();
			JsonNode target = this.root.at(ref.substring(1));
			if (target.isMissingNode()) {
				problems.add(at + ": unresolved $ref " + ref);
				return;
			}
			check(target, value, at, problems);
		}
		if (schema.has("type") && !typeMatches(schema.get("type"), value)) {
			problems.add(at + ": " + value.getNodeType() + " is not of type " + schema.get("type"));
			return;
		}
		if (schema.has("const") && !schema.get("const").equals(value)) {
			problems.add(at + ": " + value + " is not " + schema.get("const"));
		}
		if (schema.has("enum")) {
			boolean found = false;
			for (JsonNode option : schema.get("enum")) {
				found |= option.equals(value);
			}
			if (!found) {
				problems.add(at + ": " + value + " is not one of " + schema.get("enum"));
			}
		}
		if (schema.has("minimum") && value.isNumber() && value.asDouble() < schema.get("minimum").asDouble()) {
			problems.add(at + ": " + value + " is below " + schema.get("minimum"));
		}
		if (value.isObject()) {
			if (schema.has("required")) {
				for (JsonNode name : schema.get("required")) {
					if (!value.has(name.asString())) {
						problems.add(at + ": missing " + name.asString());
					}
				}
			}
			if (schema.has("properties")) {
				for (Map.Entry<String, JsonNode> property : schema.get("properties").properties()) {
					if (value.has(property.getKey())) {
						check(property.getValue(), value.get(property.getKey()), at + "/" + property.getKey(), problems);
					}
				}
			}
		}
		if (value.isArray() && schema.has("items")) {
			for (int i = 0; i < value.size(); i++) {
				check(schema.get("items"), value.get(i), at + "/" + i, problems);
			}
		}
	}

	private static boolean typeMatches(JsonNode type, JsonNode value) {
		if (type.isArray()) {
			for (JsonNode one : type) {
				if (typeMatches(one, value)) {
					return true;
				}
			}
			return false;
		}
		return switch (type.asString()) {
			case "object" -> value.isObject();
			case "array" -> value.isArray();
			case "string" -> value.isString();
			case "integer" -> value.isIntegralNumber();
			case "number" -> value.isNumber();
			case "boolean" -> value.isBoolean();
			case "null" -> value.isNull();
			default -> false;
		};
	}

}
