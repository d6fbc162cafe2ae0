package io.github.startuptelemetry;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which module and which package may depend on which: the one place the starter's dependency
 * map is written. {@link ArchitectureTest} holds the main code to it, {@link PackageMapTest}
 * checks it is a DAG in module order and renders it as {@code docs/architecture.md}'s Modules
 * and Packages tables; {@link #STARTUP_TELEMETRY} is the starter's own.
 */
final class PackageMap {

	/** Beyond the JDK, what a {@code JDK only} package may still use: nullness annotations. */
	static final List<String> JDK = List.of("java.", "javax.", "jdk.", "com.sun.", "sun.", "org.jspecify.");

	private static final String AUTOCONFIGURE = "startup-telemetry-autoconfigure";

	private static final String FLEET = "startup-telemetry-fleet";

	private static final String KUBERNETES = "startup-telemetry-kubernetes";

	private static final String GRPC = "startup-telemetry-grpc";

	private static final String TEST = "startup-telemetry-test";

	/** The starter's modules and packages, as docs/architecture.md shows them. */
	static final PackageMap STARTUP_TELEMETRY = new Builder("io.github.startuptelemetry")
		.module(AUTOCONFIGURE, "through `startup-telemetry-starter`", "every server, and every supervisor",
				"what a server runs: the contract, its timeline, its listeners and export, the process lifecycle, the "
						+ "readiness warm-up; the low-level `SupervisorStartup` API and the report model it returns")
		.beyond("Spring Boot; the OpenTelemetry SDK and Micrometer where present")
		.module(FLEET, null, "a supervisor with a declared fleet (the sample supervisor)",
				"the fleet launcher, the launcher SPI with the `local` and `slurm` launchers, probes and the "
						+ "readiness-callback server, the console and HTML reports, the regression gate and `Compare`, "
						+ "the JVM caches")
		.uses(AUTOCONFIGURE)
		.module(KUBERNETES, null,
				"a server in a pod (its pod stages), a supervisor that starts pods (the `kubernetes` launcher)",
				"every Kubernetes class, both sides")
		.uses(AUTOCONFIGURE)
		.use(FLEET, "optional: the launcher backs off without it")
		.beyond("the fabric8 client")
		.module(GRPC, "no code: its dependencies", "a server that exports OTLP over gRPC (a NeMo Gym fleet's default)",
				"the OkHttp sender of the OpenTelemetry SDK's OTLP exporter (docs/exporting.md)")
		.uses(AUTOCONFIGURE)
		.beyond("opentelemetry-exporter-sender-okhttp (OkHttp, Okio, the Kotlin standard library)")
		.module(TEST, "test scope", "a Boot application's test suite, beside the starter (docs/tests.md)",
				"every context Spring's TestContext framework creates, timed and explained, and the run's report: "
						+ "console, HTML, JSON for the regression gate, one trace per test JVM")
		.uses(AUTOCONFIGURE, FLEET)
		.beyond("spring-test, the JUnit Platform launcher (optional: a test class path has them)")
		.inModule(AUTOCONFIGURE)
		.add("contract", "every name that crosses a process boundary, for all three modules (below): constants, "
				+ "inlined where used")
		.jdkOnly()
		.add("internal", "what every feature shares: `JsonText` (the one JSON writer and bounded parser), `Http11` "
				+ "(the one HTTP/1.1 framing of our hand-written clients), `DaemonThreads`, `Guarded` (telemetry never "
				+ "fails the application), `Decimals`, `Durations`, `HostName`, `PerfData` (a HotSpot JVM's hsperfdata "
				+ "file), `BootLine` (which Spring Boot line runs, and its class and property names: decided from the class "
				+ "path, no Boot class loaded), `BoundedText` (messages, log tails and lists of servers kept within a bound)")
		.beyond("JDK", "Commons Logging")
		.add("timeline", "the values of one reported startup: `Stage`, `StepTiming` (a slow bean or step), "
				+ "`ServerTimeline`, `JvmInfo`, `JvmCounters`, `TimelineJson` (that record as JSON, both ways)")
		.uses("contract", "internal")
		.jdkOnly()
		.add("timeline.internal", "how a timeline is measured: `StageTimeline` (contiguous marks), `JvmCounterReader`, "
				+ "`ThreadCpuClock`, `SpawnHandOff` (the env contract as a spawned process reads it), `ClockOffset` "
				+ "(Cristian's method), `ReadyCallback` (the ready post's body), `TraceParent`, `WallClock`, "
				+ "`ProcessTimeline` (the handle a supervisor claims), `PlatformPrelude` and `PlatformStages` (a "
				+ "platform's stages ahead of the process's)")
		.uses("timeline", "contract", "internal")
		.jdkOnly()
		.add("autoconfigure", "what every module's configuration shares: `TelemetryProperties`, "
				+ "`@ConditionalOnTelemetryEnabled`")
		.beyond("Spring Boot")
		.add("autoconfigure.internal", "`TelemetrySwitch` and `EarlyTelemetryProperties` (the switch before a context "
				+ "exists), `TelemetryAutoConfigurationFilter` (drops by name what cannot apply), "
				+ "`@ConditionalOnBootOpenTelemetry[Tracing]` (Boot's OpenTelemetry, by its line's name)")
		.uses("autoconfigure", "contract", "internal")
		.beyond("Spring Boot")
		.add("lifecycle", "process-wide (NeMo RL's `setup`, for the JVM): `TelemetryEnvironmentDefaults` (what the "
				+ "one post-processor every process runs does: `TelemetryEnvironmentPostProcessor` on Boot 4, "
				+ "`Boot3TelemetryEnvironmentPostProcessor` on Boot 3), `NemoDefaults`, the OTLP defaults for Boot's exporters, "
				+ "`TelemetryHandle`, `WorkerEnv`, the bounded shutdown, Boot's OTLP metrics typed as Gym's, the "
				+ "optional Zipkin exporter")
		.uses("autoconfigure", "autoconfigure.internal", "contract", "export.internal", "internal", "lifecycle.internal",
				"timeline.internal", "tracing.internal")
		.beyond("Spring Boot", "OTel SDK", "Micrometer")
		.add("lifecycle.internal", "what a supervisor hands its servers and both sides read: `ChildTelemetrySettings`, "
				+ "`ServerEnvBuilder` (\"a variable already in the supervisor's env wins\"), `BootOtlpProperties` "
				+ "(Boot's OTLP property names, the `OTEL_*` ↔ property rules), `OtelListValues` (`OTEL_*` list values "
				+ "and header pairs), `ProcessResourceAttributes`, `HttpUrl`, `GymServerType`, `RunId`")
		.uses("autoconfigure", "autoconfigure.internal", "contract", "internal")
		.beyond("Spring Boot")
		.add("tracing.internal", "`StartupSpans` (typed attribute keys, stages → spans with explicit timestamps), the "
				+ "sampler that keeps startup spans, `TypedResource` (lens's int rule), `SdkFlush`")
		.uses("contract", "internal", "timeline", "timeline.internal")
		.beyond("OTel API and SDK")
		.add("export.internal", "where a process's startup telemetry goes, off its startup's path: `ExportSettings`, "
				+ "`StartupExport` (the export thread; the application's OpenTelemetry, else `OwnSdk` built only when "
				+ "something is configured, its requests bounded by `BoundedRequests`), `StartupHistograms`, `ExportLog` (one "
				+ "WARN per signal), `QuietExporters`, "
				+ "`ZipkinExporter`, `StartupExportConfiguration`")
		.uses("autoconfigure", "contract", "internal", "lifecycle.internal", "tracing.internal")
		.beyond("Spring Boot", "OTel API and SDK", "Micrometer")
		.add("report", "the report model: `StartupReport`, `ServerReport`, `StartupReportBuilder` (the one place one is "
				+ "built), `CriticalChain` and `DependencyWait` (derived from the model alone), `JvmCacheReport` and "
				+ "`JvmCacheComparison` (values) with `JvmCacheRounds` (compare's rounds paired), `JsonReport` (the model as the versioned JSON document), `Compare` "
				+ "(the gate's old name, deprecated)")
		.uses("contract", "internal", "timeline")
		.jdkOnly()
		.add("report.internal", "`ReportFile`: a rendering written to its file, never failing the caller")
		.uses("report")
		.beyond("JDK", "Commons Logging")
		.add("server", "a server's own telemetry: the `spring.factories` gates (`ServerStartupListener`, "
				+ "`ReadyReportRunListener`), the recorder, `StartupClassPreload`, slow beans, the reporter (on the export "
				+ "thread after ready), `ServerSpans`, `FailedStartup`, the endpoint, the stage histogram, "
				+ "`SupervisorCallback` (the server's side of the ready callback), `StartupTelemetryAutoConfiguration`")
		.uses("autoconfigure", "autoconfigure.internal", "contract", "export.internal", "internal")
		.use("lifecycle", "its auto-configuration's order")
		.uses("lifecycle.internal", "report", "report.internal", "timeline", "timeline.internal", "tracing.internal")
		.beyond("Spring Boot", "OTel API", "Micrometer")
		.add("readiness", "the server warms up the path its supervisor will probe before it says ready")
		.uses("autoconfigure", "internal")
		.beyond("Spring Boot")
		.add("supervisor", "`SupervisorStartup` (the low-level API; `SupervisorAutoConfiguration` always provides it, "
				+ "`SupervisorTracingAutoConfiguration` makes it record: `OpenTelemetrySupervisorStartup`), "
				+ "`SupervisorRole` (claims the process timeline where a bean declares a `SupervisorStartup`), "
				+ "`SupervisorStartupMetrics`, `DisabledSupervisorStartup` (every method returns at once), the extension "
				+ "point `ChildTelemetryEnvironment`")
		.uses("autoconfigure", "autoconfigure.internal", "contract", "export.internal", "internal")
		.use("lifecycle", "its auto-configuration's order")
		.uses("lifecycle.internal", "report", "timeline", "timeline.internal", "tracing.internal")
		.beyond("Spring Boot", "OTel API", "Micrometer")
		.inModule(FLEET)
		.add("launch", "the launcher SPI: `ServerLauncher`, `LaunchRequest`, `LaunchedServer` (with the platform's "
				+ "`stages()` before the server's), `@ConditionalOnFleet`")
		.uses("autoconfigure.internal", "launch.internal", "timeline")
		.beyond("Spring")
		.add("launch.internal", "`LaunchShell` (the fixed script every launcher runs, with its orphan guard), "
				+ "`FreePorts` (a fleet's `{port}`s, from below the kernel's ephemeral range)")
		.jdkOnly()
		.add("launch.local", "the `local` launcher: `LocalServerLauncher`, `ServerProcess`")
		.uses("launch", "launch.internal")
		.beyond("Spring Boot")
		.add("launch.slurm", "the `slurm` launcher: `SlurmServerLauncher` (the `srun` line), `SlurmStep` (one job step), "
				+ "`SlurmProperties`")
		.uses("contract", "internal", "launch")
		.beyond("Spring Boot")
		.add("report.gate", "the regression gate: `ReportComparison` (the entry point: a report against baseline "
				+ "reports) with its algorithm `RegressionJudge`, its results `Change`, `Speed`, `Settings` and its "
				+ "wording `ComparisonText`; `RegressionThreshold`, `Contention`, `BaselineModel`, `Robust`, "
				+ "`ReportTimes` (its input, read from JSON reports), `ComparisonJson`, and the standalone `Compare`")
		.uses("contract", "internal", "report")
		.jdkOnly()
		.add("report.render", "the report for people: `ConsoleReport`, `HtmlReport` (with `WaterfallGeometry`, "
				+ "`TimeAxis`, `StageColors`, `HtmlWording`), their shared `ReportWording`, the JVM caches' text and HTML, "
				+ "`ReportStyle` (their look for other pages: the test report's)")
		.uses("contract", "internal", "report", "report.gate", "timeline")
		.jdkOnly()
		.add("jvmcache.internal", "the JVM startup caches of a supervisor's Java servers (docs/jvm-cache.md): "
				+ "`JvmCaches` (prepare and train, apply at a spawn, observe once ready), `JavaCommand`, `Jdk`, "
				+ "`CacheKey`, `ContentHashes`, `CacheDirectory`, `CacheEntry`, `TrainingProcess`, `JvmCacheLog`, "
				+ "`PerfCounters`")
		.uses("internal", "launch.internal", "report")
		.beyond("JDK", "Commons Logging")
		.add("fleet", "the fleet launcher: `FleetLauncherAutoConfiguration` (on a declared fleet only), "
				+ "`SupervisorProperties` and its validator, `FleetPlan`/`ServerPlan`, `FleetRun` (callback or probe, "
				+ "whichever first), `DependencyScheduler`, `FleetProcesses`, `Launchers`, `FleetProbing` with its "
				+ "`ProbeLoop`, `ProbeClient`, `HealthProbe`, `TimelineClient`, `ReadinessCallbackServer` (the "
				+ "token-guarded `/clock` and `/ready`), `FleetReport`, `FleetJvmCache`, `FleetLog` (the fleet's log category)")
		.uses("autoconfigure", "contract", "internal", "jvmcache.internal", "launch", "launch.internal",
				"lifecycle.internal", "report", "report.gate", "report.internal", "report.render", "supervisor",
				"timeline", "timeline.internal")
		.beyond("Spring Boot", "the JDK's HTTP server")
		.inModule(KUBERNETES)
		.add("kubernetes.internal", "what both halves share: `InCluster` (in a pod?), `PodTimes` (a pod's times from its "
				+ "status and events, each boundary with its source and clock), `PodWaits` (what a pod waits on that the "
				+ "scheduler and the kubelet retry), `PulledMessage`, `KubernetesClients` (fabric8 over the JDK's HTTP client)")
		.uses("contract", "timeline", "timeline.internal")
		.beyond("fabric8")
		.add("server.kubernetes", "a server's pod stages: `PodStagesAutoConfiguration`, `OwnPodStages` (reads its own pod "
				+ "once ready), `ContainerStart` (its container's first process, from /proc), `PodStagesProperties`")
		.uses("autoconfigure", "contract", "kubernetes.internal", "lifecycle.internal", "timeline", "timeline.internal")
		.beyond("Spring Boot", "fabric8")
		.add("launch.kubernetes", "the `kubernetes` launcher: `KubernetesServerLauncher` with its "
				+ "`KubernetesLauncherSettings`, `SupervisorPods` (with its `ApiRequests` limit, `PodEvents` watch and "
				+ "`SupervisorLease`), `PodFactory`, `ServerPod`, `PodFailure`, `EarlierPods` (the clean-up of processes that are "
				+ "gone), `KubernetesProperties`/`PodSettings` and their validator, `KubernetesLauncherLog`")
		.uses("autoconfigure", "contract", "internal", "kubernetes.internal", "launch", "launch.internal",
				"lifecycle.internal", "timeline")
		.beyond("Spring Boot", "fabric8")
		.inModule(TEST)
		.add("testcontexts.internal", "a test run's report: `TestReport`, `TestJvm`, `TestContextReport`, `Why`, "
				+ "`Difference` (values), `TestReportJson` (the document, both ways), `TestReportConsole`, "
				+ "`TestReportHtml`, `TestReportFiles` (a JVM's part, the run's merge under a file lock), "
				+ "`ReportDirectory` (target/, build/), `TestRunTrace`")
		.uses("contract", "export.internal", "internal", "report.render", "timeline", "tracing.internal")
		.beyond("Spring Core", "OTel API")
		.add("testcontexts", "Spring's TestContext hooks (`spring.factories`: `TestContextsCustomizerFactory` with "
				+ "its class-equal `TestContextTiming`, `TestContextsListener`, `TestContextsFailureProcessor`; the "
				+ "launcher's `TestContextsSessionListener`), `TestRun` (the JVM's contexts), `ContextRecord`, "
				+ "`ContextEvents`, `ContextFacts` and `ValueText` (a context's key as facts and a name), `WhyNew`, "
				+ "`CloseCause`")
		.uses("contract", "internal", "testcontexts.internal", "timeline", "timeline.internal")
		.beyond("spring-test", "Spring Boot", "the JUnit Platform launcher")
		.build();

	private final String root;

	private final List<Module> modules;

	private final Map<String, Package> packages;

	private final List<ClassCycle> allowedClassCycles;

	private PackageMap(String root, List<Module> modules, Map<String, Package> packages,
			List<ClassCycle> allowedClassCycles) {
		this.root = root;
		this.modules = List.copyOf(modules);
		this.packages = Collections.unmodifiableMap(new LinkedHashMap<>(packages));
		this.allowedClassCycles = List.copyOf(allowedClassCycles);
	}

	/** The root package every package name here is relative to. */
	String root() {
		return this.root;
	}

	/** The modules, each after the ones it may depend on. */
	List<Module> modules() {
		return this.modules;
	}

	/** The packages, relative to the root, in the order the map declares them. */
	List<Package> packages() {
		return List.copyOf(this.packages.values());
	}

	/** The package of that name (relative to the root), or {@code null}. */
	Package get(String name) {
		return this.packages.get(name);
	}

	/** The class cycles the rule lets pass for now, each with its reason. */
	List<ClassCycle> allowedClassCycles() {
		return this.allowedClassCycles;
	}

	/**
	 * What is wrong with the map itself: a name it does not declare, a module depending on one
	 * declared after it, a package allowed one of a module its own does not depend on ("sits above
	 * it"), a cycle between packages, a class cycle allowed twice or of one class.
	 */
	List<String> problems() {
		List<String> problems = new ArrayList<>();
		Map<String, Set<String>> reachableModules = new LinkedHashMap<>();
		for (Module module : this.modules) {
			Set<String> reachable = new LinkedHashSet<>(List.of(module.name()));
			for (Use use : module.dependsOn()) {
				if (!reachableModules.containsKey(use.name())) {
					problems.add("module " + module.name() + " depends on " + use.name()
							+ ", which is not a module declared before it");
				}
				else {
					reachable.addAll(reachableModules.get(use.name()));
				}
			}
			reachableModules.put(module.name(), reachable);
		}
		for (Package from : packages()) {
			for (Use use : from.uses()) {
				Package to = this.packages.get(use.name());
				if (to == null) {
					problems.add(from.name() + " uses " + use.name() + ", which is not in the map");
				}
				else if (to == from) {
					problems.add(from.name() + " names itself");
				}
				else if (!reachableModules.getOrDefault(from.module().name(), Set.of()).contains(to.module().name())) {
					problems.add(from.name() + " (" + from.module().name() + ") may not use " + to.name() + " ("
							+ to.module().name() + "): it sits above it");
				}
			}
		}
		problems.addAll(packageCycles());
		Set<String> seen = new TreeSet<>();
		for (ClassCycle cycle : this.allowedClassCycles) {
			if (cycle.classes().size() < 2) {
				problems.add("an allowed class cycle of fewer than two classes: " + cycle.classes());
			}
			for (String name : cycle.classes()) {
				if (!seen.add(name)) {
					problems.add(name + " is in two allowed class cycles (a class is in one cycle at most)");
				}
			}
		}
		return problems;
	}

	/** Each cycle of the packages' "uses", as the path that closes it. */
	private List<String> packageCycles() {
		List<String> cycles = new ArrayList<>();
		Map<String, Integer> state = new LinkedHashMap<>(); // absent: unvisited, 1: on the path, 2: done
		for (String start : this.packages.keySet()) {
			findCycles(start, state, new ArrayDeque<>(), cycles);
		}
		return cycles;
	}

	private void findCycles(String name, Map<String, Integer> state, Deque<String> path, List<String> cycles) {
		Integer seen = state.get(name);
		if (seen != null) {
			if (seen == 1) {
				List<String> onPath = new ArrayList<>(path);
				List<String> cycle = new ArrayList<>(onPath.subList(onPath.indexOf(name), onPath.size()));
				cycle.add(name);
				cycles.add("a cycle between packages: " + String.join(" -> ", cycle));
			}
			return;
		}
		Package pkg = this.packages.get(name);
		if (pkg == null) {
			return;
		}
		state.put(name, 1);
		path.addLast(name);
		for (Use use : pkg.uses()) {
			findCycles(use.name(), state, path, cycles);
		}
		path.removeLast();
		state.put(name, 2);
	}

	/** The Modules table of docs/architecture.md. */
	String modulesTable() {
		StringBuilder table = new StringBuilder("| module | who adds it | what it holds | depends on |\n|---|---|---|---|\n");
		for (Module module : this.modules) {
			String name = "`" + module.name() + "`" + ((module.note() != null) ? " (" + module.note() + ")" : "");
			table.append(row(name, module.addedBy(), module.what(), dependsOn(module.dependsOn(), module.beyond())));
		}
		return table.toString();
	}

	/** The Packages table of docs/architecture.md. */
	String packagesTable() {
		StringBuilder table = new StringBuilder("| package | module | what | depends on |\n|---|---|---|---|\n");
		for (Package pkg : packages()) {
			table.append(row("`" + pkg.name() + "`", pkg.module().shortName(), pkg.what(),
					dependsOn(pkg.uses(), pkg.jdkOnly() ? "JDK only" : pkg.beyond())));
		}
		return table.toString();
	}

	private static String dependsOn(List<Use> uses, String beyond) {
		String ours = String.join(", ", uses.stream().map(Use::render).toList());
		if (beyond == null || beyond.isEmpty()) {
			return ours;
		}
		return ours.isEmpty() ? beyond : ours + "; " + beyond;
	}

	private static String row(String... cells) {
		return "| " + String.join(" | ", List.of(cells).stream().map((cell) -> cell.replace("|", "\\|")).toList()) + " |\n";
	}

	/**
	 * A module of the build.
	 *
	 * @param name its artifact id
	 * @param note how it is added, beside its name ({@code null}: nothing)
	 * @param addedBy who adds it
	 * @param what what it holds
	 * @param dependsOn the modules of ours it may depend on, each declared before it
	 * @param beyond what else it depends on, in words for the reader ({@code null}: nothing)
	 */
	record Module(String name, String note, String addedBy, String what, List<Use> dependsOn, String beyond) {

		/** {@code startup-telemetry-fleet} → {@code fleet}. */
		String shortName() {
			return this.name.substring(this.name.lastIndexOf('-') + 1);
		}

	}

	/**
	 * A package of ours.
	 *
	 * @param name its name relative to the root
	 * @param module the module it lives in
	 * @param what what it holds
	 * @param uses the packages of ours it may depend on
	 * @param jdkOnly whether it may use nothing beyond the JDK (and JSpecify's annotations)
	 * @param beyond otherwise what else it uses, in words for the reader (not checked)
	 */
	record Package(String name, Module module, String what, List<Use> uses, boolean jdkOnly, String beyond) {

		/** Whether this package may depend on that one (relative to the root); itself always. */
		boolean allows(String relativePackage) {
			return this.name.equals(relativePackage)
					|| this.uses.stream().anyMatch((use) -> use.name().equals(relativePackage));
		}

	}

	/**
	 * A dependency the map allows.
	 *
	 * @param name the module or package depended on
	 * @param why why, for the reader ({@code null}: nothing to say)
	 */
	record Use(String name, String why) {

		String render() {
			return "`" + this.name + "`" + ((this.why != null) ? " (" + this.why + ")" : "");
		}

	}

	/**
	 * A cycle between classes the rule lets pass for now: exactly these classes, no more, no fewer.
	 *
	 * @param classes the top-level classes, relative to the root ({@code fleet.FleetRun})
	 * @param reason why it may stay for now
	 */
	record ClassCycle(Set<String> classes, String reason) {

		ClassCycle {
			classes = Collections.unmodifiableSortedSet(new TreeSet<>(classes));
		}

	}

	/** Declares a map: modules first, then each module's packages, then the class cycles allowed for now. */
	static final class Builder {

		private final String root;

		private final List<Module> modules = new ArrayList<>();

		private final Map<String, Package> packages = new LinkedHashMap<>();

		private final List<ClassCycle> cycles = new ArrayList<>();

		private Module module;

		private Package pkg;

		Builder(String root) {
			this.root = root;
		}

		Builder module(String name, String note, String addedBy, String what) {
			this.module = new Module(name, note, addedBy, what, List.of(), null);
			this.modules.add(this.module);
			this.pkg = null;
			return this;
		}

		/** Puts the packages added next in the module of that name. */
		Builder inModule(String name) {
			this.module = this.modules.stream()
				.filter((declared) -> declared.name().equals(name))
				.findFirst()
				.orElseThrow(() -> new IllegalArgumentException("No module " + name));
			this.pkg = null;
			return this;
		}

		Builder add(String name, String what) {
			if (this.packages.containsKey(name)) {
				throw new IllegalArgumentException("Package " + name + " declared twice");
			}
			this.pkg = new Package(name, this.module, what, List.of(), false, null);
			this.packages.put(name, this.pkg);
			return this;
		}

		/** The last package (or, before any, the last module) may depend on these. */
		Builder uses(String... names) {
			for (String name : names) {
				use(name, null);
			}
			return this;
		}

		/** The last package (or module) may depend on that one, for the reason given. */
		Builder use(String name, String why) {
			if (this.pkg != null) {
				replace(new Package(this.pkg.name(), this.pkg.module(), this.pkg.what(),
						append(this.pkg.uses(), new Use(name, why)), this.pkg.jdkOnly(), this.pkg.beyond()));
			}
			else {
				replace(new Module(this.module.name(), this.module.note(), this.module.addedBy(), this.module.what(),
						append(this.module.dependsOn(), new Use(name, why)), this.module.beyond()));
			}
			return this;
		}

		/** The last package may use nothing beyond the JDK, JSpecify and the packages it names. */
		Builder jdkOnly() {
			replace(new Package(this.pkg.name(), this.pkg.module(), this.pkg.what(), this.pkg.uses(), true, null));
			return this;
		}

		/** What else the last package (or module) uses, in words for the reader. */
		Builder beyond(String... words) {
			String text = String.join(", ", words);
			if (this.pkg != null) {
				replace(new Package(this.pkg.name(), this.pkg.module(), this.pkg.what(), this.pkg.uses(), false, text));
			}
			else {
				replace(new Module(this.module.name(), this.module.note(), this.module.addedBy(), this.module.what(),
						this.module.dependsOn(), text));
			}
			return this;
		}

		/** A cycle between these classes (relative to the root) passes for now, for that reason. */
		Builder allowClassCycle(String reason, String... classes) {
			this.cycles.add(new ClassCycle(Set.of(classes), reason));
			return this;
		}

		PackageMap build() {
			return new PackageMap(this.root, this.modules, this.packages, this.cycles);
		}

		private void replace(Package changed) {
			this.packages.put(changed.name(), changed);
			this.pkg = changed;
		}

		private void replace(Module changed) {
			this.modules.set(this.modules.indexOf(this.module), changed);
			this.module = changed;
		}

		private static <T> List<T> append(List<T> list, T element) {
			List<T> appended = new ArrayList<>(list);
			appended.add(element);
			return List.copyOf(appended);
		}

	}

}
