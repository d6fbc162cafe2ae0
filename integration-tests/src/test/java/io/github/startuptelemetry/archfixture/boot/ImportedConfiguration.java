package io.github.startuptelemetry.archfixture.boot;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Imported by {@link LooseAutoConfiguration}: held to its rules. */
@Configuration(proxyBeanMethods = false)
class ImportedConfiguration {

	@Bean
	public String importedName() {
		return "";
	}

}
