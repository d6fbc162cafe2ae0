package io.github.startuptelemetry.it.support;

import java.util.function.IntSupplier;

import io.github.startuptelemetry.launch.internal.FreePorts;

/**
 * Free loopback ports for the processes a test starts, chosen as the supervisor chooses its
 * servers' ({@link FreePorts}: below the kernel's ephemeral range, where no outgoing connection
 * of the tests running beside it can take one before its process binds it), never twice in a
 * test JVM.
 */
public final class Ports {

	private static final IntSupplier PORTS = FreePorts.belowEphemeralRange();

	private Ports() {
	}

	public static synchronized int free() {
		return PORTS.getAsInt();
	}

}
