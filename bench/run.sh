#!/usr/bin/env bash
# Benchmarks: paired, interleaved runs; medians and ratios; results in bench/results/*.md.
# Every benchmark lives under benchmarks/ (this script is their one entry point):
#   benchmarks/startup-app     the app the startup and shutdown benchmarks start, with and without the starter
#   benchmarks/startup-cost    StartupCostBench.java, a single-file program (java benchmarks/startup-cost/...)
#   benchmarks/jmh             JMH of the hot paths
#   benchmarks/process         *Benchmark classes over real processes (readiness, fleet, shutdown), on the
#                              process tests' support classes; the normal build compiles them and runs none
#   benchmarks/fleet           stub_server.py, the stand-in server of the fleet benchmark
# Run on a quiet machine (nothing else building or testing): the box has 2 cores. Every result
# records the load average before and after, and says so at its top when it was above 2.
#   bench/run.sh startup [PAIRS]    what the starter costs at startup (issue 22, the price of admission), 12 pairs: a plain
#                                   Boot web app (benchmarks/plain-app) vs + starter on, + starter off; a Boot app with
#                                   actuator and OpenTelemetry (benchmarks/startup-app) vs + starter; each to its first 200
#                                   from /hello. VARIANTS=k1,k2 runs only those keys beside their baselines (plainOn,
#                                   plainOnNoPreload (on without the class preload, also paired with plainOn), plainGrpc (with the
#                                   gRPC add-on, plain-app-grpc.jar, also paired with plainOn), plainGrpcUpstream (the upstream gRPC
#                                   sender on grpc-netty-shaded instead, plain-app-grpc-upstream.jar, the same), plainOff, bootOn,
#                                   plain35On and plain41On (the plain app on Boot 3.5 and 4.1, compat/boot-<line>/plain-app,
#                                   each against the same app on its line without the starter), and issue 14's older rows: silenced, on, onNoCounters, off, offFirst,
#                                   floor), into its own file (bench/results/startup-cost-<keys>.md; RUN=x makes it
#                                   startup-cost-<keys>-x.md, so that runs to pool keep their files); `all` ignores
#                                   VARIANTS. Each median has its 95% interval; a target is met or missed only when the
#                                   whole interval says so, else unresolved, with the pairs that would resolve it
#   bench/run.sh startup-pool FILE... the pairs of those startup-cost results pooled (runs of the same jars only), their
#                                   medians and intervals taken again: bench/results/startup-cost-pooled.md
#   bench/run.sh attribution [STARTS] the starter's own time on the main thread, measured inside the process with
#                                   Flight Recorder (its Java code sampled, its class loading), plain app vs + starter on
#                                   (with and without the class preload) and off, Boot app vs + starter on, 10 starts each (about 3 min): what the paired
#                                   times above cannot resolve
#   bench/run.sh export [STARTS]    ready → the server's spans at a real OTLP receiver, median and p99 (20 starts of each app)
#   bench/run.sh jmh                hot paths (mark, env parsing, emitting spans)
#   bench/run.sh readiness [STARTS] readiness-detection lag, callbacks vs polling, over real sample-server starts (30 starts;
#                                   FLEET=N: N servers start at once, default the sample fleet of 3)
#   bench/run.sh fleet [RUNS]       the supervisor spawning 100 benchmarks/fleet/stub_server.py at once (5 runs)
#   bench/run.sh shutdown [RUNS]    exit after SIGTERM against a dead collector, starter vs plain Boot (5 runs)
#   bench/run.sh scale [RUNS]       the supervisor at NeMo scale (issue 34): local fleets of 10, 100 and 1,000 (`sleep`s
#                                   ready from one shared health endpoint; call_back.py servers posting the ready
#                                   callback), 10,000 simulated servers through the launcher SPI, and the failure path
#                                   at 600 and 10,000 pending; CPU per server, heap, stop time, OTLP bytes and spans at a
#                                   receiver with a Collector's 20 MiB limit, longest log line (1 run, about 20 min at load 9-28;
#                                   SCALE=local-health-100,sim-timeout-600 runs only those, into scale-<keys>.md;
#                                   not in `all`: the 1,000 and 10,000 runs load the box for minutes)
#   bench/run.sh spawn-floor [ROUNDS] what the JDK alone costs a process spawning and stopping 1,000 processes (issue 34:
#                                   the floor under the supervisor's CPU per server), plain, through a launch shell, with
#                                   the exit future; 3 interleaved rounds (about 3 min; not in `all`)
#   bench/run.sh trace-volume [STARTS] what one server adds to a fleet's startup trace (issue 34): the spans of its
#                                   trace and the OTLP bytes that carried them, the sample server and the Boot app with
#                                   OpenTelemetry, bean spans over 20 ms (the default), over 100 ms and off, 3 starts each
#                                   (about 3 min; not in `all`)
#   bench/run.sh jvm-cache [ROUNDS] the JVM startup caches (telemetry.supervisor.jvm-cache): the sample fleet in compare
#                                   mode on JDK 25 (AOT cache; JDK25_HOME or /usr/lib/jvm/*-25*) and on this JDK (17: AppCDS),
#                                   10 rounds each; one server trained by hand (docs/jvm-cache.md) as the executable jar,
#                                   extracted, and extracted with its cache; the class-load log's cost. Writes
#                                   bench/results/jvm-cache.md and the measured section of docs/jvm-cache.md; about 15 min
#                                   on 2 cores at 10 rounds (not part of `all`: it has its own budget)
#   bench/run.sh gate [N]           the regression gate's quality under a bounded CPU burner (2 spinning threads,
#                                   load near 4 with the fleet's own): 3 baseline runs of the sample fleet, then N
#                                   rounds of unchanged / modelLoader +500 ms / +1 s, gated by the supervisor (new)
#                                   and by the old gate replayed over the same reports; detection and false-alarm
#                                   rates, the units named (15 rounds: 48 fleet runs; one round of 3 runs took
#                                   2.2 min at load 12 on the shared box, 40-46 s a run: at most about 30 min, less on a
#                                   quiet box; not in `all`, which would pass 30 minutes with it)
#   bench/run.sh tests [PAIRS]      what startup-telemetry-test costs a test context's start (issue 37, target <= 1%): the
#                                   test-contexts demo's 2 contexts per JVM, with and without it on the test class path,
#                                   paired and interleaved, and a third JVM per pair with Flight Recorder for the module's
#                                   own time per context start and at the run's end (10 pairs, about 40 s a pair at load
#                                   20 on 2 cores); its own bench/results/test-contexts-cost.md (not in `all`)
#   bench/run.sh all                all of the above but jvm-cache and gate, with counts that fit 30 minutes on 2 cores
#                                   (startup 12 pairs, readiness 18 starts, fleet 5, shutdown 3): about 20 min,
#                                   estimated from the parts run alone on 2026-12-01, some under load (build 1,
#                                   startup 3 with 5 variants, about 3.6 with the sixth, about 4.3 with the floor
#                                   (7.2 min at 20 pairs, under load), jmh 1, readiness 4.5, fleet 3, shutdown 4.5 min, each with its
#                                   own Maven build); every part prints what it took
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-all}"
runs="${2:-}"
mkdir -p bench/results
began=$SECONDS

