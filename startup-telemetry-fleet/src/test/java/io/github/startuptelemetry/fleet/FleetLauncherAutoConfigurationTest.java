package io.github.startuptelemetry.fleet;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.startuptelemetry.launch.ServerLauncher;
import io.github.startuptelemetry.launch.local.LocalLauncherAutoConfiguration;
import io.github.startuptelemetry.launch.slurm.SlurmLauncherAutoConfiguration;
import io.github.startuptelemetry.supervisor.SupervisorAutoConfiguration;
import io.github.startuptelemetry.supervisor.SupervisorTracingAutoConfiguration;

/** What {@link FleetLauncherAutoConfiguration} provides, and how a bad fleet fails a start. */
class FleetLauncherAutoConfigurationTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SupervisorAutoConfiguration.class,
				SupervisorTracingAutoConfiguration.class, FleetLauncherAutoConfiguration.class,
				LocalLauncherAutoConfiguration.class));

	@Test
	void noFleetRunsUnlessConfigured() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(FleetLauncher.class)
			.doesNotHaveBean(ServerLauncher.class));
		this.runner.withPropertyValues("telemetry.supervisor.servers[0].name=a", "telemetry.supervisor.servers[0].command=x")
			.run((context) -> assertThat(context).hasSingleBean(FleetLauncher.class).hasBean("localServerLauncher"));
	}

	/**
	 * The fleet launcher's configuration comes before the supervisor's, so the supervisor's role,
	 * decided as the configuration is read, sees its launcher: the process is a supervisor.
	 */
	@Test
	void aDeclaredFleetMakesTheProcessASupervisor() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean("startupTelemetrySupervisorRole"));
		this.runner.withPropertyValues("telemetry.supervisor.servers[0].name=a", "telemetry.supervisor.servers[0].command=x")
			.run((context) -> assertThat(context).hasBean("startupTelemetrySupervisorRole")
				.hasSingleBean(FleetLauncher.class));
	}

	@Test
	void aLauncherNameNoLauncherHasOrSlurmOutsideAnAllocationFailsTheSupervisorNamingTheProperty() {
		ApplicationContextRunner fleet = this.runner
			.withConfiguration(AutoConfigurations.of(SlurmLauncherAutoConfiguration.class))
			.withPropertyValues("telemetry.supervisor.servers[0].name=a", "telemetry.supervisor.servers[0].command=x");
		fleet.run((context) -> assertThat(context).hasSingleBean(FleetLauncher.class)
			.hasBean("localServerLauncher")
			.hasBean("slurmServerLauncher"));
		fleet.withPropertyValues("telemetry.supervisor.launcher=nope")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("telemetry.supervisor.launcher")
				.hasMessageContaining("no launcher is named 'nope'; known: local, slurm"));
		// a launcher of ours that comes with its own module says which module to add
		fleet.withPropertyValues("telemetry.supervisor.launcher=kubernetes")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("telemetry.supervisor.launcher")
				.hasMessageContaining("add the dependency io.github.startuptelemetry:startup-telemetry-kubernetes"));
		assumeTrue(System.getenv("SLURM_JOB_ID") == null, "these tests run inside a Slurm allocation");
		fleet.withPropertyValues("telemetry.supervisor.servers[0].launcher=slurm")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("telemetry.supervisor.servers[0].launcher")
				.hasMessageContaining("SLURM_JOB_ID is not set")
				.hasMessageContaining("salloc"));
	}

	@Test
	void withoutAFleetThereIsNoLauncher() {
		this.runner.withConfiguration(AutoConfigurations.of(SlurmLauncherAutoConfiguration.class))
			.run((context) -> assertThat(context).doesNotHaveBean(ServerLauncher.class));
	}

	@Test
	void theHtmlReportGoesToTheWorkingDirectoryByDefault() {
		this.runner.withPropertyValues("telemetry.supervisor.servers[0].name=a", "telemetry.supervisor.servers[0].command=x")
			.run((context) -> assertThat(context.getBean(SupervisorProperties.class).getReport().getHtml())
				.isEqualTo(Path.of("startup-report.html")));
	}

	@Test
	void aServerWithoutCommandFailsTheStartNamingTheProperty() {
		assertFailure("servers[1].command", "must not be empty", "telemetry.supervisor.servers[0].name=a",
				"telemetry.supervisor.servers[0].command=x", "telemetry.supervisor.servers[1].name=b");
	}

	@Test
	void aDuplicateNameFailsTheStartNamingTheProperty() {
		assertFailure("servers[1].name", "'model-1' is already taken by telemetry.supervisor.servers[0]",
				"telemetry.supervisor.servers[0].name=model", "telemetry.supervisor.servers[0].replicas=2",
				"telemetry.supervisor.servers[0].command=x", "telemetry.supervisor.servers[1].name=model-1",
				"telemetry.supervisor.servers[1].command=x");
	}

	@Test
	void aBadHealthUrlFailsTheStartNamingTheProperty() {
		assertFailure("servers[0].health-url", "must be an absolute http or https URL",
				"telemetry.supervisor.servers[0].name=a", "telemetry.supervisor.servers[0].command=x",
				"telemetry.supervisor.servers[0].health-url=localhost:{port}/health");
	}

	@Test
	void noReplicasFailsTheStartNamingTheProperty() {
		assertFailure("servers[0].replicas", "must be at least 1", "telemetry.supervisor.servers[0].name=a",
				"telemetry.supervisor.servers[0].command=x", "telemetry.supervisor.servers[0].replicas=0");
	}

	@Test
	void aBadRegressionThresholdOrBaselineFailsTheStartNamingTheProperty() {
		assertFailure("report.max-regression", "'fast' is neither a percentage nor a duration",
				"telemetry.supervisor.servers[0].name=a",
				"telemetry.supervisor.servers[0].command=x", "telemetry.supervisor.report.max-regression=fast");
		assertFailure("report.stage-max-regression[beans_instantiated]", "must be a percentage of at least 0%",
				"telemetry.supervisor.servers[0].name=a",
				"telemetry.supervisor.servers[0].command=x", "telemetry.supervisor.report.stage-max-regression.beans_instantiated=-5%");
		assertFailure("report.baseline[0]", "is not a readable startup report: /nonexistent/base.json",
				"telemetry.supervisor.servers[0].name=a",
				"telemetry.supervisor.servers[0].command=x", "telemetry.supervisor.report.baseline=/nonexistent/base.json");
		assertFailure("report.spread-multiplier", "must be a number of at least 0", "telemetry.supervisor.servers[0].name=a",
				"telemetry.supervisor.servers[0].command=x", "telemetry.supervisor.report.spread-multiplier=-1");
	}

	@Test
	void aProbeBudgetOfNothingFailsTheStartNamingTheProperty() {
		assertFailure("probe.max-per-second", "must be at least 1", "telemetry.supervisor.servers[0].name=a",
				"telemetry.supervisor.servers[0].command=x", "telemetry.supervisor.probe.max-per-second=0");
	}

	@ParameterizedTest
	@ValueSource(strings = { "-1", "65536" })
	void aPortOutOfRangeFailsTheStartNamingTheProperty(String port) {
		assertFailure("servers[0].port", "must be 0 (the server binds any free port",
				"telemetry.supervisor.servers[0].name=a", "telemetry.supervisor.servers[0].command=x",
				"telemetry.supervisor.servers[0].port=" + port);
	}

	@Test
	void aFixedPortForReplicasFailsTheStartNamingTheProperty() {
		assertFailure("servers[0].port", "for a single server, a port from 1 to 65535",
				"telemetry.supervisor.servers[0].name=a", "telemetry.supervisor.servers[0].command=x",
				"telemetry.supervisor.servers[0].replicas=2", "telemetry.supervisor.servers[0].port=8080");
	}

	@Test
	void portZeroForReplicasAndAFixedPortForOneServerAreFine() {
		this.runner
			.withPropertyValues("telemetry.supervisor.servers[0].name=a", "telemetry.supervisor.servers[0].command=x",
					"telemetry.supervisor.servers[0].replicas=3", "telemetry.supervisor.servers[0].port=0",
					"telemetry.supervisor.servers[1].name=b", "telemetry.supervisor.servers[1].command=x",
					"telemetry.supervisor.servers[1].port=8080")
			.run((context) -> assertThat(context.getBean(SupervisorProperties.class).getServers())
				.extracting(SupervisorProperties.Server::getPort)
				.containsExactly(0, 8080));
	}

	@ParameterizedTest
	@ValueSource(strings = { "$(touch pwned)", "a;b", "`id`", "it's", "a\"b", "../up", "a b", "-flag", ".hidden" })
	void aNameOrTypeAShellOrFileSystemWouldReadAsSyntaxFailsTheStart(String unsafe) {
		assertFailure("servers[0].name", "must be letters, digits, '.', '_' and '-'",
				"telemetry.supervisor.servers[0].name=" + unsafe, "telemetry.supervisor.servers[0].command=x");
		assertFailure("servers[0].type", "it names the server's log file and may be pasted into its setup command",
				"telemetry.supervisor.servers[0].name=a", "telemetry.supervisor.servers[0].type=" + unsafe,
				"telemetry.supervisor.servers[0].command=x");
	}

	@Test
	void jvmCacheSettingsThatCannotWorkFailTheStartNamingTheProperty(@TempDir Path tmp) throws IOException {
		String[] fleet = { "telemetry.supervisor.servers[0].name=a", "telemetry.supervisor.servers[0].command=x" };
		assertFailure("jvm-cache.rounds", "must be at least 1", with(fleet, "telemetry.supervisor.jvm-cache.rounds=0"));
		assertFailure("jvm-cache.max-size", "must be more than 0 bytes",
				with(fleet, "telemetry.supervisor.jvm-cache.max-size=0"));
		assertFailure("jvm-cache.training-timeout", "must be more than 0",
				with(fleet, "telemetry.supervisor.jvm-cache.training-timeout=0s"));
		Path file = Files.writeString(tmp.resolve("not-a-dir"), "");
		assertFailure("jvm-cache.directory", "is a file, not a directory",
				with(fleet, "telemetry.supervisor.jvm-cache.directory=" + file));
		this.runner.withPropertyValues(with(fleet, "telemetry.supervisor.jvm-cache.mode=sometimes"))
			.run((context) -> assertThat(context).getFailure()
				.hasStackTraceContaining("telemetry.supervisor.jvm-cache.mode"));
	}

	@Test
	void theJvmCacheIsOffByDefaultAndEachServerCanOverrideTheFleetsMode() {
		this.runner.withPropertyValues("telemetry.supervisor.fleet.a.command=x", "telemetry.supervisor.fleet.b.command=x",
				"telemetry.supervisor.fleet.b.replicas=2", "telemetry.supervisor.fleet.b.jvm-cache.mode=off",
				"telemetry.supervisor.jvm-cache.mode=compare")
			.run((context) -> {
				SupervisorProperties properties = context.getBean(SupervisorProperties.class);
				assertThat(properties.getJvmCache().getMode()).isEqualTo(SupervisorProperties.JvmCacheMode.COMPARE);
				assertThat(properties.getJvmCache().getRounds()).isEqualTo(5);
				assertThat(properties.getFleet().get("b").getJvmCache().getMode())
					.isEqualTo(SupervisorProperties.JvmCacheMode.OFF);
				assertThat(properties.getFleet().get("a").getJvmCache().getMode()).isNull();
			});
		this.runner.withPropertyValues("telemetry.supervisor.servers[0].name=a", "telemetry.supervisor.servers[0].command=x")
			.run((context) -> assertThat(context.getBean(SupervisorProperties.class).getJvmCache().getMode())
				.isEqualTo(SupervisorProperties.JvmCacheMode.OFF));
	}

	private static String[] with(String[] properties, String more) {
		String[] all = Arrays.copyOf(properties, properties.length + 1);
		all[properties.length] = more;
		return all;
	}

	private void assertFailure(String field, String reason, String... properties) {
		this.runner.withPropertyValues(properties).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("on field '" + field + "'")
				.hasMessageContaining(reason);
		});
	}

}
