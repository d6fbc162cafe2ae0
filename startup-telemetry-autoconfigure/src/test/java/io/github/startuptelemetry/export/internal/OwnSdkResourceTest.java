package io.github.startuptelemetry.export.internal;

import java.util.LinkedHashMap;
import java.util.Map;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.autoconfigure.ResourceConfiguration;
import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import io.opentelemetry.sdk.resources.Resource;
import org.junit.jupiter.api.Test;

import org.springframework.boot.opentelemetry.autoconfigure.OpenTelemetryResourceAttributes;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The starter's own SDK names a service as Boot's OpenTelemetry support does
 * ({@link OpenTelemetryResourceAttributes}): one application has one name whichever SDK exports
 * it. Each case is asked of Boot's own class and of the starter's resource alike.
 */
class OwnSdkResourceTest {

	private static final AttributeKey<String> SERVICE_NAME = AttributeKey.stringKey("service.name");

	private static final AttributeKey<String> SERVICE_NAMESPACE = AttributeKey.stringKey("service.namespace");

	@Test
	void namedNowhereItIsBootsUnknownServiceWithoutTheSdksJavaSuffix() {
		MockEnvironment environment = new MockEnvironment();
		Attributes ours = resource(environment, Map.of()).getAttributes();
		assertThat(ours.get(SERVICE_NAME)).isEqualTo("unknown_service").isEqualTo(boots(environment).get("service.name"));
		assertThat(ours.get(SERVICE_NAMESPACE)).isNull();
		assertThat(boots(environment)).doesNotContainKey("service.namespace");
		assertThat(ExportSettings.serviceName(environment)).isEqualTo("unknown_service");
	}

	@Test
	void theApplicationsNameAndGroupAreItsServiceAndNamespace() {
		MockEnvironment environment = new MockEnvironment().withProperty("spring.application.name", "api")
			.withProperty("spring.application.group", "rl");
		Attributes ours = resource(environment, Map.of()).getAttributes();
		assertThat(ours.get(SERVICE_NAME)).isEqualTo("api").isEqualTo(boots(environment).get("service.name"));
		assertThat(ours.get(SERVICE_NAMESPACE)).isEqualTo("rl").isEqualTo(boots(environment).get("service.namespace"));
	}

	@Test
	void theServerNameNamesTheServerNotTheService() {
		MockEnvironment environment = new MockEnvironment().withProperty("telemetry.startup.server-name", "model-0");
		assertThat(resource(environment, Map.of()).getAttributes().get(SERVICE_NAME)).isEqualTo("unknown_service")
			.isEqualTo(boots(environment).get("service.name"));
	}

	@Test
	void springsResourceAttributesWinOverTheApplicationsNameAndGroup() {
		MockEnvironment environment = new MockEnvironment().withProperty("spring.application.name", "api")
			.withProperty("spring.application.group", "rl")
			.withProperty("management.opentelemetry.resource-attributes.service.name", "configured")
			.withProperty("management.opentelemetry.resource-attributes.service.namespace", "team");
		Attributes ours = resource(environment, Map.of()).getAttributes();
		assertThat(ours.get(SERVICE_NAME)).isEqualTo("configured");
		assertThat(ours.get(SERVICE_NAMESPACE)).isEqualTo("team");
		Map<String, String> boots = boots(environment, Map.of("service.name", "configured", "service.namespace", "team"));
		assertThat(boots).containsEntry("service.name", "configured").containsEntry("service.namespace", "team");
	}

	/** {@code OTEL_SERVICE_NAME} (the SDK's {@code otel.service.name}) and its resource attributes win, as in Boot. */
	@Test
	void theStandardVariablesWinOverTheApplicationsNameAndGroup() {
		MockEnvironment environment = new MockEnvironment().withProperty("spring.application.name", "api")
			.withProperty("spring.application.group", "rl");
		Attributes named = resource(environment, Map.of("otel.service.name", "from-env")).getAttributes();
		assertThat(named.get(SERVICE_NAME)).isEqualTo("from-env");
		Attributes attributes = resource(environment,
				Map.of("otel.resource.attributes", "service.name=attr,service.namespace=ns")).getAttributes();
		assertThat(attributes.get(SERVICE_NAME)).isEqualTo("attr");
		assertThat(attributes.get(SERVICE_NAMESPACE)).isEqualTo("ns");
	}

	/**
	 * The resource the starter's SDK gets, its SDK configured by {@code otel} ({@code OTEL_*} as
	 * the SDK reads them): the SDK's default and environment resource, as its autoconfigure builds
	 * them, through the starter's customizer.
	 */
	private static Resource resource(MockEnvironment environment, Map<String, String> otel) {
		DefaultConfigProperties config = DefaultConfigProperties.createFromMap(otel);
		Resource sdk = Resource.getDefault().merge(ResourceConfiguration.createEnvironmentResource(config));
		return OwnSdk.resource(sdk, config, ExportSettings.of(environment, Map.of()));
	}

	private static Map<String, String> boots(MockEnvironment environment) {
		return boots(environment, Map.of());
	}

	/** Boot's attributes for {@code environment}; Boot reads the process's {@code OTEL_*} variables itself. */
	private static Map<String, String> boots(MockEnvironment environment, Map<String, String> configured) {
		assumeTrue(System.getenv("OTEL_SERVICE_NAME") == null && System.getenv("OTEL_RESOURCE_ATTRIBUTES") == null,
				"Boot's side reads this JVM's OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES: unset them");
		Map<String, String> attributes = new LinkedHashMap<>();
		new OpenTelemetryResourceAttributes(environment, configured).applyTo(attributes::put);
		return attributes;
	}

}