# counts for `all`: measured on the 2-core box, the whole run stays under 30 minutes
if [[ "$what" == all ]]; then
  startup_runs=12 readiness_runs=18 fleet_runs=5 shutdown_runs=3 export_runs=10
else
  startup_runs="${runs:-12}" readiness_runs="${runs:-30}" fleet_runs="${runs:-5}" shutdown_runs="${runs:-5}" export_runs="${runs:-20}"
  jvm_cache_rounds="${runs:-10}"
fi
gate_runs="${runs:-15}"

loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
# how long each part took, on stderr, so that the counts for `all` can be checked against its 30 minutes
part_began=$SECONDS
took() { echo "bench/run.sh: $1 took $(( (SECONDS - part_began) / 60 )) min $(( (SECONDS - part_began) % 60 )) s (load $(loadavg))" >&2; part_began=$SECONDS; }

# a *Benchmark test class in benchmarks/process, which the normal build compiles and never runs
benchmark() {
  ./mvnw -B -q verify -pl benchmarks/process -am -Dtest="$1" -Dsurefire.failIfNoSpecifiedTests=false \
    -Dbench.runs="$2" -Dbench.out="$PWD/bench/results/$3.md" -Dbench.fleet="${FLEET:-3}" "${@:4}"
}

if [[ "$what" != startup-pool && "$what" != spawn-floor ]]; then  # these read results files or build nothing
  ./mvnw -B -q -DskipTests package
  took build
fi
if [[ "$what" == startup || "$what" == all ]]; then
  # a run of some variants only (VARIANTS, never in `all`) writes its own file, not the full table's
  startup_out=bench/results/startup-cost.md startup_variants=""
  if [[ "$what" == startup && -n "${VARIANTS:-}" ]]; then
    startup_variants="$VARIANTS" startup_out="bench/results/startup-cost-${VARIANTS//,/-}${RUN:+-$RUN}.md"
  fi
  VARIANTS="$startup_variants" java benchmarks/startup-cost/StartupCostBench.java "$startup_runs" \
    benchmarks/startup-app/target/startup-app-starter.jar benchmarks/startup-app/target/startup-app-baseline.jar "$startup_out" \
    benchmarks/plain-app/target/plain-app-starter.jar benchmarks/plain-app/target/plain-app-baseline.jar
  took startup
