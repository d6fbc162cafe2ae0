package io.github.startuptelemetry.report;

import java.lang.reflect.InvocationTargetException;

import io.github.startuptelemetry.contract.ExitCodes;

/**
 * The regression gate's command line under its old name: it moved to
 * {@code io.github.startuptelemetry.report.gate.Compare} in {@code startup-telemetry-fleet}. This
 * class runs it, with a warning, so that a CI script naming the old class keeps working.
 *
 * @deprecated since 0.1.0, for removal: run {@code io.github.startuptelemetry.report.gate.Compare}
 * with {@code startup-telemetry-fleet} on the class path (docs/ci.md)
 */
@Deprecated(since = "0.1.0", forRemoval = true)
public final class Compare {

	static final String GATE = "io.github.startuptelemetry.report.gate.Compare";

	private Compare() {
	}

	/**
	 * Runs the gate's {@code main} with the same arguments.
	 * @param args as the gate's
	 * @throws Exception what the gate throws
	 */
	public static void main(String[] args) throws Exception {
		Class<?> gate;
		try {
			gate = Class.forName(GATE);
		}
		catch (ClassNotFoundException ex) {
			System.err.println("The regression gate is in startup-telemetry-fleet now: run java -cp "
					+ "startup-telemetry-autoconfigure-<version>.jar:startup-telemetry-fleet-<version>.jar " + GATE
					+ " [options] base.json ... new.json");
			System.exit(ExitCodes.COMPARE_UNUSABLE);
			return;
		}
		System.err.println(Compare.class.getName() + " is deprecated: run " + GATE);
		try {
			gate.getMethod("main", String[].class).invoke(null, (Object) args);
		}
		catch (InvocationTargetException ex) {
			throw (ex.getCause() instanceof Exception cause) ? cause : ex;
		}
	}

}
