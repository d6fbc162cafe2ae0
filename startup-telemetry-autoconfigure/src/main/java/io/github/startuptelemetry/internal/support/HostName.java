package io.github.startuptelemetry.internal.support;

import java.net.InetAddress;

import org.jspecify.annotations.Nullable;

/** This host's name for a report: the local host's name, else {@code HOSTNAME}, else unknown. */
public final class HostName {

	private HostName() {
	}

	public static @Nullable String get() {
		try {
			return InetAddress.getLocalHost().getHostName();
		}
		catch (Exception ex) {
			return System.getenv("HOSTNAME");
		}
	}

}
