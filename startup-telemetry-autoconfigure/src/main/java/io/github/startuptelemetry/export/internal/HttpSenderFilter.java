package io.github.startuptelemetry.export.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

/**
 * The class loader the starter's own SDK finds its parts through: the application's, but where
 * the JDK's HTTP sender registers itself beside another (OkHttp's, which the gRPC add-on brings
 * for gRPC and which registers an HTTP sender too), it shows the SDK the JDK's only. OTLP/HTTP
 * then stays on the JDK's client, without the SDK's "Multiple HttpSenderProvider" warning and
 * without the global setting that would choose for the application's own exporters too. Defines
 * no class: every class is its parent's.
 */
final class HttpSenderFilter extends ClassLoader {

	static {
		ClassLoader.registerAsParallelCapable();
	}

	private static final String JDK_SENDER = "io.opentelemetry.exporter.sender.jdk.internal.JdkHttpSenderProvider";

	private HttpSenderFilter(ClassLoader parent) {
		super(parent);
	}

	/** {@code parent}, showing the JDK's HTTP sender alone when it has it. */
	static ClassLoader jdkOnly(ClassLoader parent) {
		return new HttpSenderFilter(parent);
	}

	/**
	 * The service files of the HTTP sender SPI (its name before and after OpenTelemetry 1.62
	 * alike: both end in {@code HttpSenderProvider}): the JDK sender's alone when it is among
	 * them; every other resource as the parent has it.
	 */
	@Override
	public Enumeration<URL> getResources(String name) throws IOException {
		Enumeration<URL> all = super.getResources(name);
		if (!name.startsWith("META-INF/services/") || !name.endsWith(".HttpSenderProvider")) {
			return all;
		}
		List<URL> files = Collections.list(all);
		List<URL> jdk = new ArrayList<>();
		for (URL file : files) {
			if (names(file, JDK_SENDER)) {
				jdk.add(file);
			}
		}
		return Collections.enumeration(jdk.isEmpty() ? files : jdk);
	}

	private static boolean names(URL serviceFile, String provider) {
		try (BufferedReader reader = new BufferedReader(
				new InputStreamReader(serviceFile.openStream(), StandardCharsets.UTF_8))) {
			for (String line = reader.readLine(); line != null; line = reader.readLine()) {
				int comment = line.indexOf('#');
				if ((comment >= 0 ? line.substring(0, comment) : line).strip().equals(provider)) {
					return true;
				}
			}
		}
		catch (IOException ex) {
			// unreadable: not the JDK's
		}
		return false;
	}

}