fi
if [[ "$what" == startup-pool ]]; then
  shift
  (( $# > 0 )) || { echo "bench/run.sh startup-pool: name the startup-cost results to pool" >&2; exit 2; }
  java benchmarks/startup-cost/StartupCostBench.java --pool bench/results/startup-cost-pooled.md "$@"
  took startup-pool
fi
if [[ "$what" == attribution ]]; then
  java benchmarks/startup-cost/StartupAttribution.java "${runs:-10}" benchmarks/plain-app/target/plain-app-baseline.jar \
    benchmarks/plain-app/target/plain-app-starter.jar bench/results/startup-attribution.md \
    benchmarks/startup-app/target/startup-app-baseline.jar benchmarks/startup-app/target/startup-app-starter.jar
  took attribution
fi
if [[ "$what" == jmh || "$what" == all ]]; then
  before="$(loadavg)"
  (cd benchmarks/jmh && java -cp "target/classes:$(cat target/jmh.classpath)" org.openjdk.jmh.Main \
    -rf text -rff ../../bench/results/jmh.txt HotPathBenchmarks)
  after="$(loadavg)"
  {
    echo "# JMH: hot paths"; echo
    echo "Generated $(date -u +%FT%TZ) by \`bench/run.sh jmh\` (\`benchmarks/jmh\`)."; echo
    if awk -v b="${before%% *}" -v a="${after%% *}" 'BEGIN { exit !(b > 2 || a > 2) }'; then
      echo "**Taken under load** (load average ${before%% *} before, ${after%% *} after, above 2 on $(nproc) cores): scores and errors are not the machine's."; echo
    fi
    echo "Machine: \`nproc\` $(nproc), \`java -version\`: $(java -version 2>&1 | tr '\n' ';' | sed 's/;$//; s/;/; /g'). Load average (1/5/15 min) before: $before, after: $after."; echo
    echo "Runs: 1 fork, 3 warm-up and 5 measured iterations of 1 s per benchmark (the spread is JMH's 99.9% error)."; echo
    echo '```'; cat bench/results/jmh.txt; echo '```'
  } > bench/results/jmh.md
  rm -f bench/results/jmh.txt
  took jmh
fi
if [[ "$what" == export || "$what" == all ]]; then
  benchmark ExportLagBenchmark "$export_runs" export-lag
  took export
fi
if [[ "$what" == readiness || "$what" == all ]]; then
  benchmark ReadinessLagBenchmark "$readiness_runs" "readiness-lag${FLEET:+-fleet$FLEET}"
  took readiness
fi
if [[ "$what" == fleet || "$what" == all ]]; then
  benchmark FleetScaleBenchmark "$fleet_runs" fleet-scale
  took fleet
fi
if [[ "$what" == shutdown || "$what" == all ]]; then
  benchmark ShutdownBenchmark "$shutdown_runs" shutdown
  took shutdown
fi
if [[ "$what" == spawn-floor ]]; then
  java benchmarks/startup-cost/SpawnFloor.java "${SPAWN:-1000}" "${runs:-3}" bench/results/spawn-floor.md
  took spawn-floor
fi
if [[ "$what" == trace-volume ]]; then
  benchmark TraceVolumeBenchmark "${runs:-3}" trace-volume
  took trace-volume
fi
if [[ "$what" == scale ]]; then
  # SCALE=keys (never in `all`): only those scenarios, into a file of their own
  benchmark SupervisorScaleBenchmark "${runs:-1}" "scale${SCALE:+-${SCALE//,/-}}" -Dbench.scale="${SCALE:-}"
  took scale
fi
if [[ "$what" == gate ]]; then
  # the burner is the benchmark's own (CpuBurner, a child JVM it starts first and stops last, bounded in time)
  benchmark GateQualityBenchmark "$gate_runs" gate
  took gate
fi
if [[ "$what" == tests ]]; then
  benchmark TestContextCostBenchmark "${runs:-10}" test-contexts-cost
  took tests
fi
if [[ "$what" == jvm-cache ]]; then
  benchmark JvmCacheBenchmark "$jvm_cache_rounds" jvm-cache
  took jvm-cache
fi
echo "bench/run.sh $what: $(( (SECONDS - began) / 60 )) min $(( (SECONDS - began) % 60 )) s" >&2
