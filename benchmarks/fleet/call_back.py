#!/usr/bin/env python3
"""A stand-in server that tells its supervisor it is ready, as a server with the starter does, then sleeps.

For the scale benchmark's local fleets (bench/run.sh scale): it asks the supervisor's readiness
callback for the clock (GET /clock?server=<name>), posts its ready callback (POST /ready, the
run's token as a bearer token, a timeline of the env contract's stamps: interpreter_start from its
spawn to this script's start, application_ready from there to now), then execs `sleep`, so that a
thousand of them cost a thousand sleeps, not a thousand interpreters. It listens on nothing: a
probe of its port is refused. Prints "ready_ns=<epoch ns>" and the answers' status codes.
Usage: call_back.py PORT
"""
import json
import os
import socket
import sys
import time
from urllib.parse import quote, urlsplit

TIMEOUT_S = 1.0  # the starter's own


def env_ns(name):
    value = os.environ.get(name, "").strip()
    return int(value) if value.isascii() and value.isdigit() and int(value) > 0 else None


def call(url, token, method, target, body=b""):
    """One request on a connection of its own; its status code, or -1."""
    parts = urlsplit(url)
    head = (f"{method} {target} HTTP/1.1\r\nHost: {parts.netloc}\r\nAuthorization: Bearer {token}\r\n"
            + (f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n" if body else "")
            + "Connection: close\r\n\r\n").encode("latin-1")
    try:
        with socket.create_connection((parts.hostname, parts.port), timeout=TIMEOUT_S) as connection:
            connection.sendall(head + body)
            answer = connection.recv(64)
            return int(answer[9:12]) if answer.startswith(b"HTTP/1.") else -1
    except (OSError, ValueError):
        return -1


def main():
    started = time.time_ns()
    port = int(sys.argv[1])
    name = os.environ.get("TELEMETRY_STARTUP_SERVER_NAME", "stub")
    url = os.environ.get("TELEMETRY_SUPERVISOR_CALLBACK_URL")
    token = os.environ.get("TELEMETRY_SUPERVISOR_CALLBACK_TOKEN", "")
    clock = call(url, token, "GET", "/clock?server=" + quote(name)) if url else -1
    ready = time.time_ns()
    spawn = env_ns("NEMO_GYM_STARTUP_SPAWN_NS") or started
    start = min(spawn, started)
    timeline = {
        "ready": True, "server": name, "pid": os.getpid(), "startEpochNs": start, "readyEpochNs": ready,
        "totalMs": (ready - start) / 1e6,
        "stages": [{"name": "interpreter_start", "startEpochNs": start, "endEpochNs": started},
                   {"name": "application_ready", "startEpochNs": started, "endEpochNs": ready}],
    }
    body = json.dumps({"server": name, "pid": os.getpid(), "host": socket.gethostname(), "port": port,
                       "clockEpochNs": ready, "clockOffsetNs": None, "clockUncertaintyNs": None,
                       "timeline": timeline}).encode()
    status = call(url, token, "POST", "/ready", body) if url else -1
    print(f"ready_ns={ready} clock={clock} ready={status}", flush=True)
    os.execvp("sleep", ["sleep", "3600"])


if __name__ == "__main__":
    main()
