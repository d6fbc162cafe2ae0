package io.github.startuptelemetry.autoconfigure.internal;

import org.apache.commons.logging.Log;

import org.springframework.boot.context.properties.bind.AbstractBindHandler;
import org.springframework.boot.context.properties.bind.BindContext;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.core.env.Environment;


/**
 * {@code telemetry.*} for code that runs before the context binds {@code TelemetryProperties}
 * (environment and bean factory post-processors), as leniently: a value that does not bind
 * leaves its default, with a debug line naming the property, never the value.
 */
public final class EarlyTelemetryProperties {

	private EarlyTelemetryProperties() {
	}

	/**
	 * Bind one branch of {@code telemetry.*} now, leniently. For code that needs only that
	 * branch: binding looks every field up in every property source, so binding the whole tree
	 * on the startup path costs several times a branch.
	 * @param <T> the branch's type
	 * @param environment the environment to bind from
	 * @param name the branch, such as {@code telemetry.startup}
	 * @param target what to bind
	 * @param fallback the result when nothing binds
	 * @param logger where an ignored property is named, at debug level
	 * @return the bound value, each invalid value left at its default
	 */
	public static <T> T bind(Environment environment, String name, Bindable<T> target, T fallback, Log logger) {
		return Binder.get(environment).bind(name, target, new LenientBindHandler(logger)).orElse(fallback);
	}

	private static final class LenientBindHandler extends AbstractBindHandler {

		private final Log logger;

		LenientBindHandler(Log logger) {
			this.logger = logger;
		}

		@Override
		public Object onFailure(ConfigurationPropertyName name, Bindable<?> target, BindContext context,
				Exception error) {
			this.logger.debug("Ignoring " + name + ": not a valid " + target.getType());
			return (target.getValue() != null) ? target.getValue().get() : null;
		}

	}

}
