package io.github.startuptelemetry.bench;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** The app whose startup the benchmark times: web, actuator health, OpenTelemetry; nothing slow. */
@SpringBootApplication
@RestController
public class StartupApplication {

	public static void main(String[] args) {
		SpringApplication.run(StartupApplication.class, args);
	}

	@GetMapping("/hello")
	String hello() {
		return "hello";
	}

}
