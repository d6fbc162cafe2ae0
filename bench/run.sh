#!/usr/bin/env bash
# Benchmarks: paired, interleaved runs; medians and ratios; results in bench/results/*.md.
# Run on a quiet machine (nothing else building or testing): the box has 2 cores.
#   bench/run.sh startup [RUNS]   what the starter costs at startup (three builds of one app)
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-all}"
runs="${2:-10}"
./mvnw -B -q -DskipTests package
if [[ "$what" == startup || "$what" == all ]]; then
  java bench/StartupCostBench.java "$runs" benchmarks/startup-app/target/startup-app-starter.jar \
    benchmarks/startup-app/target/startup-app-baseline.jar bench/results/startup-cost.md
fi
if [[ "$what" == jmh || "$what" == all ]]; then
  (cd benchmarks/jmh && java -cp "target/classes:$(cat target/jmh.classpath)" org.openjdk.jmh.Main \
    -rf text -rff ../../bench/results/jmh.txt HotPathBenchmarks)
  { echo "# JMH: hot paths"; echo; echo "Generated $(date -u +%FT%TZ) by \`bench/run.sh jmh\` ($(nproc) cores, $(java -version 2>&1 | head -1))."; echo; echo '```'; cat bench/results/jmh.txt; echo '```'; } > bench/results/jmh.md
  rm -f bench/results/jmh.txt
fi
