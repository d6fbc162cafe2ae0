package io.github.startuptelemetry.supervisor;

import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
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
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.ResolvableType;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

import io.github.startuptelemetry.internal.Guarded;
import io.github.startuptelemetry.timeline.internal.ProcessTimeline;
import io.github.startuptelemetry.timeline.internal.StageTimeline;

/**
 * This process is a supervisor, because one of its beans declares a {@link SupervisorStartup}
 * dependency ({@link Declared}): the role claims the process timeline for the supervisor's own
 * stages before the server report could, and creates the beans only a supervisor needs.
 */
final class SupervisorRole implements SmartInitializingSingleton {

	private static final Log logger = LogFactory.getLog(SupervisorRole.class);

	/** Libraries compiled without this starter cannot declare a SupervisorStartup dependency. */
	private static final List<String> FOREIGN_PACKAGES = List.of("java.", "javax.", "jakarta.", "jdk.", "sun.",
			"com.sun.", "org.springframework.", "io.micrometer.", "io.opentelemetry.", "tools.jackson.",
			"com.fasterxml.", "org.apache.");

	/**
	 * The starter's own packages, whose beans declare none (the fleet launcher's, which does, is
	 * in {@code fleet}, not listed): skipped by name, so that reflection over them loads none of
	 * the types they name.
	 */
	private static final List<String> OWN_PACKAGES = List.of("io.github.startuptelemetry.autoconfigure.",
			"io.github.startuptelemetry.contract.", "io.github.startuptelemetry.export.",
			"io.github.startuptelemetry.internal.", "io.github.startuptelemetry.jvmcache.",
			"io.github.startuptelemetry.kubernetes.", "io.github.startuptelemetry.launch.",
			"io.github.startuptelemetry.lifecycle.", "io.github.startuptelemetry.readiness.",
			"io.github.startuptelemetry.report.", "io.github.startuptelemetry.server.",
			"io.github.startuptelemetry.timeline.", "io.github.startuptelemetry.tracing.");

	/**
	 * The supervisor's own configurations, which make the startup and its parts: their factory
	 * methods name types (such as {@code ServerReport}) that a plain server need not load. By
	 * name, as the other lists: the tracing configuration creates this role, not the reverse.
	 */
	static final List<String> OWN_CONFIGURATIONS = List.of(SupervisorAutoConfiguration.class.getName(),
			"io.github.startuptelemetry.supervisor.SupervisorTracingAutoConfiguration");

	private final ConfigurableListableBeanFactory beanFactory;

	private final ObjectProvider<ProcessTimeline> processTimeline;

	private final String[] supervisorBeans;

	private @Nullable StageTimeline timeline;

	/**
	 * @param supervisorBeans lazy beans only a supervisor needs, so that a plain server never
	 * creates (or loads) them: created here
	 */
	SupervisorRole(ConfigurableListableBeanFactory beanFactory, ObjectProvider<ProcessTimeline> processTimeline,
			String... supervisorBeans) {
		this.beanFactory = beanFactory;
		this.processTimeline = processTimeline;
		this.supervisorBeans = supervisorBeans;
	}

	@Override
	public void afterSingletonsInstantiated() {
		timeline();
		for (String name : this.supervisorBeans) {
			// created and initialised here, whether or not Spring's round has passed them already
			if (this.beanFactory.containsBean(name)
					&& this.beanFactory.getBean(name) instanceof SmartInitializingSingleton bean && bean != this) {
				bean.afterSingletonsInstantiated();
			}
		}
	}

	/**
	 * The supervisor's own stages: the process timeline when it is there (a whole Spring
	 * application) and not claimed yet, otherwise a timeline of its own that starts now.
	 */
	synchronized StageTimeline timeline() {
		if (this.timeline == null) {
			ProcessTimeline process = this.processTimeline.getIfAvailable();
			this.timeline = (process != null) ? process.claim().orElseGet(StageTimeline::new) : new StageTimeline();
		}
		return this.timeline;
	}

