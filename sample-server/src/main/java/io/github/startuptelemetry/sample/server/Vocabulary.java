package io.github.startuptelemetry.sample.server;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A vocabulary loaded on a background bootstrap thread ({@code @Bean(bootstrap = BACKGROUND)},
 * Spring's {@code bootstrapExecutor}, which Boot provides), while the model loads on the main
 * thread: the bean that shows a background bean's span under singleton creation, beside the
 * model loader rather than inside it.
 *
 * @param words how many words it holds
 * @param loadedOn the thread that created it
 */
public record Vocabulary(int words, String loadedOn) {

	private static final Log logger = LogFactory.getLog(Vocabulary.class);

	@Configuration(proxyBeanMethods = false)
	static class VocabularyConfiguration {

		@Bean(bootstrap = Bean.Bootstrap.BACKGROUND)
		Vocabulary vocabulary() throws InterruptedException {
			Thread.sleep(200);
			Vocabulary vocabulary = new Vocabulary(32_000, Thread.currentThread().getName());
			logger.info("Vocabulary loaded on thread " + vocabulary.loadedOn());
			return vocabulary;
		}

	}

}
