package io.github.startuptelemetry.lifecycle;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import io.github.startuptelemetry.contract.SlurmAttributes;

/**
 * The Slurm resource attributes nemo-lens derives ({@code derive_slurm_resource_attributes}) when
 * {@code SLURM_JOB_ID} is set, as strings (the counts are typed as ints on the trace resource).
 */
final class SlurmResourceAttributes {

	private static final UUID NAMESPACE_URL = UUID.fromString("6ba7b811-9dad-11d1-80b4-00c04fd430c8");

	private SlurmResourceAttributes() {
	}

	/** The attributes of this Slurm job, empty off Slurm. */
	static Map<String, String> resolve(Map<String, String> env) {
		Map<String, String> attributes = new LinkedHashMap<>();
		String rawJobId = text(env, SlurmAttributes.ENV_JOB_ID);
		if (rawJobId == null) {
			return attributes;
		}
		boolean array = env.containsKey(SlurmAttributes.ENV_ARRAY_TASK_ID);
		String arrayJobId = text(env, SlurmAttributes.ENV_ARRAY_JOB_ID);
		String taskId = text(env, SlurmAttributes.ENV_ARRAY_TASK_ID);
		attributes.put(SlurmAttributes.JOB_ID, (array && arrayJobId != null) ? arrayJobId + "_" + ((taskId != null) ? taskId : "")
				: rawJobId);
		attributes.put(SlurmAttributes.JOB_ID_RAW, rawJobId);
		attributes.put(SlurmAttributes.ARRAY_JOB_ID, (arrayJobId != null) ? arrayJobId : rawJobId);
		attributes.put(SlurmAttributes.ARRAY_TASK_ID, (taskId != null) ? taskId : "0");
		count(attributes, SlurmAttributes.ARRAY_COUNT, env, 1, SlurmAttributes.ENV_ARRAY_TASK_COUNT);
		put(attributes, SlurmAttributes.SLUID, env, SlurmAttributes.ENV_LENS_SLUID, SlurmAttributes.ENV_NV_LAUNCH_SLUID);
		put(attributes, SlurmAttributes.ARRAY_SLUID, env, SlurmAttributes.ENV_LENS_ARRAY_SLUID, SlurmAttributes.ENV_NV_LAUNCH_ARRAY_SLUID);
		put(attributes, SlurmAttributes.JOB_NAME, env, SlurmAttributes.ENV_JOB_NAME);
		put(attributes, SlurmAttributes.CLUSTER_NAME, env, SlurmAttributes.ENV_CLUSTER_NAME);
		put(attributes, SlurmAttributes.PARTITION, env, SlurmAttributes.ENV_JOB_PARTITION, SlurmAttributes.ENV_PARTITION);
		count(attributes, SlurmAttributes.NNODES, env, null, SlurmAttributes.ENV_JOB_NUM_NODES, SlurmAttributes.ENV_NNODES);
		count(attributes, SlurmAttributes.NTASKS, env, null, SlurmAttributes.ENV_NTASKS);
		count(attributes, SlurmAttributes.RESTART_COUNT, env, 0, SlurmAttributes.ENV_RESTART_COUNT);
		put(attributes, SlurmAttributes.JOB_USER, env, SlurmAttributes.ENV_JOB_USER);
		put(attributes, SlurmAttributes.JOB_ACCOUNT, env, SlurmAttributes.ENV_JOB_ACCOUNT);
		put(attributes, SlurmAttributes.JOB_QOS, env, SlurmAttributes.ENV_JOB_QOS);
		put(attributes, SlurmAttributes.JOB_RESERVATION, env, SlurmAttributes.ENV_JOB_RESERVATION);
		put(attributes, SlurmAttributes.SEGMENT, env, SlurmAttributes.ENV_SEGMENT);
		put(attributes, SlurmAttributes.TOPOLOGY_ADDR, env, SlurmAttributes.ENV_TOPOLOGY_ADDR);
		put(attributes, SlurmAttributes.TOPOLOGY_ADDR_PATTERN, env, SlurmAttributes.ENV_TOPOLOGY_ADDR_PATTERN);
		if (text(env, SlurmAttributes.ENV_STEP_ID) == null && text(env, SlurmAttributes.ENV_STEPID) == null) {
			put(attributes, SlurmAttributes.HEAD_NODE_NAME, env, SlurmAttributes.ENV_NODENAME);
		}
		String cluster = text(env, SlurmAttributes.ENV_CLUSTER_NAME);
		String jobKey = array ? arrayJobId : rawJobId;
		attributes.put(SlurmAttributes.NV_DL_JOB_UUID, uuid5("nemo.lens.job/" + ((cluster != null) ? cluster : "nocluster") + "/"
				+ ((jobKey != null) ? jobKey : "nojob")).toString());
		return attributes;
	}

	/** A name-based UUID, version 5 (SHA-1) in the URL namespace, as Python's {@code uuid5}. */
	static UUID uuid5(String name) {
		try {
			MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
			sha1.update(ByteBuffer.allocate(16)
				.putLong(NAMESPACE_URL.getMostSignificantBits())
				.putLong(NAMESPACE_URL.getLeastSignificantBits())
				.array());
			byte[] hash = sha1.digest(name.getBytes(StandardCharsets.UTF_8));
			hash[6] = (byte) ((hash[6] & 0x0f) | 0x50);
			hash[8] = (byte) ((hash[8] & 0x3f) | 0x80);
			ByteBuffer bytes = ByteBuffer.wrap(hash, 0, 16);
			return new UUID(bytes.getLong(), bytes.getLong());
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static void put(Map<String, String> attributes, String key, Map<String, String> env, String... names) {
		for (String name : names) {
			String value = text(env, name);
			if (value != null) {
				attributes.put(key, value);
				return;
			}
		}
	}

	private static void count(Map<String, String> attributes, String key, Map<String, String> env, Integer fallback,
			String... names) {
		for (String name : names) {
			String value = text(env, name);
			if (value != null) {
				try {
					attributes.put(key, Integer.toString(Integer.parseInt(value)));
				}
				catch (NumberFormatException ex) {
					// skipped, as lens skips it
				}
				return;
			}
		}
		if (fallback != null) {
			attributes.put(key, fallback.toString());
		}
	}

	private static String text(Map<String, String> env, String name) {
		String value = env.get(name);
		return (value != null && !value.isBlank()) ? value.strip() : null;
	}

}
