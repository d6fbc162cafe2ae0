package io.github.startuptelemetry.export.internal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.ServiceLoader;

import io.opentelemetry.exporter.internal.grpc.GrpcSenderProvider;
import io.opentelemetry.exporter.internal.http.HttpSenderProvider;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With OkHttp's sender beside the JDK's (Boot's OpenTelemetry puts it on the test class path, as
 * the gRPC add-on does on an application's), the starter's own SDK sees the JDK's HTTP sender
 * alone, and every gRPC sender and other resource as they are.
 */
class HttpSenderFilterTest {

	private final ClassLoader application = getClass().getClassLoader();

	@Test
	void theJdksHttpSenderAloneWhereOkHttpsIsThereToo() {
		assertThat(providers(HttpSenderProvider.class, this.application)).contains(
				"io.opentelemetry.exporter.sender.jdk.internal.JdkHttpSenderProvider",
				"io.opentelemetry.exporter.sender.okhttp.internal.OkHttpHttpSenderProvider");
		assertThat(providers(HttpSenderProvider.class, HttpSenderFilter.jdkOnly(this.application)))
			.containsExactly("io.opentelemetry.exporter.sender.jdk.internal.JdkHttpSenderProvider");
	}

	@Test
	void everythingElseAsTheApplicationHasIt() throws Exception {
		ClassLoader filter = HttpSenderFilter.jdkOnly(this.application);
		assertThat(providers(GrpcSenderProvider.class, filter))
			.containsExactlyElementsOf(providers(GrpcSenderProvider.class, this.application))
			.isNotEmpty();
		assertThat(Collections.list(filter.getResources("META-INF/MANIFEST.MF")))
			.hasSameSizeAs(Collections.list(this.application.getResources("META-INF/MANIFEST.MF")));
		assertThat(filter.loadClass(HttpSenderProvider.class.getName())).isSameAs(HttpSenderProvider.class);
	}

	private static <T> List<String> providers(Class<T> type, ClassLoader loader) {
		List<String> names = new ArrayList<>();
		ServiceLoader.load(type, loader).stream().forEach((provider) -> names.add(provider.type().getName()));
		return names;
	}

}
