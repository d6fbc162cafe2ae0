package io.github.startuptelemetry.supervisor;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.beans.factory.support.RootBeanDefinition;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.startuptelemetry.internal.timeline.ProcessTimeline;

/** How {@link SupervisorRole} reads bean definitions; whole applications are in {@link SupervisorAutoConfigurationTest}. */
class SupervisorRoleTest {

	private final DefaultListableBeanFactory beans = new DefaultListableBeanFactory();

	@Test
	void aBeanDeclaringSupervisorStartupMakesASupervisorAmongFrameworkBeansAndOneThatCannotBeRead() {
		this.beans.registerBeanDefinition("framework", new RootBeanDefinition(DefaultListableBeanFactory.class));
		this.beans.registerBeanDefinition("missing", new RootBeanDefinition("com.example.NotOnTheClassPath"));
		assertThat(role().isSupervisor()).isFalse();
		this.beans.registerBeanDefinition("launcher", new RootBeanDefinition(Launcher.class));
		assertThat(role().isSupervisor()).isTrue();
	}

	@Test
	void theAnswerIsTheSameWhenAskedAgainLater() {
		SupervisorRole role = role();
		assertThat(role.isSupervisor()).isFalse();
		this.beans.registerBeanDefinition("launcher", new RootBeanDefinition(Launcher.class));
		assertThat(role.isSupervisor()).isFalse();
	}

	private SupervisorRole role() {
		ObjectProvider<ProcessTimeline> none = this.beans.getBeanProvider(ProcessTimeline.class);
		return new SupervisorRole(this.beans, none);
	}

	static class Launcher {

		Launcher(ObjectProvider<SupervisorStartup> startup) {
		}

	}

}
