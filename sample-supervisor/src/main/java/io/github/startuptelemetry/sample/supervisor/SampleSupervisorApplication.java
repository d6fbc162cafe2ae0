package io.github.startuptelemetry.sample.supervisor;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The sample fleet launcher (filled in by the supervisor issue). */
@SpringBootApplication
public class SampleSupervisorApplication {

	public static void main(String[] args) {
		SpringApplication.run(SampleSupervisorApplication.class, args);
	}

}
