package io.github.startuptelemetry;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the published modules' POMs ask of an application: no Spring artifact outside the optional
 * ones. The build's Boot line (its parent's) must never reach an application on another line:
 * Gradle takes the highest version any POM asks for, and Boot 4's autoconfigure in a Boot 3.5
 * application breaks it. The application's own Boot brings Spring.
 */
class PublishedPomTest {

	private static final List<String> PUBLISHED = List.of("startup-telemetry-autoconfigure", "startup-telemetry-starter",
			"startup-telemetry-fleet", "startup-telemetry-kubernetes", "startup-telemetry-grpc");

	@Test
	void noPublishedModuleAsksForSpringButOptionally() throws Exception {
		List<String> asked = new ArrayList<>();
		for (String module : PUBLISHED) {
			Element project = DocumentBuilderFactory.newInstance()
				.newDocumentBuilder()
				.parse(Path.of("..", module, "pom.xml").toFile())
				.getDocumentElement();
			NodeList dependencies = project.getElementsByTagName("dependency");
			for (int i = 0; i < dependencies.getLength(); i++) {
				Element dependency = (Element) dependencies.item(i);
				if (dependency.getParentNode().getParentNode() != project) {
					continue; // dependency management, an exclusion
				}
				String group = text(dependency, "groupId");
				String scope = text(dependency, "scope");
				boolean optional = "true".equals(text(dependency, "optional"));
				if (group.startsWith("org.springframework") && !optional && !"test".equals(scope)
						&& !"provided".equals(scope)) {
					asked.add(module + ": " + group + ":" + text(dependency, "artifactId"));
				}
			}
		}
		assertThat(asked).as("Spring artifacts a published POM asks an application for").isEmpty();
	}

	private static String text(Element parent, String tag) {
		NodeList children = parent.getElementsByTagName(tag);
		return (children.getLength() == 0) ? "" : children.item(0).getTextContent().strip();
	}

}
