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
 * backlog a busy server has when it is told to stop (the shutdown benchmark). With
 * {@code BENCH_FLOOR=true} it also does the contract's minimum by hand ({@link ContractFloor}).
 */
@SpringBootApplication
@RestController
public class StartupApplication {

	private final Tracer tracer;

	public StartupApplication(OpenTelemetry openTelemetry) {
		this.tracer = openTelemetry.getTracer("startup-app");
	}

	public static void main(String[] args) {
		SpringApplication application = new SpringApplication(StartupApplication.class);
		if (Boolean.parseBoolean(System.getenv("BENCH_FLOOR"))) {
			// the startup benchmark's floor variant: added here, so the default path runs nothing of it
			application.addListeners(new ContractFloor());
		}
		application.run(args);
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