	/** Whether one of the beans registered in {@code beanFactory} so far declares a {@link SupervisorStartup} dependency. */
	static boolean declared(ConfigurableListableBeanFactory beanFactory) {
		for (String name : beanFactory.getBeanDefinitionNames()) {
			// a plain server has hundreds of framework beans: no reflection, lambda or message for those
			if (candidate(beanFactory, name) && Boolean.TRUE
				.equals(Guarded.get(logger, "inspect bean '" + name + "'", () -> declares(beanFactory, name)))) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Whether the class a bean's definition names (the bean's, or its factory method's) may
	 * declare a dependency: not when it is in a foreign package, read from the name alone.
	 */
	private static boolean candidate(ConfigurableListableBeanFactory beanFactory, String name) {
		try {
			BeanDefinition definition = beanFactory.getMergedBeanDefinition(name);
			String factoryBean = (definition.getFactoryMethodName() != null) ? definition.getFactoryBeanName() : null;
			String type = (factoryBean != null) ? beanFactory.getMergedBeanDefinition(factoryBean).getBeanClassName()
					: definition.getBeanClassName();
			return type == null || !(foreign(type) || startsWithAny(type, OWN_PACKAGES) || OWN_CONFIGURATIONS.contains(type));
		}
		catch (RuntimeException ex) {
			// the guarded inspection meets the same failure and logs it
			return true;
		}
	}

	private static boolean declares(ConfigurableListableBeanFactory beanFactory, String name) {
		BeanDefinition definition = beanFactory.getMergedBeanDefinition(name);
		if (definition.isAbstract()) {
			return false;
		}
		if (definition.getFactoryMethodName() != null && declaresInFactoryMethod(beanFactory, definition)) {
			return true;
		}
		Class<?> type = beanFactory.getType(name, false);
		return type != null && !foreign(type) && !SupervisorStartup.class.isAssignableFrom(type) && declaresIn(type);
	}

	private static boolean declaresInFactoryMethod(ConfigurableListableBeanFactory beanFactory,
			BeanDefinition definition) {
		Method resolved = (definition instanceof RootBeanDefinition root) ? root.getResolvedFactoryMethod() : null;
		if (resolved != null) {
			return declaresIn(resolved);
		}
		Class<?> factory = (definition.getFactoryBeanName() != null)
				? beanFactory.getType(definition.getFactoryBeanName(), false) : beanClass(beanFactory, definition);
		if (factory == null || foreign(factory)) {
			return false;
		}
		for (Method method : ReflectionUtils.getUniqueDeclaredMethods(ClassUtils.getUserClass(factory))) {
			if (method.getName().equals(definition.getFactoryMethodName()) && declaresIn(method)) {
				return true;
			}
		}
		return false;
	}

	/** A static factory method's class: resolved now if the definition has only its name yet. */
	private static @Nullable Class<?> beanClass(ConfigurableListableBeanFactory beanFactory, BeanDefinition definition) {
		if (definition instanceof RootBeanDefinition root && root.hasBeanClass()) {
			return root.getBeanClass();
		}
		String name = definition.getBeanClassName();
		return (name != null && !foreign(name)) ? ClassUtils.resolveClassName(name, beanFactory.getBeanClassLoader())
				: null;
	}

	private static boolean declaresIn(Class<?> type) {
		Class<?> user = ClassUtils.getUserClass(type);
		for (Constructor<?> constructor : user.getDeclaredConstructors()) {
			if (declaresIn(constructor)) {
				return true;
			}
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

	private static boolean declaresIn(Executable executable) {
		for (Type parameter : executable.getGenericParameterTypes()) {
			if (mentions(parameter)) {
				return true;
			}
		}
		return false;
	}

	/** {@code SupervisorStartup} itself, or a holder of one: {@code ObjectProvider<SupervisorStartup>}. */
	private static boolean mentions(Type type) {
		ResolvableType resolvable = ResolvableType.forType(type);
		if (resolvable.toClass() == SupervisorStartup.class) {
			return true;
		}
		for (ResolvableType generic : resolvable.getGenerics()) {
			if (generic.toClass() == SupervisorStartup.class) {
				return true;
			}
		}
		return false;
	}

	private static boolean foreign(Class<?> type) {
		return foreign(type.getName());
	}

	private static boolean foreign(String className) {
		return startsWithAny(className, FOREIGN_PACKAGES);
	}

	private static boolean startsWithAny(String className, List<String> prefixes) {
		for (String prefix : prefixes) {
			if (className.startsWith(prefix)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Matches when a bean registered so far declares a {@link SupervisorStartup} dependency
	 * ({@link #declared}): on the role's bean method, so that a plain server registers no role.
	 */
	static final class Declared extends SpringBootCondition {

		@Override
		public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
			ConfigurableListableBeanFactory beanFactory = context.getBeanFactory();
			return (beanFactory != null && declared(beanFactory))
					? ConditionOutcome.match("a bean declares a SupervisorStartup dependency")
					: ConditionOutcome.noMatch("no bean declares a SupervisorStartup dependency");
		}

	}

}
