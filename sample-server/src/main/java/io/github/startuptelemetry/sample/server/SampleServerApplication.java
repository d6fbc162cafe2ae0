package io.github.startuptelemetry.sample.server;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A small inference-style web app: a model loader that takes a while at startup, a predict
 * endpoint and a health endpoint. The starter times its startup with no code of its own. With
 * {@code sample.one-shot=true} (and no web server) it is a one-shot job instead, say a model
 * download: it starts, loads, and exits 0.
 */
@SpringBootApplication
@EnableConfigurationProperties(ModelLoaderProperties.class)
public class SampleServerApplication {

	public static void main(String[] args) {
		ConfigurableApplicationContext context = SpringApplication.run(SampleServerApplication.class, args);
		if (context.getEnvironment().getProperty("sample.one-shot", Boolean.class, false)) {
			System.exit(SpringApplication.exit(context));
		}
	}

}
