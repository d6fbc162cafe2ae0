package io.github.startuptelemetry.supervisor;

import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.util.Arrays;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.core.ResolvableType;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

import io.github.startuptelemetry.server.ProcessTimeline;
import io.github.startuptelemetry.support.Guarded;
import io.github.startuptelemetry.timeline.StageTimeline;

/**
 * Whether this process is a supervisor, decided once and the same way whenever and in whatever
 * order beans are created: a process is a supervisor when one of its beans declares a
 * {@link SupervisorStartup} dependency (a constructor or {@code @Bean} method parameter, a field,
 * or an {@code @Autowired} method parameter), plainly or lazily ({@code ObjectProvider},
 * {@code Optional}, {@code @Lazy}). The fleet launcher is such a bean. A supervisor's own Spring
 * stages go into {@code gym.startup}, so its process timeline is claimed and it is not also
 * reported as a server; every other application reports itself as a server.
 * <p>
 * The decision reads bean definitions and classes only, never which beans exist yet, so an
 * eager and a lazy launcher decide alike. It is made at the latest when the singletons are
 * instantiated ({@link #afterSingletonsInstantiated()}), before the server report at
 * {@code ApplicationReadyEvent}; a {@link SupervisorStartup} created earlier asks for it then,
 * with the same answer. An application that only looks {@link SupervisorStartup} up by hand
 * ({@code getBean}) declares nothing and stays a server; its supervisor startup begins a
 * timeline of its own.
 */
final class SupervisorRole implements SmartInitializingSingleton {

	private static final Log logger = LogFactory.getLog(SupervisorRole.class);

	/** Libraries compiled without this starter cannot declare a SupervisorStartup dependency. */
	private static final List<String> FOREIGN_PACKAGES = List.of("java.", "javax.", "jakarta.", "jdk.", "sun.",
			"com.sun.", "org.springframework.", "io.micrometer.", "io.opentelemetry.", "tools.jackson.",
			"com.fasterxml.", "org.apache.");

	private final ConfigurableListableBeanFactory beanFactory;

	private final ObjectProvider<ProcessTimeline> processTimeline;

	private @Nullable StageTimeline timeline;

	SupervisorRole(ConfigurableListableBeanFactory beanFactory, ObjectProvider<ProcessTimeline> processTimeline) {
		this.beanFactory = beanFactory;
		this.processTimeline = processTimeline;
	}

	@Override
	public void afterSingletonsInstantiated() {
		timeline();
	}

	/**
	 * The supervisor's own stages: the process timeline when this process is a supervisor and
	 * the timeline is there (a whole Spring application), otherwise a timeline of its own that
	 * starts now.
	 */
	synchronized StageTimeline timeline() {
		if (this.timeline == null) {
			ProcessTimeline process = isSupervisor() ? this.processTimeline.getIfAvailable() : null;
			this.timeline = (process != null) ? process.claim().orElseGet(StageTimeline::new) : new StageTimeline();
		}
		return this.timeline;
	}

	boolean isSupervisor() {
		for (String name : this.beanFactory.getBeanDefinitionNames()) {
			if (Boolean.TRUE.equals(Guarded.get(logger, "inspect bean '" + name + "'", () -> declares(name)))) {
				return true;
			}
		}
		return false;
	}

	private boolean declares(String name) {
		BeanDefinition definition = this.beanFactory.getMergedBeanDefinition(name);
		if (definition.isAbstract()) {
			return false;
		}
		if (definition.getFactoryMethodName() != null && declaresInFactoryMethod(definition)) {
			return true;
		}
		Class<?> type = this.beanFactory.getType(name, false);
		return type != null && !foreign(type) && !SupervisorStartup.class.isAssignableFrom(type) && declaresIn(type);
	}

	private boolean declaresInFactoryMethod(BeanDefinition definition) {
		Method resolved = (definition instanceof RootBeanDefinition root) ? root.getResolvedFactoryMethod() : null;
		if (resolved != null) {
			return declaresIn(resolved);
		}
		Class<?> factory = (definition.getFactoryBeanName() != null)
				? this.beanFactory.getType(definition.getFactoryBeanName(), false) : beanClass(definition);
		if (factory == null || foreign(factory)) {
			return false;
		}
		return Arrays.stream(ReflectionUtils.getUniqueDeclaredMethods(ClassUtils.getUserClass(factory)))
			.filter((method) -> method.getName().equals(definition.getFactoryMethodName()))
			.anyMatch(this::declaresIn);
	}

	private @Nullable Class<?> beanClass(BeanDefinition definition) {
		return (definition instanceof RootBeanDefinition root && root.hasBeanClass()) ? root.getBeanClass() : null;
	}

	private boolean declaresIn(Class<?> type) {
		Class<?> user = ClassUtils.getUserClass(type);
		if (Arrays.stream(user.getDeclaredConstructors()).anyMatch(this::declaresIn)) {
			return true;
		}
		for (Class<?> current = user; current != null && !foreign(current); current = current.getSuperclass()) {
			for (Field field : current.getDeclaredFields()) {
				if (!Modifier.isStatic(field.getModifiers()) && mentions(field.getGenericType())) {
					return true;
				}
			}
			for (Method method : current.getDeclaredMethods()) {
				if (method.isAnnotationPresent(Autowired.class) && declaresIn(method)) {
					return true;
				}
			}
		}
		return false;
	}

	private boolean declaresIn(Executable executable) {
		return Arrays.stream(executable.getGenericParameterTypes()).anyMatch(SupervisorRole::mentions);
	}

	/** {@code SupervisorStartup} itself, or a holder of one: {@code ObjectProvider<SupervisorStartup>}. */
	private static boolean mentions(Type type) {
		ResolvableType resolvable = ResolvableType.forType(type);
		if (resolvable.toClass() == SupervisorStartup.class) {
			return true;
		}
		return Arrays.stream(resolvable.getGenerics()).anyMatch((generic) -> generic.toClass() == SupervisorStartup.class);
	}

	private static boolean foreign(Class<?> type) {
		String name = type.getName();
		return FOREIGN_PACKAGES.stream().anyMatch(name::startsWith);
	}

}
