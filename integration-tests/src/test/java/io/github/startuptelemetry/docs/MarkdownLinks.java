package io.github.startuptelemetry.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks the relative links of Markdown files as GitHub renders them: the file (or directory) a
 * link names must exist inside the repository, and a {@code #fragment} into a Markdown file must
 * be one of its headings' anchors (GitHub's rule: the heading's text, lower case, without
 * punctuation but {@code -} and {@code _}, spaces as {@code -}; a repeated one gets {@code -1},
 * {@code -2}, ...) or an explicit {@code <a id>}/{@code <a name>}. Links inside code (fenced
 * blocks, inline code) are not links; absolute URLs ({@code https:}, {@code mailto:}) are not
 * checked.
 */
final class MarkdownLinks {

	/** An inline link or image: {@code [text](target "title")}, {@code ![alt](<target>)}. */
	private static final Pattern INLINE = Pattern.compile("\\]\\(\\s*(<[^>]*>|[^)\\s]+)(?:\\s+(?:\"[^\"]*\"|'[^']*'))?\\s*\\)");

	/** A reference definition: {@code [label]: target}. */
	private static final Pattern REFERENCE = Pattern.compile("^ {0,3}\\[[^\\]]+\\]:\\s*(<[^>]*>|\\S+)");

	private static final Pattern CODE_SPAN = Pattern.compile("(`+)(.+?)\\1");

	private static final Pattern FENCE = Pattern.compile("^ {0,3}(```|~~~)");

	private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)(?:\\s+#+)?\\s*$");

	private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+[^>]*(?:id|name)\\s*=\\s*\"([^\"]+)\"",
			Pattern.CASE_INSENSITIVE);

	private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");

	private final Path root;

	private final Map<Path, Set<String>> anchors = new HashMap<>();

	MarkdownLinks(Path root) {
		this.root = root.toAbsolutePath().normalize();
	}

	/** Every broken link of a file, one line each ({@code file:line: target: why}). */
	List<String> brokenLinks(Path file) {
		List<String> broken = new ArrayList<>();
		List<String> lines = read(file);
		boolean fenced = false;
		for (int i = 0; i < lines.size(); i++) {
			String line = lines.get(i);
			if (FENCE.matcher(line).find()) {
				fenced = !fenced;
				continue;
			}
			if (fenced) {
				continue;
			}
			for (String target : targets(line)) {
				String problem = check(file, target);
				if (problem != null) {
					broken.add(this.root.relativize(file.toAbsolutePath().normalize()) + ":" + (i + 1) + ": "
							+ target + ": " + problem);
				}
			}
		}
		return broken;
	}

	/** The link targets of one line outside code, as written. */
	static List<String> targets(String line) {
		String text = CODE_SPAN.matcher(line).replaceAll("");
		List<String> targets = new ArrayList<>();
		Matcher reference = REFERENCE.matcher(text);
		if (reference.find()) {
			targets.add(unbracket(reference.group(1)));
		}
		Matcher inline = INLINE.matcher(text);
		while (inline.find()) {
			targets.add(unbracket(inline.group(1)));
		}
		return targets;
	}

	private static String unbracket(String target) {
		return (target.startsWith("<") && target.endsWith(">")) ? target.substring(1, target.length() - 1) : target;
	}

	/** Why a target does not resolve from a file, or {@code null} when it does. */
	private String check(Path file, String target) {
		if (SCHEME.matcher(target).find() || target.startsWith("//")) {
			return null;
		}
		int hash = target.indexOf('#');
		String pathPart = URLDecoder.decode((hash < 0) ? target : target.substring(0, hash), StandardCharsets.UTF_8);
		String fragment = (hash < 0) ? null : target.substring(hash + 1);
		Path resolved;
		if (pathPart.isEmpty()) {
			resolved = file.toAbsolutePath().normalize();
		}
		else if (pathPart.startsWith("/")) {
			resolved = this.root.resolve(pathPart.substring(1)).normalize();
		}
		else {
			resolved = file.toAbsolutePath().getParent().resolve(pathPart).normalize();
		}
		if (!resolved.startsWith(this.root)) {
			return "points outside the repository";
		}
		if (!Files.exists(resolved)) {
			return "no such file";
		}
		if (fragment == null || fragment.isEmpty() || !resolved.toString().endsWith(".md")) {
			return null;
		}
		Set<String> known = this.anchors.computeIfAbsent(resolved, MarkdownLinks::anchorsOf);
		String anchor = URLDecoder.decode(fragment, StandardCharsets.UTF_8);
		return known.contains(anchor) ? null : "no heading with anchor #" + anchor + " in " + this.root.relativize(resolved);
	}

	/** The anchors GitHub gives a Markdown file: one per heading, plus explicit HTML anchors. */
	static Set<String> anchorsOf(Path file) {
		Set<String> anchors = new LinkedHashSet<>();
		Map<String, Integer> seen = new HashMap<>();
		boolean fenced = false;
		for (String line : read(file)) {
			if (FENCE.matcher(line).find()) {
				fenced = !fenced;
				continue;
			}
			if (fenced) {
				continue;
			}
			Matcher html = HTML_ANCHOR.matcher(line);
			while (html.find()) {
				anchors.add(html.group(1));
			}
			Matcher heading = HEADING.matcher(line);
			if (heading.matches()) {
				String slug = slug(heading.group(2));
				int count = seen.merge(slug, 1, Integer::sum) - 1;
				anchors.add((count == 0) ? slug : slug + "-" + count);
			}
		}
		return anchors;
	}

	/** GitHub's anchor of a heading written as {@code text} (github-slugger on the rendered text). */
	static String slug(String text) {
		String rendered = text.replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1") // links and images: their text
			.replaceAll("<[^>]+>", "") // HTML tags
			.replace("`", "")
			.replace("*", "");
		StringBuilder slug = new StringBuilder();
		rendered.toLowerCase(Locale.ROOT).codePoints().forEach((c) -> {
			if (c == ' ') {
				slug.append('-');
			}
			else if (Character.isLetterOrDigit(c) || c == '-' || c == '_'
					|| Character.getType(c) == Character.NON_SPACING_MARK) {
				slug.appendCodePoint(c);
			}
		});
		return slug.toString();
	}

	private static List<String> read(Path file) {
		try {
			return Files.readAllLines(file, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
