package io.github.startuptelemetry;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code docs/architecture.md} states, read from its two tables so that the page and
 * {@link ArchitectureTest} cannot drift apart: the Packages table (each package, and the
 * packages of ours it may depend on) and the Public API table (each public type outside
 * {@code internal}, with its reason).
 * <p>
 * The "depends on" column names packages of ours in backticks ({@code `internal.*`} for every
 * internal package); other words there (Spring Boot, OTel API) are for the reader and allow
 * nothing, except {@code JDK only}, which forbids every dependency beyond the JDK, JSpecify's
 * annotations and the packages named.
 * <p>
 * An optional {@code ## Exceptions} section lists what the rules let pass for now, each row
 * with its reason and until when: {@code cycle} rows (the packages whose dependencies on each
 * other the cycle rule ignores) and {@code not API} rows (public types outside
 * {@code internal} that are not API yet).
 */
record ArchitectureDoc(Map<String, Allowed> packages, Set<String> publicApi, Set<String> publicNotApi,
		List<List<String>> allowedCycles) {

	private static final Pattern CODE = Pattern.compile("`([^`]+)`");

	static ArchitectureDoc read(Path file) {
		try {
			return parse(Files.readString(file, StandardCharsets.UTF_8));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	static ArchitectureDoc parse(String markdown) {
		Map<String, Allowed> packages = new LinkedHashMap<>();
		for (List<String> row : tableRows(section(markdown, "Packages"))) {
			List<String> names = codes(row.get(0));
			if (names.size() != 1 || row.size() < 3) {
				throw new IllegalStateException("A Packages row names one package and what it depends on: " + row);
			}
			Set<String> allowed = new LinkedHashSet<>(codes(row.get(row.size() - 1)));
			packages.put(names.get(0),
					new Allowed(allowed, row.get(row.size() - 1).contains("JDK only")));
		}
		Set<String> publicApi = new LinkedHashSet<>();
		for (List<String> row : tableRows(section(markdown, "Public API"))) {
			List<String> types = codes(row.get(0));
			if (types.isEmpty() || row.size() < 2 || row.get(1).isBlank()) {
				throw new IllegalStateException("A Public API row names its types and says why they are API: " + row);
			}
			publicApi.addAll(types);
		}
		if (packages.isEmpty() || publicApi.isEmpty()) {
			throw new IllegalStateException("architecture.md has no Packages or no Public API table");
		}
		Set<String> publicNotApi = new LinkedHashSet<>();
		List<List<String>> allowedCycles = new ArrayList<>();
		if (markdown.contains("\n## Exceptions")) {
			for (List<String> row : tableRows(section(markdown, "Exceptions"))) {
				List<String> names = codes(row.get(0));
				String kind = (row.size() > 2) ? row.get(1) : "";
				if (kind.equals("cycle") && names.size() >= 2) {
					allowedCycles.add(names);
				}
				else if (kind.equals("not API") && !names.isEmpty()) {
					publicNotApi.addAll(names);
				}
				else {
					throw new IllegalStateException("An Exceptions row names what, says 'cycle' or 'not API', and why: " + row);
				}
			}
		}
		return new ArchitectureDoc(packages, publicApi, publicNotApi, allowedCycles);
	}

	/** The text of the section whose {@code ## } heading starts with {@code title}, up to the next one. */
	private static String section(String markdown, String title) {
		int start = markdown.indexOf("\n## " + title);
		if (start < 0) {
			throw new IllegalStateException("architecture.md has no '## " + title + "' section");
		}
		int end = markdown.indexOf("\n## ", start + 1);
		return markdown.substring(start, (end < 0) ? markdown.length() : end);
	}

	/** The body rows of the section's first table, cell by cell (header and rule skipped). */
	private static List<List<String>> tableRows(String section) {
		List<List<String>> rows = new ArrayList<>();
		boolean header = true;
		for (String line : section.lines().toList()) {
			if (!line.startsWith("|")) {
				if (!rows.isEmpty()) {
					break;
				}
				continue;
			}
			if (header || line.startsWith("|---") || line.startsWith("| ---")) {
				header = false;
				continue;
			}
			List<String> cells = new ArrayList<>();
			for (String cell : line.substring(1, line.lastIndexOf('|')).split("\\|", -1)) {
				cells.add(cell.strip());
			}
			rows.add(cells);
		}
		return rows;
	}

	private static List<String> codes(String cell) {
		List<String> names = new ArrayList<>();
		Matcher matcher = CODE.matcher(cell);
		while (matcher.find()) {
			names.add(matcher.group(1));
		}
		return names;
	}

	/**
	 * What one package may depend on.
	 *
	 * @param packages packages of ours, relative to the root ({@code internal.*}: any internal one)
	 * @param jdkOnly whether nothing but the JDK (and JSpecify's annotations) is allowed beyond them
	 */
	record Allowed(Set<String> packages, boolean jdkOnly) {

		boolean allows(String relativePackage) {
			for (String allowed : this.packages) {
				if (allowed.equals(relativePackage) || (allowed.endsWith(".*")
						&& relativePackage.startsWith(allowed.substring(0, allowed.length() - 1)))) {
					return true;
				}
			}
			return false;
		}

	}

}
