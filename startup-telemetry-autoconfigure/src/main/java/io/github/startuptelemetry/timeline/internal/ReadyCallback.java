package io.github.startuptelemetry.timeline.internal;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.JsonFields;
import io.github.startuptelemetry.internal.JsonText;
import io.github.startuptelemetry.timeline.ServerTimeline;
import io.github.startuptelemetry.timeline.TimelineJson;

/**
 * What a server tells its supervisor's readiness callback once it is ready, and its JSON, both
 * ways. Holds no secret (the token travels in a header); reading never throws, and a value the
 * supervisor would act on (a name, a port, a timeline) that is unusable reads as empty.
 *
 * @param server the server's name, as its supervisor named it
 * @param pid the server's process id
 * @param host the server's host name, for people
 * @param port the port its web server bound, or 0 without one
 * @param clockEpochNs the server's clock when it wrote this, just before it said it was ready
 * @param clock its clock's offset to the supervisor's, or {@code null} when it could not tell
 * @param timeline its startup timeline, the endpoint's JSON
 */
public record ReadyCallback(String server, long pid, String host, int port, long clockEpochNs,
		@Nullable ClockOffset clock, ServerTimeline timeline) {

	public Map<String, Object> write() {
		return write(null);
	}

	/**
	 * {@link #write()}, with the parts of the timeline {@code draft} already wrote as that text.
	 * @param draft what was written of an earlier state of the timeline, or {@code null}
	 */
	public Map<String, Object> write(TimelineJson.@Nullable Draft draft) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put(JsonFields.SERVER, this.server);
		body.put(JsonFields.PID, this.pid);
		body.put(JsonFields.HOST, this.host);
		body.put(JsonFields.PORT, this.port);
		body.put(JsonFields.CLOCK_EPOCH_NS, this.clockEpochNs);
		body.put(JsonFields.CLOCK_OFFSET_NS, (this.clock != null) ? this.clock.offsetNs() : null);
		body.put(JsonFields.CLOCK_UNCERTAINTY_NS, (this.clock != null) ? this.clock.uncertaintyNs() : null);
		body.put(JsonFields.TIMELINE, TimelineJson.write(this.timeline, draft));
		return body;
	}

	/** A parsed body; empty when a field the supervisor acts on is missing or out of range. */
	public static Optional<ReadyCallback> read(@Nullable Map<String, ?> body) {
		if (body == null) {
			return Optional.empty();
		}
		try {
			String server = JsonText.asText(body.get(JsonFields.SERVER));
			long port = JsonText.asLong(body.get(JsonFields.PORT));
			Optional<ServerTimeline> timeline = (body.get(JsonFields.TIMELINE) instanceof Map<?, ?> map)
					? TimelineJson.read(stringKeys(map)) : Optional.empty();
			if (server == null || server.isBlank() || port < 0 || port > 65535 || timeline.isEmpty()) {
				return Optional.empty();
			}
			String host = JsonText.asText(body.get(JsonFields.HOST));
			return Optional.of(new ReadyCallback(server, JsonText.asLong(body.get(JsonFields.PID)),
					(host != null) ? host : "", (int) port, JsonText.asLong(body.get(JsonFields.CLOCK_EPOCH_NS)),
					clock(body.get(JsonFields.CLOCK_OFFSET_NS), body.get(JsonFields.CLOCK_UNCERTAINTY_NS)), timeline.get()));
		}
		catch (RuntimeException ex) {
			return Optional.empty();
		}
	}

	private static @Nullable ClockOffset clock(@Nullable Object offset, @Nullable Object uncertainty) {
		if (JsonText.asText(offset) == null && !(offset instanceof Number)) {
			return null;
		}
		long uncertaintyNs = JsonText.asLong(uncertainty);
		return (uncertaintyNs >= 0) ? new ClockOffset(JsonText.asLong(offset), uncertaintyNs) : null;
	}

	private static Map<String, Object> stringKeys(Map<?, ?> map) {
		Map<String, Object> copy = new LinkedHashMap<>();
		map.forEach((key, value) -> copy.put(String.valueOf(key), value));
		return copy;
	}

}
