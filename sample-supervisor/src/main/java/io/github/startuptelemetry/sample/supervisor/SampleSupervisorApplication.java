package io.github.startuptelemetry.sample.supervisor;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The sample fleet launcher: no code of its own. The starter's fleet launcher spawns the
 * servers declared under {@code telemetry.supervisor.servers} in {@code application.yml},
 * waits for them, prints the startup report and exports {@code gym.startup}; it keeps running
 * until stopped, or exits once all are ready with {@code telemetry.supervisor.exit-when-ready}.
 */
@SpringBootApplication
public class SampleSupervisorApplication {

	public static void main(String[] args) {
		SpringApplication.run(SampleSupervisorApplication.class, args);
	}

}
