package io.github.startuptelemetry.archfixture.boot;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;
import org.springframework.core.convert.converter.Converter;
import org.springframework.core.env.Environment;

/** What {@link LooseAutoConfiguration} does, within Spring Boot's rules. */
@AutoConfiguration
public final class TidyAutoConfiguration {

	public static final String CONSTANT = "a constant may be public";

	public TidyAutoConfiguration() {
	}

	@Bean
	static BeanPostProcessor tidyPostProcessor(ObjectProvider<Thing> things, @Lazy Thing lazy, Environment environment,
			ApplicationContext context) {
		return new BeanPostProcessor() {
		};
	}

	@Bean
	static BeanFactoryPostProcessor tidyFactoryPostProcessor(Environment environment) {
		return (beanFactory) -> {
		};
	}

	@Bean
	@ConditionalOnMissingBean(name = "thing")
	Thing tidyThing() {
		return new Thing();
	}

	@Bean
	@ConfigurationPropertiesBinding
	static Converter<String, Thing> tidyThingConverter() {
		return (source) -> new Thing();
	}

	@Override
	public String toString() {
		return "an override may be public";
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "java.lang.String")
	static class ClassConditioned {

		@Bean
		String classConditioned() {
			return "";
		}

	}

}
