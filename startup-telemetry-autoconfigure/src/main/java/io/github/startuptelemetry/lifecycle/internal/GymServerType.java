package io.github.startuptelemetry.lifecycle.internal;

import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import org.springframework.util.ClassUtils;

import io.github.startuptelemetry.contract.NemoEnv;

/**
 * The type of a server a Python Gym supervisor spawned, as a Python server of Gym's reports it
 * ({@code nemo.gym.server.type}): Gym hands every server its whole configuration
 * ({@link NemoEnv#CONFIG_DICT}, YAML) and its entry's name ({@link NemoEnv#CONFIG_PATH}); the
 * entry nests the server under its type ({@code resources_servers}, {@code responses_api_agents},
 * {@code responses_api_models}), the key Gym's {@code env.py} takes as the type and the directory
 * a Python server's base class lives in. Anything else, or anything unreadable, is no type (left
 * out, as Gym leaves an unknown type out). Read safely (plain YAML data, no tags, bounded
 * aliases) and only when asked, after ready: under our own supervisor the type comes as
 * {@code telemetry.startup.server-type} and none of this runs.
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
