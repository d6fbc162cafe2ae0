package io.github.startuptelemetry;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The imports of Java sources that no code uses: only a comment names them ({@code {@link}},
 * {@code @see}, {@code {@value}}), or nothing does. Such an import is a dependency the bytecode
 * does not have but the source does: a reader, and a cycle check reading sources, would see one.
 * A small scanner: it splits each file into code and comments (string, character and text-block
 * literals blanked), then looks for each imported simple name in the code but the imports.
 */
final class JavadocImports {

	private static final Pattern IDENTIFIER = Pattern.compile("(?<![\\w$.])[\\p{javaJavaIdentifierStart}][\\p{javaJavaIdentifierPart}]*");

	private static final Pattern IMPORT = Pattern
		.compile("(?m)^\\s*import\\s+(static\\s+)?([\\w.]+?)(\\.\\*)?\\s*;");

	private JavadocImports() {
	}

	/** Each import under these source roots that no code uses, as {@code file: import a.B (why)}. */
	static List<String> unusedInCode(List<Path> sourceRoots) {
		List<String> found = new ArrayList<>();
		for (Path root : sourceRoots) {
			try (Stream<Path> files = Files.walk(root)) {
				for (Path file : files.filter((path) -> path.toString().endsWith(".java")).sorted().toList()) {
					for (String unused : unusedInCode(Files.readString(file, StandardCharsets.UTF_8))) {
						found.add(root.relativize(file) + ": " + unused);
					}
				}
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		return found;
	}

	/** The imports of one source that no code uses, each as {@code import a.B (why)}. */
	static List<String> unusedInCode(String source) {
		Split split = split(source);
		List<String> unused = new ArrayList<>();
		Matcher matcher = IMPORT.matcher(split.code());
		List<String[]> imports = new ArrayList<>();
		while (matcher.find()) {
			if (matcher.group(3) == null) { // a wildcard names no one type
				String name = matcher.group(2);
				imports.add(new String[] { name, name.substring(name.lastIndexOf('.') + 1) });
			}
		}
		// the code but its imports: a package-info's annotation comes before them
		Set<String> code = names(matcher.replaceAll(""));
		Set<String> comments = names(split.comments());
		for (String[] imported : imports) {
			if (!code.contains(imported[1])) {
				unused.add("import " + imported[0] + (comments.contains(imported[1]) ? " (used only in Javadoc)" : " (unused)"));
			}
		}
		return unused;
	}

	/** The identifiers the text names on their own, not as a member of something else ({@code x.Name}). */
	private static Set<String> names(String text) {
		Set<String> names = new HashSet<>();
		Matcher identifier = IDENTIFIER.matcher(text);
		while (identifier.find()) {
			names.add(identifier.group());
		}
		return names;
	}

	/** The source as code (comments and literals blanked) and as its comments alone. */
	private static Split split(String source) {
		StringBuilder code = new StringBuilder(source.length());
		StringBuilder comments = new StringBuilder();
		int i = 0;
		int n = source.length();
		while (i < n) {
			char c = source.charAt(i);
			if (source.startsWith("//", i)) {
				int end = source.indexOf('\n', i);
				end = (end < 0) ? n : end;
				comments.append(source, i, end).append('\n');
				i = end;
			}
			else if (source.startsWith("/*", i)) {
				int end = source.indexOf("*/", i + 2);
				end = (end < 0) ? n : end + 2;
				comments.append(source, i, end).append('\n');
				code.append(' ');
				i = end;
			}
			else if (source.startsWith("\"\"\"", i)) {
				int end = i + 3;
				while (end < n && !source.startsWith("\"\"\"", end)) {
					end += (source.charAt(end) == '\\') ? 2 : 1;
				}
				code.append("\"\"");
				i = Math.min(n, end + 3);
			}
			else if (c == '"' || c == '\'') {
				int end = i + 1;
				while (end < n && source.charAt(end) != c && source.charAt(end) != '\n') {
					end += (source.charAt(end) == '\\') ? 2 : 1;
				}
				code.append(c).append(c);
				i = Math.min(n, end + 1);
			}
			else {
				code.append(c);
				i++;
			}
		}
		return new Split(code.toString(), comments.toString());
	}

	private record Split(String code, String comments) {
	}

}
