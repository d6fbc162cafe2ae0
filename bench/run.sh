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
