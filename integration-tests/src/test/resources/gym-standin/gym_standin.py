"""A stand-in for a NeMo Gym server (Python 3, standard library only).

It reads the env contract the way Gym's documented code does (nemo_gym/telemetry/setup.py,
startup.py; nemo-lens config.from_env) and posts its startup spans as OTLP/HTTP JSON. It uses
nothing a Java supervisor might hand only a JVM (no TELEMETRY_* variable): if the env it is
given lacks something a Gym server needs, it exports nothing, or exports it wrong, and the test
that runs it fails.

Usage: gym_standin.py <port>
"""

import http.server
import json
import os
import secrets
import sys
import time
import urllib.parse
import urllib.request

ENTRY_NS = time.time_ns()

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}

# Gym's span groups and presets (nemo_gym/telemetry/span_groups.py)
_SPINE = {"server", "http_client", "rollout"}
_PRESETS = {
    "default": {"job", "startup"} | _SPINE,
    "per_rollout": {"verify", "agent", "model_call"} | _SPINE,
    "all": {"job", "server", "http_client", "rollout", "verify", "agent", "model_call", "sandbox", "startup"},
}


def _setting(name):
    # Gym's precedence: NEMO_GYM_OTEL_<X>, then NEMO_LENS_<X>; the first non-empty value
    for prefix in ("NEMO_GYM_OTEL_", "NEMO_LENS_"):
        value = os.environ.get(prefix + name, "").strip()
        if value:
            return value
    return None


def _flag(name, default):
    value = _setting(name)
    if value is None:
        return default
    lowered = value.lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ValueError(name)


def _env_flag(name, default):
    # Gym's _env_flag: Gym-only variable, anything but a true word is false
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    return value in _TRUE


def _env_ns(name):
    try:
        value = int(os.environ.get(name, ""))
    except ValueError:
        return None
    return value if value > 0 else None


def _attribute(key, value):
    if isinstance(value, bool):
        return {"key": key, "value": {"boolValue": value}}
    if isinstance(value, int):
        return {"key": key, "value": {"intValue": str(value)}}
    return {"key": key, "value": {"stringValue": str(value)}}


def _resource_attributes():
    # the OTel SDK's OTEL_RESOURCE_ATTRIBUTES detector: strings
    attributes = {}
    for pair in os.environ.get("OTEL_RESOURCE_ATTRIBUTES", "").split(","):
        if "=" in pair:
            key, value = pair.split("=", 1)
            attributes[key.strip()] = urllib.parse.unquote(value.strip())
    return attributes


def main():
    port = int(sys.argv[1])
    server_name = os.environ.get("NEMO_GYM_CONFIG_PATH", "GymStandIn")
    enabled = _flag("ENABLED", False)
    protocol = (os.environ.get("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
                or os.environ.get("OTEL_EXPORTER_OTLP_PROTOCOL") or "grpc").strip()
    groups = set()
    for token in (_setting("SPAN_GROUPS") or "default").split(","):
        groups |= _PRESETS.get(token.strip().lower(), {token.strip().lower()})
    startup_group = "startup" in groups
    run_id = (os.environ.get("NEMO_GYM_OTEL_RUN_ID", "").strip() or os.environ.get("SLURM_JOB_ID", "").strip()
              or secrets.token_hex(6))
    group = os.environ.get("OTEL_SERVICE_NAME", "").strip() or "nemo"
    service_name = f"{group}/{server_name}" if _env_flag("NEMO_GYM_OTEL_SERVICE_NAME_PER_SERVER", True) else group

    stages = []
    spawn = _env_ns("NEMO_GYM_STARTUP_SPAWN_NS")
    setup_done = _env_ns("NEMO_GYM_STARTUP_SETUP_DONE_NS")
    if spawn and setup_done and spawn <= setup_done <= ENTRY_NS:
        stages.append(("venv_setup", spawn, setup_done))
        stages.append(("interpreter_start", setup_done, ENTRY_NS))
    elif spawn and spawn <= ENTRY_NS:
        stages.append(("interpreter_start", spawn, ENTRY_NS))
    load_config_end = time.time_ns()
    stages.append(("load_config", ENTRY_NS, load_config_end))

    class Health(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = b'{"status":"UP"}'
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    httpd = http.server.HTTPServer(("127.0.0.1", port), Health)
    serving = time.time_ns()
    stages.append(("uvicorn_startup", load_config_end, serving))
    print(f"gym stand-in {server_name} serving on {port} (telemetry {'on' if enabled else 'off'}, "
          f"protocol {protocol})", flush=True)

    if enabled and startup_group:
        if not protocol.startswith("http/"):
            print(f"would export over {protocol}: nothing this collector understands", flush=True)
        else:
            _export(server_name, service_name, group, run_id, stages)
    httpd.serve_forever()


def _export(server_name, service_name, group, run_id, stages):
    endpoint = os.environ.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
    if not endpoint:
        endpoint = os.environ["OTEL_EXPORTER_OTLP_ENDPOINT"].rstrip("/") + "/v1/traces"
    traceparent = os.environ.get("NEMO_GYM_STARTUP_TRACEPARENT", "").strip()
    if traceparent:
        _, trace_id, parent_id, _ = traceparent.split("-")
    else:
        trace_id, parent_id = secrets.token_hex(16), ""
    common = [_attribute("nemo.gym.server.name", server_name), _attribute("nemo.gym.server.worker", False),
              _attribute("process.pid", os.getpid())]
    root_id = secrets.token_hex(8)
    spans = [{"traceId": trace_id, "spanId": root_id, "parentSpanId": parent_id, "name": "gym.server.startup",
              "kind": 1, "startTimeUnixNano": str(stages[0][1]), "endTimeUnixNano": str(stages[-1][2]),
              "attributes": common}]
    for name, start, end in stages:
        spans.append({"traceId": trace_id, "spanId": secrets.token_hex(8), "parentSpanId": root_id,
                      "name": "gym.server.startup." + name, "kind": 1, "startTimeUnixNano": str(start),
                      "endTimeUnixNano": str(end),
                      "attributes": common + [_attribute("nemo.gym.startup.stage", name)]})
    resource = dict(_resource_attributes())
    resource.update({"service.name": service_name, "nemo.gym.service_group": group, "nemo.run.id": run_id})
    body = {"resourceSpans": [{"resource": {"attributes": [_attribute(k, v) for k, v in resource.items()]},
                               "scopeSpans": [{"scope": {"name": "nemo_gym.telemetry"}, "spans": spans}]}]}
    request = urllib.request.Request(endpoint, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        print(f"exported {len(spans)} spans: HTTP {response.status}", flush=True)


if __name__ == "__main__":
    main()
