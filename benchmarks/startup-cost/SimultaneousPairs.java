import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.*;
import java.util.concurrent.*;

/**
 * Simultaneous pinned pairs: java benchmarks/startup-cost/SimultaneousPairs.java ROUNDS base variant   (spec = name|jar|ENV=V,..|jvmopts)
 * Each round starts both at once, each pinned to its own core (taskset), cores swapped every round,
 * so that whatever the machine does to one it does to the other; ratio pair by pair.
 */
public class SimultaneousPairs {
	record V(String name, String jar, Map<String, String> env, List<String> jvm) {}
	record S(double wall, double cpu) {}
	static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(200)).build();

	public static void main(String[] a) throws Exception {
		int rounds = Integer.parseInt(a[0]);
		V base = parse(a[1]), var = parse(a[2]);
		ExecutorService pool = Executors.newFixedThreadPool(2);
		start(pool, base, var, 0); // warm-up
		List<double[]> rs = new ArrayList<>();
		for (int r = 0; r < rounds; r++) {
			S[] s = start(pool, base, var, r % 2);
			double dw = (s[1].wall / s[0].wall - 1) * 100, dc = (s[1].cpu / s[0].cpu - 1) * 100;
			rs.add(new double[] { dw, dc, s[0].wall, s[1].wall, s[0].cpu, s[1].cpu });
			System.err.printf("round %d: %s %.0f/%.0f %s %.0f/%.0f  wall %+.2f%% cpu %+.2f%%  load %s%n", r + 1, base.name, s[0].wall, s[0].cpu,
					var.name, s[1].wall, s[1].cpu, dw, dc, Files.readString(Path.of("/proc/loadavg")).trim());
		}
		pool.shutdown();
		double[] w = rs.stream().mapToDouble(x -> x[0]).toArray(), c = rs.stream().mapToDouble(x -> x[1]).toArray();
		System.out.printf("%s vs %s, %d simultaneous pinned pairs: wall %+.2f%% (sd %.2f, range %+.1f..%+.1f), cpu %+.2f%% (sd %.2f, range %+.1f..%+.1f); base wall median %.0f ms%n",
				var.name, base.name, rounds, med(w), sd(w), min(w), max(w), med(c), sd(c), min(c), max(c), med(rs.stream().mapToDouble(x -> x[2]).toArray()));
	}

	static V parse(String spec) {
		String[] p = (spec + "||||").split("\\|", -1);
		Map<String, String> env = new LinkedHashMap<>();
		if (!p[2].isBlank()) for (String kv : p[2].split(",")) { String[] x = kv.split("=", 2); env.put(x[0], x[1]); }
		return new V(p[0], p[1], env, p[3].isBlank() ? List.of() : List.of(p[3].split(" ")));
	}

	static double med(double[] d) { double[] c = d.clone(); Arrays.sort(c); int n = c.length; return n % 2 == 1 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2; }
	static double sd(double[] d) { double m = Arrays.stream(d).average().orElse(0); return Math.sqrt(Arrays.stream(d).map(x -> (x - m) * (x - m)).sum() / Math.max(1, d.length - 1)); }
	static double min(double[] d) { return Arrays.stream(d).min().orElse(0); }
	static double max(double[] d) { return Arrays.stream(d).max().orElse(0); }

	static S[] start(ExecutorService pool, V base, V var, int baseCore) throws Exception {
		CountDownLatch go = new CountDownLatch(1);
		Future<S> fb = pool.submit(() -> { go.await(); return run(base, baseCore); });
		Future<S> fv = pool.submit(() -> { go.await(); return run(var, 1 - baseCore); });
		go.countDown();
		return new S[] { fb.get(), fv.get() };
	}

	static S run(V v, int core) throws Exception {
		int port;
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) { port = socket.getLocalPort(); }
		List<String> cmd = new ArrayList<>(List.of("taskset", "-c", Integer.toString(core), Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:TieredStopAtLevel=1"));
		cmd.addAll(v.jvm);
		cmd.addAll(List.of("-jar", v.jar, "--server.port=" + port));
		ProcessBuilder b = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
		b.environment().keySet().removeIf(k -> k.startsWith("TELEMETRY_") || k.startsWith("OTEL_") || k.startsWith("MANAGEMENT_") || k.startsWith("NEMO_GYM_"));
		b.environment().putAll(v.env);
		URI u = URI.create("http://127.0.0.1:" + port + "/hello");
		long t0 = System.nanoTime();
		Process p = b.start();
		try {
			while (true) {
				try {
					if (http.send(HttpRequest.newBuilder(u).timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200) break;
				} catch (IOException e) { }
				if (!p.isAlive()) throw new IllegalStateException(v.name + " exited");
				p.waitFor(5, TimeUnit.MILLISECONDS);
			}
			double wall = (System.nanoTime() - t0) / 1e6;
			String[] f = Files.readString(Path.of("/proc/" + p.pid() + "/stat")).replaceFirst(".*\\) ", "").split(" ");
			return new S(wall, (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10.0);
		} finally {
			p.destroyForcibly();
			p.waitFor(30, TimeUnit.SECONDS);
		}
	}
}
