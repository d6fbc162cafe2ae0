package io.github.startuptelemetry.launch;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.context.annotation.Conditional;

/**
 * {@link Conditional @Conditional} that matches when the application declares a fleet: any
 * {@code telemetry.supervisor.servers} or {@code telemetry.supervisor.fleet} property is set, even
 * an incomplete one, telemetry on or off. Put it on a launcher's auto-configuration.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.TYPE, ElementType.METHOD })
@Documented
@Conditional(OnFleetCondition.class)
public @interface ConditionalOnFleet {

}
