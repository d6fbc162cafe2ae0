package io.github.startuptelemetry.lifecycle;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.AbstractBeanDefinition;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ApplicationEventMulticaster;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.support.AbstractApplicationContext;
import org.springframework.util.ReflectionUtils;

import io.github.startuptelemetry.export.internal.StartupExport;
import io.github.startuptelemetry.internal.BootLine;
import io.github.startuptelemetry.internal.DaemonThreads;
import io.github.startuptelemetry.tracing.internal.SdkFlush;

/**
 * Bounds the telemetry flush at shutdown by {@code telemetry.shutdown-timeout} (NeMo RL's
 * {@code shutdown_telemetry}): takes the blocking closes of the OpenTelemetry SDK beans and the
 * meter registries away from the context and does them itself on daemon threads, abandoning what
 * overruns the budget. It closes what exists and creates nothing.
 */
final class BoundedTelemetryShutdown implements BeanFactoryPostProcessor, BeanPostProcessor,
		ApplicationListener<ContextClosedEvent>, ApplicationContextAware, SmartInitializingSingleton, DisposableBean {

	private static final Log logger = LogFactory.getLog(BoundedTelemetryShutdown.class);

	private static final String METRICS = "metrics";

	private static final String OPENTELEMETRY = "opentelemetry";

	/** The beans each daemon thread closes, in closing order (upstream first). */
	private static final Map<String, List<String>> CHAINS = Map.of(METRICS,
			List.of("io.micrometer.core.instrument.composite.CompositeMeterRegistry",
					"io.micrometer.core.instrument.MeterRegistry"),
			OPENTELEMETRY,
			List.of("io.opentelemetry.sdk.OpenTelemetrySdk", "io.opentelemetry.sdk.trace.SdkTracerProvider",
					"io.opentelemetry.sdk.metrics.SdkMeterProvider", "io.opentelemetry.sdk.logs.SdkLoggerProvider",
					"io.opentelemetry.sdk.trace.SpanProcessor", "io.opentelemetry.sdk.metrics.export.MetricReader",
					"io.opentelemetry.sdk.logs.LogRecordProcessor", "io.opentelemetry.sdk.trace.export.SpanExporter",
					"io.opentelemetry.sdk.metrics.export.MetricExporter",
					"io.opentelemetry.sdk.logs.export.LogRecordExporter"));


	/** How long HotSpot waits at exit for threads in native code (30 times 10 ms). */
	private static final long JVM_EXIT_NATIVE_WAIT_NS = TimeUnit.MILLISECONDS.toNanos(300);

	private final Duration timeout;

	/** Where the startup's export is looked up, once it exists: its pending report first, its own SDK last. */
	private @Nullable ConfigurableListableBeanFactory beanFactory;

	/** Bean name to its chain and position in it, for every bean taken over. */
	private final Map<String, Position> takenOver = new LinkedHashMap<>();

	/** Per chain, the created beans taken over, by position. */
	private final Map<String, ConcurrentSkipListMap<Integer, List<Object>>> created = new LinkedHashMap<>();

	/**
	 * Boot's early, unbounded close of every meter registry (this Boot line's class), replaced by the
	 * metrics chain: kept, since Boot 4.1 hands it each registry, but no longer told of the close.
	 */
	private final List<String> bootClosers = new ArrayList<>();

	/** Per chain, its closing thread once started. */
	private final Map<String, Thread> closing = new LinkedHashMap<>();

	private ApplicationContext context;

	BoundedTelemetryShutdown(Duration timeout) {
		this.timeout = (timeout != null && !timeout.isNegative()) ? timeout : Duration.ZERO;
		for (String chain : CHAINS.keySet()) {
			this.created.put(chain, new ConcurrentSkipListMap<>());
		}
	}

	@Override
	public void setApplicationContext(ApplicationContext context) {
		this.context = context;
	}

	/**
	 * One pass over the bean definitions, each bean's predicted type matched against the chains
	 * by name (its class and interfaces), in chain order. A type lookup per chain type (13 of
	 * them, before the configuration is frozen, so none is cached) walked every definition each
	 * time, and resolving the types loaded SDK classes the application never uses.
	 */
	@Override
	public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
		this.beanFactory = beanFactory;
		Set<String> names = new HashSet<>();
		for (String name : beanFactory.getBeanDefinitionNames()) {
			Class<?> type = predictedType(beanFactory, name);
			if (type == null) {
				continue;
			}
			names.clear();
			typeNames(type, names);
			if (names.contains(BootLine.METER_REGISTRY_CLOSER)) {
				this.bootClosers.add(name);
				continue;
			}
			Position position = position(names);
			if (position != null && takeOver(beanFactory, name)) {
				this.takenOver.put(name, position);
			}
		}
	}

	/**
	 * Boot's meter registry closers stop listening: the context's close is this one's to bound.
	 * Once the singletons exist, as Spring has registered every listener by then.
	 */
	@Override
	public void afterSingletonsInstantiated() {
		ConfigurableListableBeanFactory beanFactory = this.beanFactory;
		if (this.bootClosers.isEmpty() || beanFactory == null || !(beanFactory.getSingleton(
				AbstractApplicationContext.APPLICATION_EVENT_MULTICASTER_BEAN_NAME) instanceof ApplicationEventMulticaster multicaster)) {
			return;
		}
		for (String name : this.bootClosers) {
			multicaster.removeApplicationListenerBean(name);
			if (beanFactory.getSingleton(name) instanceof ApplicationListener<?> closer) {
				multicaster.removeApplicationListener(closer);
			}
		}
	}

	/** The bean's type as far as it is known without creating anything; {@code null} if not. */
	private static Class<?> predictedType(ConfigurableListableBeanFactory beanFactory, String name) {
		if (beanFactory.getBeanDefinition(name).isAbstract()) {
			return null;
		}
		try {
			return beanFactory.getType(name, false);
		}
		catch (RuntimeException | LinkageError ex) {
			return null;
		}
	}

	/** The first chain, and the first type in it, that names one of these types. */
	private static Position position(Set<String> typeNames) {
		for (Map.Entry<String, List<String>> chain : CHAINS.entrySet()) {
			List<String> types = chain.getValue();
			for (int order = 0; order < types.size(); order++) {
				if (typeNames.contains(types.get(order))) {
					return new Position(chain.getKey(), order);
				}
			}
		}
		return null;
	}

	/** The names of a class, its superclasses and all their interfaces. */
	private static void typeNames(Class<?> type, Set<String> names) {
		for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
			interfaceNames(c, names);
		}
	}

	private static void interfaceNames(Class<?> type, Set<String> names) {
		if (names.add(type.getName())) {
			for (Class<?> implemented : type.getInterfaces()) {
				interfaceNames(implemented, names);
			}
		}
	}

	/** Remove an inferred destroy method; an explicit one is the user's to keep. */
	private static boolean takeOver(ConfigurableListableBeanFactory beanFactory, String name) {
		if (!beanFactory.containsBeanDefinition(name)) {
			return false;
		}
		BeanDefinition definition = beanFactory.getBeanDefinition(name);
		if (!(definition instanceof AbstractBeanDefinition bean) || !definition.isSingleton()) {
			return false;
		}
		String destroyMethod = bean.getDestroyMethodName();
		if (destroyMethod != null && !AbstractBeanDefinition.INFER_METHOD.equals(destroyMethod)) {
			return false;
		}
		bean.setDestroyMethodName("");
		return true;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		Position position = this.takenOver.get(beanName);
		if (position != null) {
			ConcurrentSkipListMap<Integer, List<Object>> chain = this.created.get(position.chain());
			List<Object> beans = chain.get(position.order());
			if (beans == null) {
				// no computeIfAbsent: its lambda would be one more class at startup (beans may come from several threads)
				List<Object> fresh = new CopyOnWriteArrayList<>();
				beans = chain.putIfAbsent(position.order(), fresh);
				beans = (beans != null) ? beans : fresh;
			}
			beans.add(bean);
		}
		return bean;
	}

	/** The context starts closing: close the meter registries, as Boot would, but in the background. */
	@Override
	public void onApplicationEvent(ContextClosedEvent event) {
		if (event.getApplicationContext() == this.context) {
			StartupExport export = createdExport();
			Closing.start(METRICS, this.created, this.closing, export,
					(export != null) ? export.shutdownDeadline(this.timeout) : System.nanoTime() + this.timeout.toNanos());
		}
	}

	/**
	 * Close the SDK, then wait for everything at most the budget, less what the JVM itself will
	 * wait at exit for a thread still in native code: an abandoned export blocked on its socket
	 * (HotSpot's {@code VM_Exit} gives such threads up to 300 ms to quiesce; measured: exit came
	 * 330-380 ms after the budget). So the JVM is gone by the budget, as promised.
	 */
	@Override
	public void destroy() throws InterruptedException {
		long deadline = System.nanoTime() + Math.max(0, this.timeout.toNanos() - JVM_EXIT_NATIVE_WAIT_NS);
		StartupExport export = createdExport();
		for (String chain : CHAINS.keySet()) {
			Closing.start(chain, this.created, this.closing, export, deadline);
		}
		Closing.await(this.closing, deadline, this.timeout);
	}

	/**
	 * The startup's export if the context created it, else {@code null}; never creates it. Its
	 * name is looked up without initialising anything, and only an existing singleton is taken.
	 */
	private @Nullable StartupExport createdExport() {
		ConfigurableListableBeanFactory beanFactory = this.beanFactory;
		if (beanFactory == null) {
			return null;
		}
		for (String name : beanFactory.getBeanNamesForType(StartupExport.class, false, false)) {
			if (beanFactory.getSingleton(name) instanceof StartupExport export) {
				return export;
			}
		}
		return null;
	}

	/**
	 * The closes taken over, each chain on a daemon thread of its own: code that runs only at
	 * shutdown, in a class that is loaded only then (no field or signature of the bean names it,
	 * so Spring's reflection over the bean's class does not load it either).
	 */
	private static final class Closing {

		/** Wait for every started chain until {@code deadlineNs}; say which did not finish. */
		static void await(Map<String, Thread> threads, long deadlineNs, Duration timeout) throws InterruptedException {
			List<Thread> started;
			synchronized (threads) {
				started = List.copyOf(threads.values());
			}
			for (Thread thread : started) {
				long left = deadlineNs - System.nanoTime();
				if (left > 0) {
					TimeUnit.NANOSECONDS.timedJoin(thread, left);
				}
			}
			List<String> unfinished = started.stream().filter(Thread::isAlive).map(Thread::getName).toList();
			if (!unfinished.isEmpty()) {
				logger.info("Telemetry shutdown abandoned after telemetry.shutdown-timeout (" + timeout.toMillis()
						+ " ms), unfinished: " + unfinished + "; is the collector reachable?");
			}
		}

		/**
		 * Start closing {@code chain} on its own thread, unless it has nothing to close or was
		 * started. Each chain first waits for the startup's report on the export thread (its spans
		 * and histograms must be recorded before what carries them closes); the OpenTelemetry
		 * chain closes the starter's own SDK last, when it built one.
		 */
		static void start(String chain, Map<String, ConcurrentSkipListMap<Integer, List<Object>>> created,
				Map<String, Thread> threads, StartupExport export, long deadlineNs) {
			List<Object> beans = created.get(chain).values().stream().flatMap(List::stream).toList();
			boolean own = chain.equals(OPENTELEMETRY) && export != null;
			synchronized (threads) {
				if ((beans.isEmpty() && !own) || threads.containsKey(chain)) {
					return;
				}
				if (logger.isDebugEnabled()) {
					logger.debug("Closing " + chain + " telemetry: "
							+ beans.stream().map((bean) -> bean.getClass().getSimpleName()).toList());
				}
				boolean spans = chain.equals(OPENTELEMETRY) && !beans.isEmpty();
				Thread thread = DaemonThreads.named("telemetry-shutdown-" + chain).newThread(() -> {
					if (spans && export != null) {
						// what the application queued leaves while the report finishes; the drain's
						// second flush, after the report, then carries the startup's spans too
						SpanDrain.begin(beans);
					}
					if (export != null) {
						export.awaitIdle(deadlineNs);
					}
					if (spans) {
						SpanDrain.drain(beans, deadlineNs);
					}
					beans.forEach(Closing::close);
					if (own) {
						export.close(deadlineNs);
					}
				});
				threads.put(chain, thread);
				thread.start();
			}
		}

		private static void close(Object bean) {
			try {
				if (bean instanceof AutoCloseable closeable) {
					closeable.close();
				}
				else {
					// a meter registry: out of the global registry, as Boot's MeterRegistryCloser does
					MicrometerGlobalRegistry.remove(bean);
					Method close = ReflectionUtils.findMethod(bean.getClass(), "close");
					if (close != null) {
						ReflectionUtils.makeAccessible(close);
						ReflectionUtils.invokeMethod(close, bean);
					}
				}
			}
			catch (Exception | LinkageError ex) {
				logger.debug("Could not close " + bean.getClass().getName(), ex);
			}
		}

	}

	private record Position(String chain, int order) {
	}

	/**
	 * Drains the tracer providers ({@link SdkFlush#drain}) before anything is shut down: a
	 * shutdown soon after ready (where the startup spans are flushed) would otherwise drop
	 * whatever was queued since. Only loaded when SDK beans exist.
	 */
	private static final class SpanDrain {

		/** Start exporting what is queued now; does not wait. */
		static void begin(List<Object> beans) {
			providers(beans).forEach(SdkTracerProvider::forceFlush);
		}

		static void drain(List<Object> beans, long deadlineNs) {
			for (SdkTracerProvider provider : providers(beans)) {
				SdkFlush.drain(provider, deadlineNs);
			}
		}

		private static Set<SdkTracerProvider> providers(List<Object> beans) {
			Set<SdkTracerProvider> providers = Collections.newSetFromMap(new IdentityHashMap<>());
			for (Object bean : beans) {
				if (bean instanceof OpenTelemetrySdk sdk) {
					providers.add(sdk.getSdkTracerProvider());
				}
				else if (bean instanceof SdkTracerProvider provider) {
					providers.add(provider);
				}
			}
			return providers;
		}

	}

	/** Isolates Micrometer, which is only on the class path when meter registries exist. */
	private static final class MicrometerGlobalRegistry {

		static void remove(Object registry) {
			if (registry instanceof MeterRegistry meterRegistry) {
				Metrics.globalRegistry.remove(meterRegistry);
			}
		}

	}

}
