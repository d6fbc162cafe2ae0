package io.github.startuptelemetry.internal;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.jspecify.annotations.Nullable;

/** This host's name for a report: the local host's name, else {@code HOSTNAME}, else unknown. */
public final class HostName {

	private HostName() {
	}

	/**
	 * The kernel's name for this host, as Gym's servers put it on their resource
	 * ({@code host.name}, Python's {@code socket.gethostname()}): read from Linux's
	 * {@code /proc/sys/kernel/hostname} (no name lookup, no DNS), else {@code HOSTNAME}, else
	 * {@link #get()}.
	 */
	public static @Nullable String local() {
		try {
			Path kernel = Path.of("/proc/sys/kernel/hostname");
			if (Files.isReadable(kernel)) {
				String name = Files.readString(kernel, StandardCharsets.UTF_8).strip();
				if (!name.isEmpty()) {
					return name;
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			// not Linux, or not readable: the fallbacks below
		}
		String env = System.getenv("HOSTNAME");
		return (env != null && !env.isBlank()) ? env.strip() : get();
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
