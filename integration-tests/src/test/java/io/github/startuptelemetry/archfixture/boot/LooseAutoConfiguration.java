package io.github.startuptelemetry.archfixture.boot;

import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.convert.converter.Converter;

/** Everything Spring Boot's rules forbid an auto-configuration; {@link TidyAutoConfiguration} keeps them. */
@AutoConfiguration
@Import(ImportedConfiguration.class)
public class LooseAutoConfiguration {

	public String visible = "not a constant";

	public LooseAutoConfiguration(Thing thing) {
	}

	@Bean
	public Thing publicThing() {
		return new Thing();
	}

	@Bean
	@ConditionalOnClass(name = "java.lang.String")
	String classConditioned() {
		return "";
	}

	@Bean
	BeanPostProcessor eagerPostProcessor(Thing thing) {
		return new BeanPostProcessor() {
		};
	}

	@Bean
	BeanFactoryPostProcessor busyFactoryPostProcessor(Thing thing) {
		return (beanFactory) -> {
		};
	}

	@Bean
	Hidden hidden() {
		return new Hidden();
	}

	@Bean
	@ConditionalOnMissingBean(Thing.class)
	Thing thing() {
		return new Thing();
	}

	@Bean
	@ConfigurationPropertiesBinding
	Converter<String, Thing> thingConverter() {
		return (source) -> new Thing();
	}

	private static final class Hidden {

	}

	@Configuration(proxyBeanMethods = false)
	static class Nested {

		@Bean
		public String nestedName() {
			return "";
		}

	}

}
