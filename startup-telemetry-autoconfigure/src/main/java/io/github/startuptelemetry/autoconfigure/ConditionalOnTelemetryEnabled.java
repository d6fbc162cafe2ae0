package io.github.startuptelemetry.autoconfigure;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;

/**
 * {@link org.springframework.context.annotation.Conditional @Conditional} that matches unless
 * {@code telemetry.enabled} is {@code false}: the starter's one switch
 * ({@link TelemetryProperties#isEnabled()}, env {@code TELEMETRY_ENABLED}), as every
 * auto-configuration of the starter applies it. Unset means on.
 * <p>
 * It only decides what the context holds. Code that runs before a context exists reads the
 * switch itself; see {@code ServerStartupListener} and {@code ReadyReportRunListener}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.TYPE, ElementType.METHOD })
@Documented
@ConditionalOnBooleanProperty(name = TelemetryProperties.ENABLED, matchIfMissing = true)
public @interface ConditionalOnTelemetryEnabled {

}
