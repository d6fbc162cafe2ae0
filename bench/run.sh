#!/usr/bin/env bash
# Benchmarks: paired, interleaved runs; medians and ratios; results in bench/results/*.md.
# Run on a quiet machine (nothing else building or testing): the box has 2 cores.
#   bench/run.sh startup [RUNS]     what the starter costs at startup (three builds of one app; 10 runs)
#   bench/run.sh jmh                hot paths (mark, env parsing, emitting spans)
#   bench/run.sh readiness [STARTS] readiness-detection lag over real sample-server starts (30 starts;
#                                   FLEET=N: N servers start at once, default the sample fleet of 3)
#   bench/run.sh fleet [RUNS]       the supervisor spawning 100 bench/stub_server.py at once (5 runs)
#   bench/run.sh shutdown [RUNS]    exit after SIGTERM against a dead collector, starter vs plain Boot (5 runs)
#   bench/run.sh all                all of the above, default counts
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-all}"
runs="${2:-}"
mkdir -p bench/results

# a *Benchmark test class in integration-tests, which the normal build skips
benchmark() {
  ./mvnw -B -q verify -pl integration-tests -am -Dtest="$1" -Dsurefire.failIfNoSpecifiedTests=false \
    -Dbench.runs="$2" -Dbench.out="$PWD/bench/results/$3.md" -Dbench.fleet="${FLEET:-3}"
}

./mvnw -B -q -DskipTests package
if [[ "$what" == startup || "$what" == all ]]; then
  java bench/StartupCostBench.java "${runs:-10}" benchmarks/startup-app/target/startup-app-starter.jar \
    benchmarks/startup-app/target/startup-app-baseline.jar bench/results/startup-cost.md
fi
if [[ "$what" == jmh || "$what" == all ]]; then
  (cd benchmarks/jmh && java -cp "target/classes:$(cat target/jmh.classpath)" org.openjdk.jmh.Main \
    -rf text -rff ../../bench/results/jmh.txt HotPathBenchmarks)
  { echo "# JMH: hot paths"; echo; echo "Generated $(date -u +%FT%TZ) by \`bench/run.sh jmh\` ($(nproc) cores, $(java -version 2>&1 | head -1))."; echo; echo '```'; cat bench/results/jmh.txt; echo '```'; } > bench/results/jmh.md
  rm -f bench/results/jmh.txt
fi
if [[ "$what" == readiness || "$what" == all ]]; then
  benchmark ReadinessLagBenchmark "${runs:-30}" "readiness-lag${FLEET:+-fleet$FLEET}"
fi
if [[ "$what" == fleet || "$what" == all ]]; then
  benchmark FleetScaleBenchmark "${runs:-5}" fleet-scale
fi
if [[ "$what" == shutdown || "$what" == all ]]; then
  benchmark ShutdownBenchmark "${runs:-5}" shutdown
fi
