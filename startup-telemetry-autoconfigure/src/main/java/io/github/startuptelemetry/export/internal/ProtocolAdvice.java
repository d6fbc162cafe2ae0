package io.github.startuptelemetry.export.internal;

import java.io.EOFException;
import java.net.URI;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.github.startuptelemetry.contract.TelemetryEnv;

/**
 * The one WARN that says what to do where the OTLP protocol cannot work: gRPC wanted and no gRPC
 * sender, OTLP/HTTP sent to a gRPC receiver (its answer, or port 4317), gRPC sent to an HTTP one
 * (its answer, or port 4318). It names both fixes, once per SDK; an export failure it explains is
 * then logged at DEBUG, never as a bare {@code EOFException}.
 */
final class ProtocolAdvice {

	/** What adds a gRPC sender. */
	static final String ADD_ON = "io.github.startuptelemetry:startup-telemetry-grpc";

	static final int GRPC_PORT = 4317;

	static final int HTTP_PORT = 4318;

	private static final Log logger = LogFactory.getLog(ProtocolAdvice.class);

	/** What the JDK's HTTP client says of an answer in HTTP/2 frames (grpc-java's GOAWAY names the request). */
	private static final String[] GRPC_ANSWERS = { "Unexpected HTTP/1.x request", "parsing HTTP/1.1 status line" };

	/** What it says of a connection closed without an answer (a gRPC server that reads no HTTP/1.1). */
	private static final String NO_ANSWER = "HTTP/1.1 header parser received no bytes";

	/** OkHttp reading "HTTP/1.1 ..." as an HTTP/2 frame header: a frame of 0x485454 ("HTT") bytes. */
	private static final String HTTP_ANSWER = "FRAME_SIZE_ERROR: 4740180";

	private final ExportSettings settings;

	private final String destination;

	private boolean said;

	/** Whether an export got through: a connection closed after that is the network's, not the protocol's. */
	private boolean reached;

	ProtocolAdvice(ExportSettings settings) {
		this.settings = settings;
		String destination = settings.destination();
		this.destination = (destination != null) ? destination : "the configured collector";
	}

	/**
	 * Once the settings are read: their protocols at DEBUG, and the WARN when gRPC is set and
	 * cannot be spoken (those signals are not exported).
	 */
	static void settled(ExportSettings settings) {
		if (logger.isDebugEnabled()) {
			logger.debug("Startup telemetry export: " + settings);
		}
		if (settings.unsendable()) {
			OtlpProtocols protocols = settings.protocols();
			logger.warn("Startup telemetry is not exported to " + new ProtocolAdvice(settings).destination + ": "
					+ protocols.setting() + " asks for OTLP/gRPC and the application has no gRPC sender. Either export"
					+ " over OTLP/HTTP (" + protocols.settingTo(TelemetryEnv.PROTOCOL_HTTP_PROTOBUF)
					+ ", to the collector's OTLP/HTTP port, " + HTTP_PORT + "), or add " + ADD_ON);
		}
	}

	/**
	 * As the SDK is built: what is wrong before anything is sent, said now (NeMo's gRPC default
	 * without a sender, a port that is the other protocol's).
	 */
	synchronized void beforeExport() {
		OtlpProtocols protocols = this.settings.protocols();
		if (protocols.nemoFallback() && (this.settings.otlpTraces() || this.settings.exportsMetrics())) {
			say("Startup telemetry goes to " + this.destination + " over OTLP/HTTP, though NeMo Gym's servers speak"
					+ " OTLP/gRPC here (no OTLP protocol is set in this NeMo process): this one has no gRPC sender. A"
					+ " gRPC-only collector refuses it: either set "
					+ protocols.settingTo(TelemetryEnv.PROTOCOL_HTTP_PROTOBUF)
					+ " and use the collector's OTLP/HTTP port (" + HTTP_PORT + "), or add " + ADD_ON
					+ " to speak gRPC as they do");
		}
		else if (exportsOver(TelemetryEnv.PROTOCOL_HTTP_PROTOBUF) && port() == GRPC_PORT) {
			say(httpToGrpc("port " + GRPC_PORT + " is OTLP/gRPC's"));
		}
		else if (exportsOver(TelemetryEnv.PROTOCOL_GRPC) && port() == HTTP_PORT) {
			say(grpcToHttp("port " + HTTP_PORT + " is OTLP/HTTP's"));
		}
	}

