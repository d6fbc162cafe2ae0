package demo;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.stereotype.Component;
import org.springframework.stereotype.Service;

@SpringBootApplication
public class DemoApplication {

	public static void main(String[] args) {
		SpringApplication.run(DemoApplication.class, args);
	}

	@Service
	public static class GreetingService {

		public String greet(String name) {
			return "hello " + name;
		}

	}

	/**
	 * Loads what it serves when the context starts: the slow bean (300 ms; {@code demo.catalogue.ms}
	 * changes it, 0 in the overhead benchmark, which times contexts with nothing slow in them).
	 */
	@Component
	public static class Catalogue {

		public Catalogue() throws InterruptedException {
			Thread.sleep(Long.getLong("demo.catalogue.ms", 300));
		}

	}

}
