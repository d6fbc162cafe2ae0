package io.github.startuptelemetry.fleet;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationPropertiesBindHandlerAdvisor;
import org.springframework.boot.context.properties.bind.AbstractBindHandler;
import org.springframework.boot.context.properties.bind.BindContext;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;

import io.github.startuptelemetry.autoconfigure.TelemetryProperties;
import io.github.startuptelemetry.fleet.SupervisorProperties.DependencyCondition;

/**
 * {@code depends-on} as a list of server names, each to be ready, as Docker Compose users write
 * it: {@code depends-on: [config]} in YAML ({@code depends-on[0]=config}), or
 * {@code depends-on=config,model} as one value; beside the map form, which it folds into (a name
 * the map form also gives keeps the map's condition). Boot binds a list element of a map by its
 * index, {@code 0}, and its value as the map's value, a condition: this takes the element as a
 * name instead.
 */
final class DependsOnListForm implements ConfigurationPropertiesBindHandlerAdvisor {

	private static final ConfigurationPropertyName SUPERVISOR = ConfigurationPropertyName.of(TelemetryProperties.SUPERVISOR);

	/** {@code depends-on} as Boot compares names: the environment's {@code DEPENDSON} is the same property. */
	private static final String DEPENDS_ON = "dependson";

	private static final Bindable<String> NAME = Bindable.of(String.class);

	@Override
	public BindHandler apply(BindHandler bindHandler) {
		return new AbstractBindHandler(bindHandler) {

			@Override
			@SuppressWarnings("unchecked")
			public <T> @Nullable Bindable<T> onStart(ConfigurationPropertyName name, Bindable<T> target,
					BindContext context) {
				// bound as the name it is; onSuccess below folds it into the map before Boot converts the map
				return super.onStart(name, isListElement(name, target) ? (Bindable<T>) NAME : target, context);
			}

			@Override
			public @Nullable Object onSuccess(ConfigurationPropertyName name, Bindable<?> target, BindContext context,
					Object result) {
				return super.onSuccess(name, target, context,
						(isDependsOn(name, target) && result instanceof Map<?, ?> map) ? fold(map) : result);
			}

			@Override
			public @Nullable Object onFailure(ConfigurationPropertyName name, Bindable<?> target, BindContext context,
					Exception error) throws Exception {
				ConfigurationProperty property = context.getConfigurationProperty();
				if (isDependsOn(name, target) && property != null && name.equals(property.getName())
						&& property.getValue() instanceof CharSequence names) {
					// one value where the map belongs: a comma-separated list of names
					Map<Object, Object> dependsOn = new LinkedHashMap<>();
					for (String server : names.toString().split(",")) {
						dependsOn.putIfAbsent(server.strip(), DependencyCondition.READY);
					}
					return dependsOn;
				}
				return super.onFailure(name, target, context, error);
			}

		};
	}

	/** A server's {@code depends-on} map, under {@code telemetry.supervisor}. */
	private static boolean isDependsOn(ConfigurationPropertyName name, Bindable<?> target) {
		return isDependsOn(name) && DependencyCondition.class.equals(target.getType().asMap().resolveGeneric(1));
	}

	private static boolean isDependsOn(ConfigurationPropertyName name) {
		return SUPERVISOR.isAncestorOf(name) && !name.isLastElementIndexed()
				&& DEPENDS_ON.equals(name.getLastElement(Form.UNIFORM));
	}

	/** An element of a {@code depends-on} list, {@code depends-on[0]}, about to be bound as a condition. */
	private static boolean isListElement(ConfigurationPropertyName name, Bindable<?> target) {
		return name.getNumberOfElements() > 1 && name.isNumericIndex(name.getNumberOfElements() - 1)
				&& isDependsOn(name.getParent()) && DependencyCondition.class.equals(target.getType().resolve());
	}

	/**
	 * The map with each listed name (a {@code String} value) as a key of its own, to be ready;
	 * in the order bound, the first of a name kept: that of the property source that wins.
	 */
	private static Map<Object, Object> fold(Map<?, ?> bound) {
		Map<Object, Object> dependsOn = new LinkedHashMap<>();
		bound.forEach((key, value) -> {
			if (value instanceof String server) {
				dependsOn.putIfAbsent(server.strip(), DependencyCondition.READY);
			}
			else {
				dependsOn.putIfAbsent(key, value);
			}
		});
		return dependsOn;
	}

}
