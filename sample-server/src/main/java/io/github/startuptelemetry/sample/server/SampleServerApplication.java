package io.github.startuptelemetry.sample.server;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/**
 * A small inference-style web app: a model loader that takes a while at startup, a predict
 * endpoint and a health endpoint. The starter times its startup with no code of its own.
 */
@SpringBootApplication
@EnableConfigurationProperties(ModelLoaderProperties.class)
public class SampleServerApplication {

	public static void main(String[] args) {
		SpringApplication.run(SampleServerApplication.class, args);
	}

}
