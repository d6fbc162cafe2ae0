package io.github.startuptelemetry.server;

import java.util.List;

/**
 * One slow step of {@code beans_instantiated}: a bean's creation or a step the application
 * started itself with {@code ApplicationStartup.start(name)}, in wall-clock epoch nanoseconds.
 * Steps nest as they ran: a slow bean created while another was being created is its child,
 * and the parent's {@code selfNs} leaves the child's time out, so nothing is counted twice.
 *
 * @param step the {@code ApplicationStartup} step name ({@value BeanSpanRecorder#BEAN_STEP}
 * for a bean)
 * @param beanName the bean's name, or {@code null} for an application step
 * @param beanType the bean's class name, or {@code null} when unknown or not a bean
 * @param startNs when the step began
 * @param endNs when the step ended
 * @param selfNs the step's own time: its duration less that of the steps it contained
 * @param children the slow steps that ran inside this one, in start order
 */
public record BeanSpan(String step, String beanName, String beanType, long startNs, long endNs, long selfNs,
		List<BeanSpan> children) {

	public BeanSpan {
		children = List.copyOf(children);
	}

	/** The bean's name, or the step's for an application step. */
	public String label() {
		return (this.beanName != null) ? this.beanName : this.step;
	}

	public double durationMs() {
		return (this.endNs - this.startNs) / 1_000_000.0;
	}

	public double selfMs() {
		return this.selfNs / 1_000_000.0;
	}

}
