package io.github.startuptelemetry.bench.plain;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A Boot web app as a new user of the starter has one: the web starter and one controller, no
 * actuator, no Micrometer, no OpenTelemetry of its own. The startup benchmark times it to its first
 * {@code 200} from {@code /hello}, with and without the starter; the process tests run it as the
 * plain app the starter must not burden. {@code --plain.fail-in-bean=true} makes a bean throw while
 * the context refreshes (a failed startup, for the tests).
 */
@SpringBootApplication
@RestController
public class PlainApplication {

	public static void main(String[] args) {
		SpringApplication.run(PlainApplication.class, args);
	}

	@GetMapping("/hello")
	String hello() {
		return "hello";
	}

}
