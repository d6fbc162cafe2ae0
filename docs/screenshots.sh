#!/usr/bin/env bash
# The README's pictures, from a real run: the sample supervisor's default fleet exporting to a
# real Zipkin, then headless Chromium on the HTML waterfall it wrote and on Zipkin's trace page.
# Needs the built jars ('./mvnw -B -q -DskipTests package' also fetches Zipkin's) and Chromium.
#   docs/screenshots.sh            # writes docs/waterfall.png and docs/zipkin-trace.png
# Environment: ZIPKIN_PORT (default 9411), WATERFALL_HEIGHT (default 560 px).
set -euo pipefail
cd "$(dirname "$0")/.."

port=${ZIPKIN_PORT:-9411}
height=${WATERFALL_HEIGHT:-560}
chromium=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
[ -n "$chromium" ] || { echo "needs Chromium (Debian: apt-get install chromium)" >&2; exit 1; }
for jar in sample-supervisor/target/sample-supervisor.jar sample-server/target/sample-server.jar \
		integration-tests/target/zipkin/zipkin-server.jar; do
	[ -f "$jar" ] || { echo "missing $jar: run ./mvnw -B -q -DskipTests package first" >&2; exit 1; }
done

work=$(mktemp -d)
zipkin=""
cleanup() {
	if [ -n "$zipkin" ]; then kill "$zipkin" 2>/dev/null || true; wait "$zipkin" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT

# polls "$1" (a command) every 200 ms for up to $2 seconds
await() {
	local tries=$(($2 * 5))
	until eval "$1"; do
		tries=$((tries - 1))
		[ "$tries" -gt 0 ] || { echo "timed out waiting for: $1" >&2; return 1; }
		sleep 0.2
	done
}

java -Xmx256m -jar integration-tests/target/zipkin/zipkin-server.jar --armeria.ports[0].port="$port" \
	--armeria.ports[0].ip=127.0.0.1 --armeria.ports[0].protocols=http --zipkin.storage.type=mem \
	--zipkin.self-tracing.enabled=false >"$work/zipkin.log" 2>&1 &
zipkin=$!
await "grep -q 'Serving HTTP at' '$work/zipkin.log'" 90

MANAGEMENT_OTLP_METRICS_EXPORT_ENABLED=false java -jar sample-supervisor/target/sample-supervisor.jar \
	--telemetry.supervisor.exit-when-ready=true \
	--telemetry.export.zipkin.endpoint="http://127.0.0.1:$port/api/v2/spans" \
	--telemetry.supervisor.report.html="$work/startup-report.html" >"$work/supervisor.log" 2>&1 \
	|| { tail -40 "$work/supervisor.log" >&2; exit 1; }
sed -n '/^Startup ready after/,/^HTML waterfall/p' "$work/supervisor.log"
trace=$(grep -oE '^Startup ready after .* \(trace [0-9a-f]{32}\)' "$work/supervisor.log" | grep -oE '[0-9a-f]{32}')
await "[ \"\$(curl -s http://127.0.0.1:$port/api/v2/trace/$trace | grep -o '\"gym.server.startup\"' | wc -l)\" -ge 3 ]" 60

shoot() {
	"$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync --hide-scrollbars --user-data-dir="$work/profile-$RANDOM" "$@" \
		2>>"$work/chromium.log"
}
shoot --screenshot="$PWD/docs/waterfall.png" --window-size=1400,"$height" "file://$work/startup-report.html"
shoot --virtual-time-budget=10000 --screenshot="$PWD/docs/zipkin-trace.png" --window-size=1400,900 \
	"http://127.0.0.1:$port/zipkin/traces/$trace"
ls -l docs/waterfall.png docs/zipkin-trace.png
