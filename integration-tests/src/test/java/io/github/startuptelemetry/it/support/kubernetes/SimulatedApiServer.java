package io.github.startuptelemetry.it.support.kubernetes;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import io.fabric8.mockwebserver.http.ByteString;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The simulated control plane's API server: fabric8's mock in CRUD mode (a real REST API, watches
 * over WebSocket, real TLS with a CA a client can trust), behind what a real API server adds that
 * the tests rely on:
 * <ul>
 * <li>authentication: each request's bearer token names a service account (or the tests' own
 * administrator); an unknown token is 401;</li>
 * <li>authorization (RBAC): the Roles and RoleBindings of a YAML file (the docs' example) decide
 * each service account's requests, verb by verb, resource by resource; a denied one is 403 with
 * the API server's own message, and every allowed one is recorded, so that a test can compare what
 * was used with what the Role grants;</li>
 * <li>the {@code involvedObject.*} field selectors of events (the mock ignores them);</li>
 * <li>a pod's container log ({@code pods/log}), which the test kubelet serves, as a kubelet does
 * through the API server;</li>
 * <li>a pod delete's grace period, which the test kubelet honours.</li>
 * </ul>
 */
public final class SimulatedApiServer implements AutoCloseable {

	public static final String NAMESPACE = "startup-fleet";

	/** The tests' own identity: may do anything. */
	public static final String ADMIN = "system:admin";

	private final KubernetesMockServer server;

	private final KubernetesCrudDispatcher crud = new KubernetesCrudDispatcher();

	private final Map<String, String> tokens = new ConcurrentHashMap<>();

	private final Map<String, List<PolicyRule>> rules = new HashMap<>();

	private final Map<String, Set<String>> used = new ConcurrentHashMap<>();

	private final List<String> denied = new CopyOnWriteArrayList<>();

	private final Map<String, Long> deleteGrace = new ConcurrentHashMap<>();

	private final String adminToken;

	private volatile Function<LogRequest, String> logs = (request) -> null;

	private SimulatedApiServer(List<HasMetadata> rbac) {
		for (HasMetadata object : rbac) {
			if (object instanceof RoleBinding binding) {
				Role role = rbac.stream()
					.filter((candidate) -> candidate instanceof Role
							&& candidate.getMetadata().getName().equals(binding.getRoleRef().getName()))
					.map(Role.class::cast)
					.findFirst()
					.orElseThrow();
				for (Subject subject : binding.getSubjects()) {
					this.rules.computeIfAbsent(subject.getName(), (name) -> new ArrayList<>()).addAll(role.getRules());
				}
			}
		}
		Logger.getLogger("io.fabric8.mockwebserver").setLevel(Level.WARNING);
		this.server = new KubernetesMockServer(new Context(Serialization.jsonMapper()), new MockWebServer(),
				new HashMap<>(), new Gate(), true);
		this.server.init(InetAddress.getLoopbackAddress(), 0);
		this.adminToken = newToken();
		this.tokens.put(this.adminToken, ADMIN);
	}

	/** Start it, with the Roles and RoleBindings of {@code rbacYaml} (objects of other kinds are skipped). */
	public static SimulatedApiServer start(Path rbacYaml) throws IOException {
		List<HasMetadata> objects = new ArrayList<>();
		try (InputStream in = Files.newInputStream(rbacYaml)) {
			for (String document : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("(?m)^---\\s*$")) {
				if (document.contains("kind: Role")) {
					objects.add(Serialization.unmarshal(document, HasMetadata.class));
				}
			}
		}
		return new SimulatedApiServer(objects);
	}

	/** The bearer token of service account {@code name} (bound to whatever the RBAC file binds it to, maybe nothing). */
	public String token(String serviceAccount) {
		for (Map.Entry<String, String> token : this.tokens.entrySet()) {
			if (token.getValue().equals(serviceAccount)) {
				return token.getKey();
			}
		}
		String token = newToken();
		this.tokens.put(token, serviceAccount);
		return token;
	}

	public int port() {
		return this.server.getPort();
	}

	public String url() {
		return "https://127.0.0.1:" + port();
	}

	/** The PEM file of the certificate the API server presents: a service account's {@code ca.crt}. */
	public Path caCertificate() {
		return Path.of(this.server.getSelfSignedCertificate().certificatePath());
	}

	/** A kubeconfig for service account {@code serviceAccount}, as an operator's own machine would have. */
	public Path kubeconfig(Path dir, String serviceAccount) throws IOException {
		Path file = dir.resolve(serviceAccount + ".kubeconfig");
		Files.writeString(file, """
				apiVersion: v1
				kind: Config
				clusters:
				  - name: simulated
				    cluster:
				      server: %s
				      certificate-authority: %s
				users:
				  - name: %s
				    user:
				      token: %s
				contexts:
				  - name: simulated
				    context:
				      cluster: simulated
				      user: %s
				      namespace: %s
				current-context: simulated
				""".formatted(url(), caCertificate(), serviceAccount, token(serviceAccount), serviceAccount, NAMESPACE));
		return file;
	}

	/** A client as the tests' administrator (the kubelet, the scheduler, the tests' own checks). */
	public KubernetesClient admin() {
		Config config = new ConfigBuilder(Config.empty()).withMasterUrl(url())
			.withCaCertFile(caCertificate().toString())
			.withOauthToken(this.adminToken)
			.withNamespace(NAMESPACE)
			.build();
		return new KubernetesClientBuilder().withConfig(config).withHttpClientFactory(new JdkHttpClientFactory()).build();
	}

	/** Who serves the {@code pods/log} subresource (the kubelet): the text, or {@code null} for no container. */
	public void logs(Function<LogRequest, String> logs) {
		this.logs = logs;
	}

	/** The grace period the last delete of a pod asked for, if one was asked. */
	public Long deleteGraceSeconds(String namespace, String pod) {
		return this.deleteGrace.get(namespace + "/" + pod);
	}

	/** What service account {@code serviceAccount} did, allowed: {@code verb resource} (e.g. {@code list pods}). */
	public Set<String> used(String serviceAccount) {
		return new TreeSet<>(this.used.getOrDefault(serviceAccount, Set.of()));
	}

	/** What {@code serviceAccount} may do, as its Roles grant it: {@code verb resource}. */
	public Set<String> granted(String serviceAccount) {
		Set<String> granted = new TreeSet<>();
		for (PolicyRule rule : this.rules.getOrDefault(serviceAccount, List.of())) {
			for (String resource : rule.getResources()) {
				for (String verb : rule.getVerbs()) {
					granted.add(verb + " " + resource);
				}
			}
		}
		return granted;
	}

	/** Every request denied so far, as the API server's message says it. */
	public List<String> denied() {
		return List.copyOf(this.denied);
	}

	@Override
	public void close() {
		this.server.destroy();
	}

	private static String newToken() {
		byte[] bytes = new byte[24];
		new SecureRandom().nextBytes(bytes);
		return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
	}

	/** A request for a container's log: its pod, container, how many last lines, and whether of its last run. */
	public record LogRequest(String namespace, String pod, String container, Integer tailLines, boolean previous) {

	}

	/**
	 * A watch whose client went away (a supervisor killed with {@code kill -9}) makes the mock's
	 * listener wait up to a minute, on the mock's one event loop, for its send queue to drain: the
	 * whole API server stalled (about 30 s here, each time). A real API server does not; the
	 * listener's close and failure run on a thread of their own instead.
	 */
	private static MockResponse offTheEventLoop(MockResponse response) {
		WebSocketListener watch = response.getWebSocketListener();
		if (watch == null) {
			return response;
		}
		return response.withWebSocketUpgrade(new WebSocketListener() {

			@Override
			public void onBeforeAccept(WebSocket webSocket, Response upgrade) {
				watch.onBeforeAccept(webSocket, upgrade);
			}

			@Override
			public void onOpen(WebSocket webSocket, Response upgrade) {
				watch.onOpen(webSocket, upgrade);
			}

			@Override
			public void onMessage(WebSocket webSocket, String text) {
				watch.onMessage(webSocket, text);
			}

			@Override
			public void onMessage(WebSocket webSocket, ByteString bytes) {
				watch.onMessage(webSocket, bytes);
			}

			@Override
			public void onMessage(WebSocket webSocket, byte[] bytes) {
				watch.onMessage(webSocket, bytes);
			}

			@Override
			public void onPing(WebSocket webSocket, byte[] bytes) {
				watch.onPing(webSocket, bytes);
			}

			@Override
			public void onClosing(WebSocket webSocket, int code, String reason) {
				watch.onClosing(webSocket, code, reason);
			}

			@Override
			public void onClosed(WebSocket webSocket, int code, String reason) {
				offLoop("watch-closed", () -> watch.onClosed(webSocket, code, reason));
			}

			@Override
			public void onFailure(WebSocket webSocket, Throwable failure, Response upgrade) {
				offLoop("watch-failed", () -> watch.onFailure(webSocket, failure, upgrade));
			}

		});
	}

	private static void offLoop(String name, Runnable task) {
		Thread thread = new Thread(task, name);
		thread.setDaemon(true);
		thread.start();
	}

	/** Authentication, authorization and the parts of a real API server the mock lacks, in front of it. */
	private final class Gate extends Dispatcher {

		@Override
		public MockResponse dispatch(RecordedRequest request) {
			String authorization = request.getHeader("Authorization");
			String who = (authorization != null && authorization.startsWith("Bearer "))
					? SimulatedApiServer.this.tokens.get(authorization.substring("Bearer ".length()).strip()) : null;
			if (who == null) {
				return status(401, "Unauthorized", "Unauthorized");
			}
			Access access = Access.of(request);
			if (access == null) {
				return SimulatedApiServer.this.crud.dispatch(request);
			}
			if (!ADMIN.equals(who)) {
				if (!allowed(who, access)) {
					String message = access.resource() + ((access.name() != null) ? " \"" + access.name() + "\"" : "")
							+ " is forbidden: User \"system:serviceaccount:" + access.namespace() + ":" + who
							+ "\" cannot " + access.verb() + " resource \"" + access.resource() + "\" in API group \""
							+ access.group() + "\" in the namespace \"" + access.namespace() + "\"";
					SimulatedApiServer.this.denied.add(message);
					return status(403, "Forbidden", message);
				}
				SimulatedApiServer.this.used.computeIfAbsent(who, (name) -> ConcurrentHashMap.newKeySet())
					.add(access.verb() + " " + access.resource());
			}
			if (access.resource().equals("pods/log")) {
				return log(access, request);
			}
			if (access.resource().equals("pods") && access.verb().equals("delete")) {
				rememberGrace(access, request);
			}
			if (access.resource().equals("pods") && access.verb().equals("deletecollection")) {
				rememberCollectionGrace(access, request);
			}
			if (access.resource().equals("events") && access.verb().equals("list") && access.fieldSelector() != null
					&& access.fieldSelector().contains("involvedObject.")) {
				return events(request.getPath(), access.fieldSelector());
			}
			return offTheEventLoop(SimulatedApiServer.this.crud.dispatch(request));
		}

		private boolean allowed(String who, Access access) {
			for (PolicyRule rule : SimulatedApiServer.this.rules.getOrDefault(who, List.of())) {
				if (rule.getApiGroups().contains(access.group())
						&& (rule.getResources().contains(access.resource()) || rule.getResources().contains("*"))
						&& (rule.getVerbs().contains(access.verb()) || rule.getVerbs().contains("*"))
						&& (rule.getResourceNames().isEmpty() || rule.getResourceNames().contains(access.name()))) {
					return true;
				}
			}
			return false;
		}

		private MockResponse log(Access access, RecordedRequest request) {
			Map<String, String> query = query(request.getPath());
			String container = query.get("container");
			String text = SimulatedApiServer.this.logs.apply(new LogRequest(access.namespace(), access.name(), container,
					query.containsKey("tailLines") ? Integer.valueOf(query.get("tailLines")) : null,
					"true".equals(query.get("previous"))));
			if (text == null) {
				return status(400, "BadRequest", "container \"" + container + "\" in pod \"" + access.name()
						+ "\" is waiting to start: no log yet");
			}
			return new MockResponse().setResponseCode(200).addHeader("Content-Type: text/plain").setBody(text);
		}

		private void rememberGrace(Access access, RecordedRequest request) {
			byte[] body = request.getBody().getBytes();
			if (body.length > 0) {
				JsonNode options = Serialization.jsonMapper().readTree(new String(body, StandardCharsets.UTF_8));
				if (options.has("gracePeriodSeconds")) {
					SimulatedApiServer.this.deleteGrace.put(access.namespace() + "/" + access.name(),
							options.get("gracePeriodSeconds").asLong());
				}
			}
		}

		/** A delete by label: the grace period it asked for, for each pod it deletes. */
		private void rememberCollectionGrace(Access access, RecordedRequest request) {
			byte[] body = request.getBody().getBytes();
			if (body.length == 0) {
				return;
			}
			JsonNode options = Serialization.jsonMapper().readTree(new String(body, StandardCharsets.UTF_8));
			if (!options.has("gracePeriodSeconds")) {
				return;
			}
			long grace = options.get("gracePeriodSeconds").asLong();
			MockResponse list = SimulatedApiServer.this.crud.handleGet(request.getPath().replaceFirst("\\?", "?")
				.replace("propagationPolicy=Background&", ""));
			JsonNode pods = Serialization.jsonMapper().readTree(new String(list.getBody().getBytes(), StandardCharsets.UTF_8));
			for (JsonNode pod : pods.path("items")) {
				SimulatedApiServer.this.deleteGrace.put(access.namespace() + "/" + pod.path("metadata").path("name").asString(""),
						grace);
			}
		}

		/** An events list filtered by {@code involvedObject.*=...}, which the mock would match against nothing. */
		private MockResponse events(String path, String fieldSelector) {
			Map<String, String> wanted = new LinkedHashMap<>();
			for (String requirement : fieldSelector.split(",")) {
				int equals = requirement.indexOf('=');
				wanted.put(requirement.substring(0, equals).replace("==", ""), requirement.substring(equals + 1)
					.replaceFirst("^=", ""));
			}
			String unfiltered = URI.create(path).getRawPath();
			MockResponse list = SimulatedApiServer.this.crud.handleGet(unfiltered);
			ObjectNode body = (ObjectNode) Serialization.jsonMapper()
				.readTree(new String(list.getBody().getBytes(), StandardCharsets.UTF_8));
			ArrayNode kept = Serialization.jsonMapper().createArrayNode();
			for (JsonNode event : body.path("items")) {
				boolean matches = true;
				for (Map.Entry<String, String> field : wanted.entrySet()) {
					String key = field.getKey().substring("involvedObject.".length());
					matches &= field.getValue().equals(event.path("involvedObject").path(key).asString(""));
				}
				if (matches) {
					kept.add(event);
				}
			}
			body.set("items", kept);
			return new MockResponse().setResponseCode(200).setBody(Serialization.jsonMapper().writeValueAsString(body));
		}

		private MockResponse status(int code, String reason, String message) {
			Map<String, Object> status = new LinkedHashMap<>();
			status.put("kind", "Status");
			status.put("apiVersion", "v1");
			status.put("metadata", Map.of());
			status.put("status", "Failure");
			status.put("message", message);
			status.put("reason", reason);
			status.put("code", code);
			return new MockResponse().setResponseCode(code).setBody(Serialization.asJson(status));
		}

	}

	static Map<String, String> query(String path) {
		Map<String, String> query = new LinkedHashMap<>();
		String raw = URI.create(path).getRawQuery();
		if (raw != null) {
			for (String pair : raw.split("&")) {
				int equals = pair.indexOf('=');
				String key = URLDecoder.decode((equals < 0) ? pair : pair.substring(0, equals), StandardCharsets.UTF_8);
				String value = (equals < 0) ? "" : URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8);
				query.put(key, value);
			}
		}
		return query;
	}

	/**
	 * One request as RBAC sees it.
	 *
	 * @param verb get, list, watch, create, update, patch, delete, deletecollection
	 * @param group the API group ({@code ""} for the core group)
	 * @param resource the resource, with its subresource ({@code pods/log})
	 * @param namespace its namespace
	 * @param name the object's name, or {@code null} for a collection
	 * @param fieldSelector its field selector, or {@code null}
	 */
	record Access(String verb, String group, String resource, String namespace, String name, String fieldSelector) {

		/** The request's access, or {@code null} for one RBAC does not guard here (discovery). */
		static Access of(RecordedRequest request) {
			String path = URI.create(request.getPath()).getRawPath();
			String[] parts = path.replaceFirst("^/", "").split("/");
			int at;
			String group;
			if (parts.length >= 2 && parts[0].equals("api")) {
				group = "";
				at = 2;
			}
			else if (parts.length >= 3 && parts[0].equals("apis")) {
				group = parts[1];
				at = 3;
			}
			else {
				return null;
			}
			String namespace = null;
			if (parts.length > at + 1 && parts[at].equals("namespaces")) {
				namespace = parts[at + 1];
				at += 2;
			}
			if (parts.length <= at) {
				return null;
			}
			String resource = parts[at];
			String name = (parts.length > at + 1) ? parts[at + 1] : null;
			String subresource = (parts.length > at + 2) ? parts[at + 2] : null;
			Map<String, String> query = query(request.getPath());
			String verb = switch (request.getMethod()) {
				case "GET" -> (name != null) ? "get" : "true".equals(query.get("watch")) ? "watch" : "list";
				case "POST" -> "create";
				case "PUT" -> "update";
				case "PATCH" -> "patch";
				case "DELETE" -> (name != null) ? "delete" : "deletecollection";
				default -> request.getMethod().toLowerCase();
			};
			return new Access(verb, group, (subresource != null) ? resource + "/" + subresource : resource, namespace,
					name, query.get("fieldSelector"));
		}

	}

}
