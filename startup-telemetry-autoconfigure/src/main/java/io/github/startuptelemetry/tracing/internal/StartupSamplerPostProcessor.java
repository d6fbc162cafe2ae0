package io.github.startuptelemetry.tracing.internal;

import io.opentelemetry.sdk.trace.samplers.Sampler;

import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Wraps the application's {@link Sampler} bean so that startup spans are always sampled and
 * every other span keeps the application's decision. Public only so that the server's
 * auto-configuration can register it; it needs the OpenTelemetry SDK on the classpath.
 */
public final class StartupSamplerPostProcessor implements BeanPostProcessor {

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		return (bean instanceof Sampler sampler) ? StartupSampler.wrap(sampler) : bean;
	}

}
