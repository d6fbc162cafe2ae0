package io.github.startuptelemetry.archfixture.boot;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.DeprecatedConfigurationProperty;

/** Properties as Spring Boot's rules forbid them; {@link TidyProperties} keeps them. */
@ConfigurationProperties(prefix = "loose")
class LooseProperties {

	private final Map<String, String> byName = new HashMap<>();

	private final Set<String> names = new HashSet<>();

	Map<String, String> getByName() {
		return this.byName;
	}

	Set<String> getNames() {
		return this.names;
	}

	@DeprecatedConfigurationProperty(reason = "gone")
	public String getOld() {
		return "";
	}

}
