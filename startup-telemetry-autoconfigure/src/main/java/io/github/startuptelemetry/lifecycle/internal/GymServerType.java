package io.github.startuptelemetry.lifecycle.internal;

import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import org.springframework.util.ClassUtils;

import io.github.startuptelemetry.contract.NemoEnv;

/**
 * The type of a server a Python Gym supervisor spawned ({@code nemo.gym.server.type}), read as
 * Gym's {@code env.py} reads it: the key its entry in {@link NemoEnv#CONFIG_DICT} is nested under.
 * Anything unreadable is no type; the YAML is read safely (plain data, bounded aliases) and only
 * when asked, after ready.
 */
public final class GymServerType {

	private static final String YAML = "org.yaml.snakeyaml.Yaml";

	private GymServerType() {
	}

	/** The type {@code env}'s Gym configuration gives this server, or {@code null}. */
	public static @Nullable String of(Map<String, String> env) {
		String path = env.get(NemoEnv.CONFIG_PATH);
		String config = env.get(NemoEnv.CONFIG_DICT);
		if (path == null || path.isBlank() || config == null || config.isBlank()
				|| !ClassUtils.isPresent(YAML, GymServerType.class.getClassLoader())) {
			return null;
		}
		try {
			return Parser.type(config, path.strip());
		}
		catch (RuntimeException | LinkageError ex) {
			return null;
		}
	}

	/** Isolates SnakeYAML, which an application may not have. */
	private static final class Parser {

		static @Nullable String type(String config, String path) {
			LoaderOptions options = new LoaderOptions();
			options.setMaxAliasesForCollections(50);
			options.setAllowRecursiveKeys(false);
			Object root = new Yaml(new SafeConstructor(options)).load(config);
			if (!(root instanceof Map<?, ?> entries) || !(entries.get(path) instanceof Map<?, ?> server)
					|| server.isEmpty()) {
				return null;
			}
			Object type = server.keySet().iterator().next();
			return (type instanceof String name && NemoEnv.SERVER_TYPES.contains(name)) ? name : null;
		}

	}

}
