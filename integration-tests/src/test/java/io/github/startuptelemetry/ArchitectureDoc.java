package io.github.startuptelemetry;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code docs/architecture.md} states by hand and {@link ArchitectureTest} checks: the
 * Public API table (each public type outside {@code internal}, with its reason). The Modules and
 * Packages tables are not read here: {@link PackageMap} is their source and
 * {@link PackageMapTest} writes them.
 * <p>
 * An optional {@code ## Exceptions} section lists what the rules let pass for now, each row
 * with its reason and until when: {@code not API} rows (public types outside {@code internal}
 * that are not API yet).
 */
record ArchitectureDoc(Set<String> publicApi, Set<String> publicNotApi) {

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
		Set<String> publicApi = new LinkedHashSet<>();
		for (List<String> row : tableRows(section(markdown, "Public API"))) {
			List<String> types = codes(row.get(0));
			if (types.isEmpty() || row.size() < 2 || row.get(1).isBlank()) {
				throw new IllegalStateException("A Public API row names its types and says why they are API: " + row);
			}
			publicApi.addAll(types);
		}
		if (publicApi.isEmpty()) {
			throw new IllegalStateException("architecture.md has no Public API table");
		}
		Set<String> publicNotApi = new LinkedHashSet<>();
		if (markdown.contains("\n## Exceptions")) {
			for (List<String> row : tableRows(section(markdown, "Exceptions"))) {
				List<String> names = codes(row.get(0));
				String kind = (row.size() > 2) ? row.get(1) : "";
				if (kind.equals("not API") && !names.isEmpty()) {
					publicNotApi.addAll(names);
				}
				else {
					throw new IllegalStateException("An Exceptions row names what, says 'not API', and why: " + row);
				}
			}
		}
		return new ArchitectureDoc(publicApi, publicNotApi);
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

}
