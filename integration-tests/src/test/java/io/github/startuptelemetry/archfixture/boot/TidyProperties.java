package io.github.startuptelemetry.archfixture.boot;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.DeprecatedConfigurationProperty;

/** What {@link LooseProperties} has, within Spring Boot's rules. */
@ConfigurationProperties("tidy")
class TidyProperties {

	private final Map<String, String> byName = new LinkedHashMap<>();

	private final Map<TimeUnit, String> byUnit = new EnumMap<>(TimeUnit.class);

	private final Set<String> names = new LinkedHashSet<>();

	Map<String, String> getByName() {
		return this.byName;
	}

	Map<TimeUnit, String> getByUnit() {
		return this.byUnit;
	}

	Set<String> getNames() {
		return this.names;
	}

	@DeprecatedConfigurationProperty(reason = "gone", since = "0.1.0")
	public String getOld() {
		return "";
	}

}
