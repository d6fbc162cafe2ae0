package io.github.startuptelemetry.autoconfigure.internal;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.context.annotation.Conditional;

/**
 * {@link Conditional @Conditional} that matches where Spring Boot's own OpenTelemetry tracing
 * auto-configuration is on the class path, under the name it has on the running Boot line
 * ({@code BootLine}).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.TYPE, ElementType.METHOD })
@Documented
@Conditional(OnBootOpenTelemetryCondition.Tracing.class)
public @interface ConditionalOnBootOpenTelemetryTracing {

}
