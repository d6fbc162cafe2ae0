package io.github.startuptelemetry.it.testcontexts;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import io.github.startuptelemetry.it.support.JsonSchemaSubset;
import io.github.startuptelemetry.it.support.OtlpReceiver;
import io.github.startuptelemetry.it.support.OtlpReceiver.ReceivedSpan;
import io.github.startuptelemetry.it.support.SampleJars;
import io.github.startuptelemetry.it.support.TestContextsDemo;
import io.github.startuptelemetry.it.support.TestContextsDemo.Build;
import io.github.startuptelemetry.report.gate.Change;
import io.github.startuptelemetry.report.gate.ReportComparison;
import io.github.startuptelemetry.report.gate.ReportTimes;
import io.github.startuptelemetry.report.gate.Settings;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * startup-telemetry-test as a user meets it under Maven: a small Boot project
 * ({@code test-contexts-demo}: two test classes and a nested one, one of them mocking a bean) built
 * and tested by a Maven of its own, offline, against the reactor's jars (laid out in a local
 * repository of its own, everything else read from this build's), its Surefire in two forks with
 * an OTLP endpoint set. Each fork writes its part of the report, the last the merged files
 * (validated against docs/startup-test-report.schema.json); the mocked bean's context says why it
 * is new; one trace per fork arrives; the regression gate names that context as new against a
 * baseline without it.
 */
class TestContextsMavenProcessTest {

	private static final Duration TIMEOUT = Duration.ofMinutes(4);

	@TempDir
	Path tmp;

	@Test
	void aMavenBuildsContextsAreReportedOncePerRunWithWhyEachWasNew() throws Exception {
		TestContextsDemo demo = TestContextsDemo.copy(this.tmp);
		Path project = demo.project();
		try (OtlpReceiver receiver = OtlpReceiver.start()) {
			Build build = demo.maven(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.baseUrl(), "OTEL_METRICS_EXPORTER",
					"none"), TIMEOUT, "test");
			assertThat(build.exitCode()).as(build.output()).isZero();
			// each fork's console summary; the one that started the mocked context says why it was new
			assertThat(build.output()).contains("Tests run: 3, Failures: 0, Errors: 0")
				.contains("[startup-telemetry] Test contexts: ")
				.contains("new: differs from #1 (GreetingTest) in bean overrides")
				.contains("@MockitoBean DemoApplication.GreetingService (field mocked)")
				.containsPattern("slowest beans:\\n(.*\\n){0,4} +[0-9]+ ms +demoApplication\\.Catalogue in #1\\n");
			Path json = project.resolve("target/startup-test-report.json");
			String text = Files.readString(json, StandardCharsets.UTF_8);
			assertThat(JsonSchemaSubset.load(SampleJars.repositoryRoot().resolve("docs/startup-test-report.schema.json")).problems(text))
				.isEmpty();
			JsonNode report = new ObjectMapper().readTree(text);
			assertThat(report.get("kind").asString()).isEqualTo("tests");
			// both forks ran a class that needs a context: each wrote its part, the last the whole
			assertThat(report.get("jvms").size()).as(text).isEqualTo(2);
			try (Stream<Path> parts = Files.list(project.resolve("target/startup-test-report"))) {
				Path run = parts.filter(Files::isDirectory).findFirst().orElseThrow();
				try (Stream<Path> files = Files.list(run)) {
					assertThat(files.filter((file) -> file.toString().endsWith(".json"))).hasSize(2);
				}
			}
			List<JsonNode> contexts = new ArrayList<>();
			report.get("contexts").forEach(contexts::add);
			JsonNode mocked = contexts.stream()
				.filter((context) -> context.get("name").asString().contains("@MockitoBean"))
				.findFirst()
				.orElseThrow();
			assertThat(mocked.get("name").asString())
				.matches("DemoApplication · @MockitoBean DemoApplication.GreetingService #[0-9a-f]{6}");
			assertThat(mocked.get("testClasses").get(0).asString()).isEqualTo("GreetingTest.WhenMocked");
			assertThat(mocked.get("why").get("text").asString()).isEqualTo("differs from #1 (GreetingTest) in bean overrides");
			assertThat(mocked.get("why").get("differences").get(0).get("added").get(0).asString())
				.isEqualTo("@MockitoBean DemoApplication.GreetingService (field mocked)");
			assertThat(mocked.get("timeline").get("beanSpans").toString()).contains("\"demoApplication.Catalogue\"");
			// the plain configuration: CatalogueTest took it from its fork's cache, or started it again in the other fork
			List<JsonNode> plain = contexts.stream()
				.filter((context) -> context.get("name").asString().matches("DemoApplication #[0-9a-f]{6}"))
				.toList();
			assertThat(plain).isNotEmpty().allSatisfy((context) -> assertThat(context.get("why").get("text").asString())
				.isEqualTo("the first context in its JVM"));
			boolean shared = plain.stream().anyMatch((context) -> context.get("testClasses").toString().contains("CatalogueTest")
					&& context.get("testClasses").toString().contains("GreetingTest\""));
			boolean duplicated = plain.size() == 2 && !plain.get(1).get("why").get("otherJvm").isNull();
			assertThat(shared || duplicated).as(text).isTrue();
			Document page = Jsoup.parse(project.resolve("target/startup-test-report.html").toFile(), "UTF-8");
			assertThat(page.select("[data-row=context]")).hasSize(contexts.size());
			assertThat(page.text()).contains("differs from #1 (GreetingTest) in bean overrides");
			// one trace per test JVM, a context span under it for each of its contexts
			List<ReceivedSpan> spans = receiver.awaitSpans(
					(received) -> named(received, "startup.tests.context").size() == contexts.size()
							&& named(received, "startup.tests").size() == 2,
					Duration.ofSeconds(30));
			List<ReceivedSpan> roots = named(spans, "startup.tests");
			assertThat(roots.stream().map(ReceivedSpan::traceId).collect(Collectors.toSet())).hasSize(2);
			Set<String> rootIds = roots.stream().map(ReceivedSpan::spanId).collect(Collectors.toSet());
			assertThat(named(spans, "startup.tests.context")).allSatisfy((span) -> {
				assertThat(rootIds).contains(span.parentSpanId());
				assertThat(span.attribute("startup.test.context")).startsWith("DemoApplication");
			});
			// the gate: against a baseline without the mocked context, it is new, by name
			ReportComparison comparison = ReportComparison.compare(List.of(ReportTimes.readTimes(without(report,
					mocked.get("name").asString()))), ReportTimes.readTimes(text), Settings.DEFAULT);
			assertThat(comparison.culprits()).extracting(Change::server).contains(mocked.get("name").asString());
			assertThat(comparison.exitCode()).isEqualTo(3);
		}
	}

	private static List<ReceivedSpan> named(List<ReceivedSpan> spans, String name) {
		return spans.stream().filter((span) -> span.name().equals(name)).toList();
	}

	/** The report as a run without that context would have written it. */
	private static String without(JsonNode report, String name) {
		ObjectNode copy = (ObjectNode) report.deepCopy();
		ArrayNode contexts = (ArrayNode) copy.get("contexts");
		for (int i = contexts.size() - 1; i >= 0; i--) {
			if (contexts.get(i).get("name").asString().equals(name)) {
				contexts.remove(i);
			}
		}
		return copy.toString();
	}

}
