package io.github.startuptelemetry.launch;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.context.annotation.Conditional;

/**
 * {@link Conditional @Conditional} that matches when the application declares a fleet: any
 * {@code telemetry.supervisor.servers} or {@code telemetry.supervisor.fleet} property is set,
 * even an incomplete one (a fleet whose server lacks its command must fail validation, not be
 * skipped). Telemetry on or off: a fleet still starts with telemetry off.
 * <p>
 * Put it on a launcher's auto-configuration. The starter's import filter drops every
 * auto-configuration under {@code io.github.startuptelemetry.launch.} by name when no fleet is
 * declared, before Boot reads its class file; the condition is for a configuration imported
 * directly, and for one of your own.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.TYPE, ElementType.METHOD })
@Documented
@Conditional(OnFleetCondition.class)
public @interface ConditionalOnFleet {

}
