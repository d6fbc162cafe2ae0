package io.github.startuptelemetry.it.support.kubernetes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventList;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;

import io.github.startuptelemetry.it.support.SampleJars;

/**
 * The real pods and events the kubernetes module's tests keep (its {@code k8s-fixtures}, each
 * with a {@code .source.txt} naming the public repository it came from), for holding the simulated
 * control plane to what real clusters wrote.
 */
public final class RealDocuments {

	static final Path DIR = SampleJars.repositoryRoot()
		.resolve("startup-telemetry-kubernetes/src/test/resources/k8s-fixtures");

	private RealDocuments() {
	}

	public static Pod pod(String file) {
		return Serialization.unmarshal(text(file), Pod.class);
	}

	public static List<Event> events(String file) {
		String text = text(file);
		return text.contains("\"EventList\"") ? Serialization.unmarshal(text, EventList.class).getItems()
				: List.of(Serialization.unmarshal(text, Event.class));
	}

	static String text(String file) {
		try {
			return Files.readString(DIR.resolve(file));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
