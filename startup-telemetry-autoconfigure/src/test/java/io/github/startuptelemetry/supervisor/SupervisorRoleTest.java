package io.github.startuptelemetry.supervisor;

import java.util.Optional;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Lazy;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How {@link SupervisorRole} reads bean definitions (as its condition reads them, while the
 * configuration is registered); whole applications are in {@link SupervisorAutoConfigurationTest}
 * and {@link PlainServerBeansTest}.
 */
class SupervisorRoleTest {

	private final DefaultListableBeanFactory beans = new DefaultListableBeanFactory();

	@Test
	void aBeanDeclaringSupervisorStartupMakesASupervisorAmongFrameworkBeansAndOneThatCannotBeRead() {
		this.beans.registerBeanDefinition("framework", new RootBeanDefinition(DefaultListableBeanFactory.class));
		this.beans.registerBeanDefinition("missing", new RootBeanDefinition("com.example.NotOnTheClassPath"));
		assertThat(SupervisorRole.declared(this.beans)).isFalse();
		this.beans.registerBeanDefinition("launcher", new RootBeanDefinition(Launcher.class));
		assertThat(SupervisorRole.declared(this.beans)).isTrue();
	}

	/** Definitions as a configuration class registers them, before any class of theirs is resolved. */
	@Test
	void factoryMethodsDeclareItByNameBeforeTheirClassIsResolved() {
		RootBeanDefinition configuration = new RootBeanDefinition();
		configuration.setBeanClassName(Launchers.class.getName());
		this.beans.registerBeanDefinition("launchers", configuration);
		RootBeanDefinition unrelated = new RootBeanDefinition();
		unrelated.setFactoryBeanName("launchers");
		unrelated.setFactoryMethodName("unrelated");
		this.beans.registerBeanDefinition("unrelated", unrelated);
		assertThat(SupervisorRole.declared(this.beans)).isFalse();

		RootBeanDefinition lazy = new RootBeanDefinition();
		lazy.setFactoryBeanName("launchers");
		lazy.setFactoryMethodName("lazyLauncher");
		this.beans.registerBeanDefinition("lazyLauncher", lazy);
		assertThat(SupervisorRole.declared(this.beans)).isTrue();
	}

	/** The role names the configurations it skips, rather than depend on the one that creates it. */
	@Test
	void theConfigurationsItSkipsByNameAreTheSupervisorsOwn() {
		assertThat(SupervisorRole.OWN_CONFIGURATIONS).containsExactly(SupervisorAutoConfiguration.class.getName(),
				SupervisorTracingAutoConfiguration.class.getName());
	}

	@Test
	void aStaticFactoryMethodDeclaresItByItsClassName() {
		RootBeanDefinition optional = new RootBeanDefinition();
		optional.setBeanClassName(Launchers.class.getName());
		optional.setFactoryMethodName("optionalLauncher");
		this.beans.registerBeanDefinition("optionalLauncher", optional);
		assertThat(SupervisorRole.declared(this.beans)).isTrue();
	}

	static class Launcher {

		Launcher(ObjectProvider<SupervisorStartup> startup) {
		}

	}

	static class Launchers {

		@Bean
		String unrelated(ObjectProvider<String> names) {
			return "";
		}

		@Bean
		Runnable lazyLauncher(@Lazy SupervisorStartup startup) {
			return startup::beginTrace;
		}

		@Bean
		static Runnable optionalLauncher(Optional<SupervisorStartup> startup) {
			return () -> startup.ifPresent(SupervisorStartup::beginTrace);
		}

	}

}
