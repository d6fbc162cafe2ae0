package io.github.startuptelemetry.autoconfigure;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;

/**
 * {@link org.springframework.context.annotation.Conditional @Conditional} that matches unless
 * {@code telemetry.enabled} is {@code false} (env {@code TELEMETRY_ENABLED}; unset means on), as
 * every auto-configuration of the starter applies it. Code that runs before a context exists reads
 * the switch itself ({@code TelemetrySwitch}).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.TYPE, ElementType.METHOD })
@Documented
@ConditionalOnBooleanProperty(name = TelemetryProperties.ENABLED, matchIfMissing = true)
public @interface ConditionalOnTelemetryEnabled {

}
