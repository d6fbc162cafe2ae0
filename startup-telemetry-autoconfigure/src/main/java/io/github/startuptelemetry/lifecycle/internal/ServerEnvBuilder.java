package io.github.startuptelemetry.lifecycle.internal;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Assembles the environment a supervisor adds to a server it spawns, on top of its own: the one
 * place of the rule that a variable already in the supervisor's environment wins over a setting
 * ({@link #setting}), and only the wire contract and the plan's own values ({@link #set}) are
 * written over it. Values may be secrets: nothing here logs one.
 */
public final class ServerEnvBuilder {

	private final Map<String, String> supervisorEnv;

	private final Map<String, String> env = new LinkedHashMap<>();

	private ServerEnvBuilder(Map<String, String> supervisorEnv) {
		this.supervisorEnv = supervisorEnv;
	}

	/** An environment for a server of a supervisor whose own environment is {@code supervisorEnv}. */
	public static ServerEnvBuilder of(Map<String, String> supervisorEnv) {
		return new ServerEnvBuilder(Map.copyOf(supervisorEnv));
	}

	/** An environment for a server of this process. */
	public static ServerEnvBuilder ofThisProcess() {
		return new ServerEnvBuilder(System.getenv());
	}

	/**
	 * The first of a variable's spellings that the supervisor's environment has, with its
	 * value: what the server inherits unchanged, so the supervisor's own setting of it does not
	 * count. {@code null} when it has none.
	 */
	public Map.Entry<String, String> inherited(List<String> spellings) {
		for (String name : spellings) {
			String value = this.supervisorEnv.get(name);
			if (value != null) {
				return Map.entry(name, value);
			}
		}
		return null;
	}

	/** The supervisor's own value of a variable, or {@code null}. */
	public String inherited(String name) {
		return this.supervisorEnv.get(name);
	}

	/** A setting or per-server value: set unless the supervisor's environment has it. */
	public ServerEnvBuilder setting(String name, String value) {
		if (name != null && value != null && !this.supervisorEnv.containsKey(name)) {
			this.env.put(name, value);
		}
		return this;
	}

	/** {@link #setting(String, String)} for each entry. */
	public ServerEnvBuilder settings(Map<String, String> values) {
		values.forEach(this::setting);
		return this;
	}

	/** The wire contract, or a plan's own env: set whatever the supervisor's environment has. */
	public ServerEnvBuilder set(String name, String value) {
		if (name != null && value != null) {
			this.env.put(name, value);
		}
		return this;
	}

	/** {@link #set(String, String)} for each entry. */
	public ServerEnvBuilder set(Map<String, String> values) {
		values.forEach(this::set);
		return this;
	}

	/** The variables to add to the server's environment, a new mutable map. */
	public Map<String, String> toMap() {
		return new LinkedHashMap<>(this.env);
	}

	/** Variable names only: values may be secrets. */
	@Override
	public String toString() {
		return "ServerEnvBuilder" + this.env.keySet();
	}

}
