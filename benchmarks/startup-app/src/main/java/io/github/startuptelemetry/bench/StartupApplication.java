package io.github.startuptelemetry.bench;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Tracer;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The app the benchmarks run with and without the starter: web, actuator health,
 * OpenTelemetry; nothing slow. {@code /burst?spans=N} queues N ended spans for export, the
 * backlog a busy server has when it is told to stop (the shutdown benchmark).
 */
@SpringBootApplication
@RestController
public class StartupApplication {

	private final Tracer tracer;

	public StartupApplication(OpenTelemetry openTelemetry) {
		this.tracer = openTelemetry.getTracer("startup-app");
	}

	public static void main(String[] args) {
		SpringApplication.run(StartupApplication.class, args);
	}

	@GetMapping("/hello")
	String hello() {
		return "hello";
	}

	@GetMapping("/burst")
	String burst(@RequestParam int spans) {
		for (int i = 0; i < spans; i++) {
			this.tracer.spanBuilder("bench.burst").startSpan().end();
		}
		return "queued " + spans;
	}

}
