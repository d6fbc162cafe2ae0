package io.github.startuptelemetry.kubernetes.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventList;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.utils.Serialization;
import tools.jackson.core.type.TypeReference;

/**
 * The real pods, events and leases under {@code k8s-fixtures/}: documents real clusters produced,
 * copied from public repositories (each file's {@code .source.txt} names its source), read as the
 * API server sent them.
 */
public final class KubernetesFixtures {

	private KubernetesFixtures() {
	}

	public static Pod pod(String file) {
		return Serialization.unmarshal(text(file), Pod.class);
	}

	/** The events of an {@code EventList} fixture, or the one event of an {@code Event} fixture. */
	public static List<Event> events(String file) {
		String text = text(file);
		return text.contains("\"EventList\"") ? Serialization.unmarshal(text, EventList.class).getItems()
				: List.of(Serialization.unmarshal(text, Event.class));
	}

	public static List<ContainerStatus> containerStatuses(String file) {
		return Serialization.unmarshal(text(file), new TypeReference<List<ContainerStatus>>() {
		});
	}

	public static Lease lease(String file) {
		return Serialization.unmarshal(text(file), Lease.class);
	}

	public static String text(String file) {
		try (InputStream in = KubernetesFixtures.class.getResourceAsStream("/k8s-fixtures/" + file)) {
			if (in == null) {
				throw new IllegalArgumentException("no fixture " + file);
			}
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
