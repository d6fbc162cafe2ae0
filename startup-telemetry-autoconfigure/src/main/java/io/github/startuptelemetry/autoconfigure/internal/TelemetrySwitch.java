package io.github.startuptelemetry.autoconfigure.internal;

import java.util.Locale;
import java.util.Map;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.core.env.PropertyResolver;

import io.github.startuptelemetry.autoconfigure.TelemetryProperties;
import io.github.startuptelemetry.contract.NemoEnv;
import io.github.startuptelemetry.contract.SpanGroups;
import io.github.startuptelemetry.contract.TelemetryEnv;

/**
 * The one switch, {@code telemetry.enabled}, read where no Spring context can help: before the
 * environment exists, or in code that never sees a bean. A value that is not a boolean is ignored,
 * never an error.
 */
public final class TelemetrySwitch {

	/** The env form of {@code telemetry.enabled} (Spring relaxed binding). */
	public static final String ENABLED_ENV = TelemetryEnv.TELEMETRY_ENABLED;

	public static final String ENABLED_PROPERTY = TelemetryProperties.ENABLED;

	private static final Log logger = LogFactory.getLog(TelemetrySwitch.class);

	private TelemetrySwitch() {
	}

	/**
	 * A boolean {@code telemetry.*} property as the process environment gives it before Spring's
	 * environment exists: the system property, else its env forms
	 * ({@link TelemetryEnv#names(String)}, as a supervisor passes it on); {@code fallback} when
	 * none is a boolean.
	 */
	public static boolean flagInEnv(String property, boolean fallback) {
		return flagInEnv(property, System.getProperty(property), System.getenv(), fallback);
	}

	static boolean flagInEnv(String property, String systemProperty, Map<String, String> env, boolean fallback) {
		Boolean value = parse(property, systemProperty);
		if (value != null) {
			return value;
		}
		for (String name : TelemetryEnv.names(property)) {
			value = parse(name, env.get(name));
			if (value != null) {
				return value;
			}
		}
		return fallback;
	}

	/** Whether {@code telemetry.enabled} reached this process as anything but false. */
	public static boolean enabledInEnv() {
		Boolean property = parse(ENABLED_PROPERTY, System.getProperty(ENABLED_PROPERTY));
		if (property != null) {
			return property;
		}
		return enabledInEnv(System.getenv());
	}

	/**
	 * Whether this environment leaves telemetry on: {@code TELEMETRY_ENABLED}, else NeMo's
	 * {@code NEMO_GYM_OTEL_ENABLED}, else {@code NEMO_LENS_ENABLED} (the first that is set);
	 * on when none is, or the one read is not a boolean.
	 */
	public static boolean enabledInEnv(Map<String, String> env) {
		Boolean ours = parse(ENABLED_ENV, env.get(ENABLED_ENV));
		if (ours != null) {
			return ours;
		}
		Boolean nemo = nemoFlag(env, NemoEnv.ENABLED);
		return nemo == null || nemo;
	}

	/** A NeMo boolean setting ({@link NemoEnv}) in this environment, or {@code null}. */
	public static Boolean nemoFlag(Map<String, String> env, String setting) {
		String value = NemoEnv.value(env, setting);
		return (value != null) ? parse(NemoEnv.names(setting).get(0), value) : null;
	}

	/** {@code telemetry.enabled} as the Spring environment resolves it; true when unset or garbled. */
	public static boolean enabled(PropertyResolver resolver) {
		return flag(resolver, ENABLED_PROPERTY, true);
	}

	/**
	 * Whether {@code telemetry.span-groups} (or {@code NEMO_GYM_OTEL_SPAN_GROUPS}) selects NeMo
	 * Gym's {@code startup} group, without which no startup span is exported.
	 */
	public static boolean startupSpans(PropertyResolver resolver) {
		return SpanGroups.enabled(resolver.getProperty(TelemetryProperties.SPAN_GROUPS), SpanGroups.STARTUP);
	}

	/** A boolean property, read leniently: {@code fallback} when unset or not a boolean. */
	public static boolean flag(PropertyResolver resolver, String name, boolean fallback) {
		Boolean value = parse(name, resolver.getProperty(name));
		return (value != null) ? value : fallback;
	}

	/** Spring's boolean words (true/false, on/off, yes/no, 1/0); {@code null} for anything else. */
	static Boolean parse(String name, String value) {
		if (value == null) {
			return null;
		}
		switch (value.strip().toLowerCase(Locale.ROOT)) {
			case "true", "on", "yes", "1":
				return Boolean.TRUE;
			case "false", "off", "no", "0":
				return Boolean.FALSE;
			default:
				logger.debug("Ignoring " + name + ": not a boolean");
				return null;
		}
	}

}
