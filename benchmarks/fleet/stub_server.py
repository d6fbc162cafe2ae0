#!/usr/bin/env python3
"""A tiny stand-in server for fleet-scale benchmarks: not a JVM, so a hundred fit on two cores.

It honours the env contract the way a real server does: it reads NEMO_GYM_STARTUP_SPAWN_NS and
NEMO_GYM_STARTUP_SETUP_DONE_NS, times its own (trivial) start, answers /health once listening,
and serves /actuator/startuptimeline in the starter's JSON shape, so the supervisor's report
and probe-lag figures work unchanged. For the benchmark it prints "ready_ns=<epoch ns>" once
listening, and "probes=<n>" (health requests it answered) when stopped with SIGTERM.
Usage: stub_server.py PORT
"""
import json
import os
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def env_ns(name):
    value = os.environ.get(name, "").strip()
    return int(value) if value.isascii() and value.isdigit() and int(value) > 0 else None


def main():
    port = int(sys.argv[1])
    started = time.time_ns()
    spawn = env_ns("NEMO_GYM_STARTUP_SPAWN_NS")
    setup_done = env_ns("NEMO_GYM_STARTUP_SETUP_DONE_NS")
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    ready = time.time_ns()
    stages, cursor = [], spawn or started
    if spawn and setup_done and spawn <= setup_done <= started:
        stages.append(("venv_setup", spawn, setup_done))
        cursor = setup_done
    stages.append(("interpreter_start", cursor, started))
    stages.append(("application_ready", started, ready))
    Handler.timeline = json.dumps({
        "ready": True,
        "server": os.environ.get("TELEMETRY_STARTUP_SERVER_NAME", "stub"),
        "pid": os.getpid(),
        "startEpochNs": stages[0][1],
        "readyEpochNs": ready,
        "totalMs": (ready - stages[0][1]) / 1e6,
        "stages": [{"name": n, "startEpochNs": s, "endEpochNs": e, "durationMs": (e - s) / 1e6}
                   for n, s, e in stages],
    }).encode()
    print(f"ready_ns={ready}", flush=True)
    signal.signal(signal.SIGTERM, stopped)
    server.serve_forever()


def stopped(signum, frame):
    with Handler.lock:
        print(f"probes={Handler.probes}", flush=True)
    sys.exit(0)


class Handler(BaseHTTPRequestHandler):
    timeline = b"{}"
    probes = 0
    lock = threading.Lock()

    def do_GET(self):
        if self.path.startswith("/actuator/startuptimeline"):
            body = Handler.timeline
        else:
            with Handler.lock:
                Handler.probes += 1
            body = b'{"status":"UP"}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    main()
