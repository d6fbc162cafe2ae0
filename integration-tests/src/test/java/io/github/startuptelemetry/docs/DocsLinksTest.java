package io.github.startuptelemetry.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every relative link in the README, under {@code docs/} and under {@code bench/} resolves, as
 * GitHub resolves it: the file exists and a {@code #fragment} is a heading of it.
 */
class DocsLinksTest {

	@Test
	void everyRelativeLinkOfTheDocsResolves() throws IOException {
		Path root = RepositoryRoot.find();
		List<Path> files = markdownFiles(root);
		assertThat(files).as("Markdown files checked").contains(root.resolve("README.md"),
				root.resolve("docs/architecture.md"));
		MarkdownLinks links = new MarkdownLinks(root);
		List<String> broken = new ArrayList<>();
		files.forEach((file) -> broken.addAll(links.brokenLinks(file)));
		assertThat(broken).as("broken links (file:line: target: why)").isEmpty();
	}

	@Test
	void aMissingFileAMissingAnchorAndAnEscapeAreBroken(@TempDir Path root) throws IOException {
		Files.createDirectories(root.resolve("docs"));
		Files.writeString(root.resolve("docs/page.md"), """
				# A page

				## The `telemetry.supervisor` properties: *all* of them (2026-12-01)

				## Again
				## Again
				""");
		Path readme = Files.writeString(root.resolve("README.md"), """
				[ok](docs/page.md) [ok](docs/page.md#the-telemetrysupervisor-properties-all-of-them-2026-12-01)
				[ok](docs/page.md#again-1) [ok](docs/) [ok](#top) <a id="top"></a>
				[gone](docs/gone.md) [no anchor](docs/page.md#again-2)
				[outside](../elsewhere.md)
				""");
		assertThat(new MarkdownLinks(root).brokenLinks(readme)).containsExactly(
				"README.md:3: docs/gone.md: no such file",
				"README.md:3: docs/page.md#again-2: no heading with anchor #again-2 in docs/page.md",
				"README.md:4: ../elsewhere.md: points outside the repository");
	}

	@Test
	void codeAndAbsoluteUrlsAreNotCheckedButReferenceDefinitionsAre(@TempDir Path root) throws IOException {
		Path readme = Files.writeString(root.resolve("README.md"), """
				```
				[in a fence](nowhere.md)
				```
				`[inline code](nowhere.md)` [web](https://example.com/x.md) [mail](mailto:a@b.c)
				![picture](missing.png "a title")
				[ref]: missing-ref.md
				""");
		assertThat(new MarkdownLinks(root).brokenLinks(readme)).containsExactly(
				"README.md:5: missing.png: no such file", "README.md:6: missing-ref.md: no such file");
	}

	@Test
	void anchorsFollowGitHubsRules() {
		assertThat(MarkdownLinks.slug("Or write your own launcher: `SupervisorStartup`"))
			.isEqualTo("or-write-your-own-launcher-supervisorstartup");
		assertThat(MarkdownLinks.slug("What `beans_instantiated` was doing")).isEqualTo("what-beans_instantiated-was-doing");
		assertThat(MarkdownLinks.slug("Running beside NeMo Gym / NeMo RL")).isEqualTo("running-beside-nemo-gym--nemo-rl");
		assertThat(MarkdownLinks.slug("Why was it slow?")).isEqualTo("why-was-it-slow");
		assertThat(MarkdownLinks.slug("spawn→ready, [the link](x.md)")).isEqualTo("spawnready-the-link");
	}

	private static List<Path> markdownFiles(Path root) throws IOException {
		List<Path> files = new ArrayList<>();
		files.add(root.resolve("README.md"));
		for (String dir : List.of("docs", "bench")) {
			try (Stream<Path> walk = Files.walk(root.resolve(dir))) {
				walk.filter((path) -> path.toString().endsWith(".md")).sorted().forEach(files::add);
			}
		}
		return files;
	}

}