	/**
	 * Whether {@code failure}, of an export of {@code signal} ("spans", "metrics"), is a protocol
	 * mismatch, said here the first time (unless said before the export): its log then says it at
	 * DEBUG only.
	 */
	synchronized boolean explains(String signal, @Nullable Throwable failure) {
		if (failure == null) {
			return false;
		}
		OtlpProtocols protocols = this.settings.protocols();
		String protocol = "metrics".equals(signal) ? protocols.metrics() : protocols.traces();
		String advice = null;
		if (TelemetryEnv.PROTOCOL_GRPC.equals(protocol)) {
			if (mentions(failure, HTTP_ANSWER)) {
				advice = grpcToHttp("it answers like an OTLP/HTTP receiver");
			}
		}
		else if (answersLikeGrpc(failure) || (!this.reached && closedUnanswered(failure))) {
			advice = httpToGrpc("it answers like an OTLP/gRPC receiver");
		}
		if (advice == null) {
			return false;
		}
		if (!this.said) {
			say(advice);
		}
		return true;
	}

	/** An export got through: later connections closed without an answer are not a protocol matter. */
	synchronized void reached() {
		this.reached = true;
	}

	private String httpToGrpc(String why) {
		OtlpProtocols protocols = this.settings.protocols();
		String grpc = protocols.settingTo(TelemetryEnv.PROTOCOL_GRPC);
		String orGrpc = protocols.grpcSender() ? grpc
				: protocols.nemoFallback() ? "add " + ADD_ON + " (then it speaks gRPC, NeMo Gym's default here)"
						: "add " + ADD_ON + " and set " + grpc;
		return "Startup telemetry cannot be exported to " + this.destination + " over OTLP/HTTP: " + why
				+ ". Either use the collector's OTLP/HTTP port (" + HTTP_PORT + ") with "
				+ protocols.settingTo(TelemetryEnv.PROTOCOL_HTTP_PROTOBUF) + ", or " + orGrpc
				+ "; further failures are logged at DEBUG";
	}

	private String grpcToHttp(String why) {
		OtlpProtocols protocols = this.settings.protocols();
		return "Startup telemetry cannot be exported to " + this.destination + " over OTLP/gRPC"
				+ (protocols.nemoDefault() ? " (NeMo Gym's default here: no OTLP protocol is set)" : "") + ": " + why
				+ ". Either use the collector's OTLP/gRPC port (" + GRPC_PORT + "), or set "
				+ protocols.settingTo(TelemetryEnv.PROTOCOL_HTTP_PROTOBUF) + "; further failures are logged at DEBUG";
	}

	private void say(String advice) {
		this.said = true;
		logger.warn(advice);
	}

	private boolean exportsOver(String protocol) {
		OtlpProtocols protocols = this.settings.protocols();
		return (this.settings.otlpTraces() && protocol.equals(protocols.traces()))
				|| (this.settings.exportsMetrics() && protocol.equals(protocols.metrics()));
	}

	private int port() {
		try {
			return URI.create(this.destination).getPort();
		}
		catch (RuntimeException ex) {
			return -1;
		}
	}

	/** An HTTP/1.1 request answered in HTTP/2 frames. */
	private static boolean answersLikeGrpc(Throwable failure) {
		for (String answer : GRPC_ANSWERS) {
			if (mentions(failure, answer)) {
				return true;
			}
		}
		return false;
	}

	/** An HTTP/1.1 request not answered at all: the connection closed at once. */
	private static boolean closedUnanswered(Throwable failure) {
		if (mentions(failure, NO_ANSWER)) {
			return true;
		}
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof EOFException) {
				return true;
			}
			if (cause.getCause() == cause) {
				break;
			}
		}
		return false;
	}

	private static boolean mentions(Throwable failure, String text) {
		int depth = 0;
		for (Throwable cause = failure; cause != null && depth < 16; cause = cause.getCause(), depth++) {
			if (cause.getMessage() != null && cause.getMessage().contains(text)) {
				return true;
			}
		}
		return false;
	}

}
