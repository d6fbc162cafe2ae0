package io.github.startuptelemetry.supervisor;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import io.opentelemetry.api.OpenTelemetry;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.AutoConfigureOrder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Lazy;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

import io.github.startuptelemetry.autoconfigure.ConditionalOnTelemetryEnabled;
import io.github.startuptelemetry.autoconfigure.internal.TelemetrySwitch;
import io.github.startuptelemetry.export.internal.StartupExport;
import io.github.startuptelemetry.export.internal.StartupExportConfiguration;
import io.github.startuptelemetry.export.internal.StartupHistograms;
import io.github.startuptelemetry.internal.BootLine;
import io.github.startuptelemetry.timeline.internal.ProcessTimeline;
import io.github.startuptelemetry.lifecycle.TelemetryLifecycleAutoConfiguration;
import io.github.startuptelemetry.timeline.internal.StageTimeline;
import io.github.startuptelemetry.report.ServerReport;

/**
 * The recording {@link SupervisorStartup} with telemetry on, and in a supervisor the
 * {@link SupervisorRole} that claims the process timeline for it. Read last, so that the role's
 * condition sees every other configuration's beans; lazy, so that a plain server creates none.
 */
@AutoConfiguration(before = SupervisorAutoConfiguration.class, after = TelemetryLifecycleAutoConfiguration.class,
		afterName = { BootLine.OPENTELEMETRY_SDK, BootLine.BOOT_3_OPENTELEMETRY_SDK })
@AutoConfigureOrder(Ordered.LOWEST_PRECEDENCE)
@ConditionalOnClass(OpenTelemetry.class)
@ConditionalOnTelemetryEnabled
@Import(StartupExportConfiguration.class)
@Lazy
public final class SupervisorTracingAutoConfiguration {

	/** The beans only a supervisor needs: lazy, and created by the role once it has decided so. */
	private static final String METRICS_BEAN = "supervisorStartupMetrics";

	/**
	 * Claims the process timeline for a supervisor before the server report could; only where a
	 * bean declares a {@link SupervisorStartup} dependency, and then never lazy, even under
	 * {@code spring.main.lazy-initialization}, so that the claim is made while the context
	 * refreshes.
	 */
	@Bean
	@Lazy(false)
	@Conditional(SupervisorRole.Declared.class)
	static SupervisorRole startupTelemetrySupervisorRole(ConfigurableListableBeanFactory beanFactory,
			ObjectProvider<ProcessTimeline> processTimeline) {
		return new SupervisorRole(beanFactory, processTimeline, METRICS_BEAN);
	}

	@Bean
	@Lazy
	@ConditionalOnMissingBean
	SupervisorStartup supervisorStartup(StartupExport export, ObjectProvider<SupervisorRole> role,
			ObjectProvider<ChildTelemetryEnvironment> childEnvironment,
			ObjectProvider<Consumer<ServerReport>> serverListeners, Environment environment, BeanFactory beanFactory) {
		List<Consumer<ServerReport>> listeners = new ArrayList<>(serverListeners.orderedStream().toList());
		// the metrics are not typed as a listener (see below): added by name, after the application's own
		if (beanFactory.containsBean(METRICS_BEAN)
				&& beanFactory.getBean(METRICS_BEAN) instanceof SupervisorStartupMetrics metrics
				&& !listeners.contains(metrics)) {
			listeners.add(metrics);
		}
		// no role: nothing declares this startup (a lookup by hand), which times itself from now
		SupervisorRole supervisor = role.getIfAvailable();
		StageTimeline timeline = (supervisor != null) ? supervisor.timeline() : new StageTimeline();
		return new OpenTelemetrySupervisorStartup(export, timeline,
				childEnvironment.getIfAvailable(), System.getenv(), listeners, TelemetrySwitch.startupSpans(environment));
	}

	/**
	 * Records each server's startup duration, as the last of the startup's server listeners (see
	 * {@link SupervisorStartupMetrics}). Lazy, so that a plain server neither creates nor loads
	 * it: the role creates it, and runs its warm-up, once it has found this process a
	 * supervisor. Typed as what Spring's round of {@code afterSingletonsInstantiated} knows it
	 * by, not as a {@code Consumer<ServerReport>}: Spring resolves a factory method's generic
	 * return type when it predicts the bean's type (that would load {@link ServerReport}), and a
	 * wildcard {@code Consumer<?>} would be handed to any {@code Consumer<X>} injection point
	 * that has no candidate of its own, and be left out of this startup's listeners as soon as
	 * the application has one.
	 */
	@Bean(METRICS_BEAN)
	@Lazy
	SmartInitializingSingleton supervisorStartupMetrics(StartupHistograms histograms,
			ObjectProvider<SupervisorRole> role, StartupExport export) {
		return new SupervisorStartupMetrics(histograms, role.getIfAvailable() != null, export);
	}

}
