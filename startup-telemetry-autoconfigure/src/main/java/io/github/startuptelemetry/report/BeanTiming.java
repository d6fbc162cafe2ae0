package io.github.startuptelemetry.report;

import java.util.List;
import java.util.Objects;

/**
 * One slow bean (or application startup step) a server reported under its
 * {@code beans_instantiated} stage, with the slow steps that ran inside it. Epoch nanoseconds.
 *
 * @param name the bean's name, or the step's
 * @param type the bean's class name, or {@code null} when unknown or not a bean
 * @param startNs when its creation began
 * @param endNs when its creation ended, never before {@code startNs}
 * @param children the slow steps that ran inside this one, in start order
 */
public record BeanTiming(String name, String type, long startNs, long endNs, List<BeanTiming> children) {

	public BeanTiming {
		Objects.requireNonNull(name, "name");
		if (endNs < startNs) {
			throw new IllegalArgumentException("Bean '" + name + "' ends before it starts");
		}
		children = List.copyOf(children);
	}

	public long durationNs() {
		return this.endNs - this.startNs;
	}

}
