package io.github.startuptelemetry.fleet;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.SimpleCommandLinePropertySource;

import io.github.startuptelemetry.launch.local.LocalLauncherAutoConfiguration;
import io.github.startuptelemetry.supervisor.SupervisorAutoConfiguration;
import io.github.startuptelemetry.supervisor.SupervisorTracingAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A supervisor's fleet as Boot binds it from two property sources: an application's YAML (its own
 * source, last) and an operator's arguments (a command-line source, first).
 */
final class FleetPropertySources {

	static final ApplicationContextRunner RUNNER = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SupervisorAutoConfiguration.class,
				SupervisorTracingAutoConfiguration.class, FleetLauncherAutoConfiguration.class,
				LocalLauncherAutoConfiguration.class));

	private FleetPropertySources() {
	}

	/** The fleet from {@code yaml}, and {@code args} over it. */
	static ApplicationContextRunner run(Map<String, Object> yaml, String... args) {
		return RUNNER.withInitializer((context) -> {
			context.getEnvironment().getPropertySources()
				.addLast(new MapPropertySource("Config resource 'class path resource [application.yaml]'", yaml));
			if (args.length > 0) {
				context.getEnvironment().getPropertySources().addFirst(new SimpleCommandLinePropertySource(args));
			}
		});
	}

	/** The context fails binding, on {@code field}, for each of {@code reasons}. */
	static void assertFailure(ApplicationContextRunner runner, String field, String... reasons) {
		runner.run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("on field '" + field + "'")
				.hasMessageContainingAll(reasons);
		});
	}

	/** Properties as a YAML file binds them, in order. */
	static Map<String, Object> yaml(String... pairs) {
		Map<String, Object> map = new LinkedHashMap<>();
		for (int i = 0; i < pairs.length; i += 2) {
			map.put(pairs[i], pairs[i + 1]);
		}
		return map;
	}

}
