package io.github.startuptelemetry.bench.plain;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.stereotype.Component;

/** Test aid ({@code plain.fail-in-bean=true}): a bean whose creation fails, as a broken one does. */
@Component
@ConditionalOnBooleanProperty("plain.fail-in-bean")
class FailingBean {

	FailingBean() {
		throw new IllegalStateException("plain.fail-in-bean: this bean fails on purpose");
	}

}
