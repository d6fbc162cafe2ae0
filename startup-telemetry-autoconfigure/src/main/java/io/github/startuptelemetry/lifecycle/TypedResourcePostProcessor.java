package io.github.startuptelemetry.lifecycle;

import io.opentelemetry.sdk.resources.Resource;

import org.springframework.beans.factory.config.BeanPostProcessor;

import io.github.startuptelemetry.tracing.internal.TypedResource;

/**
 * Types the OpenTelemetry {@link Resource} Boot builds, all strings, as nemo-lens does
 * ({@link TypedResource}). Every span of the process carries this resource.
 */
class TypedResourcePostProcessor implements BeanPostProcessor {

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		return (bean instanceof Resource resource) ? TypedResource.typed(resource) : bean;
	}

}
