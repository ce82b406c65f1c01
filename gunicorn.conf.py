"""Gunicorn settings for the Zung Jung scoring service (production and `make serve`).

The service is CPU-bound (hand decomposition and pattern matching, no I/O waits) and may face
the internet with no buffering proxy in front. So each core runs one worker process of
`service.worker.Worker`: gunicorn's gevent worker, which holds thousands of connections (slow,
idle, persistent) as cheap greenlets, reads every request in full before it costs CPU, lets
one request compute at a time and sheds the rest after a short wait (docs/DESIGN.md,
"Serving", has the measurements behind this). Every knob that differs per deployment is read
from the environment, so the same file serves the container image, Kubernetes and a
developer's shell.

    PORT               listening port (default 8000)
    WEB_CONCURRENCY    number of worker processes (default: CPUs usable by this process)
    GUNICORN_TIMEOUT   seconds a worker may stay unresponsive before it is killed (30)
    LOG_LEVEL          error-log level (info)
    ZJ_CLIENT_TIMEOUT  seconds a client has to send a request's headers, then its body, and
                       to take each part of the answer; also the keep-alive idle time (10)
    ZJ_QUEUE_TIMEOUT   seconds a request may wait for its turn before a 503 overloaded (0.5)
    ZJ_BUFFER_BYTES    bytes of request bodies and answers one worker holds at most (8 MiB)
"""

from __future__ import annotations

import datetime
import json
import os
import tempfile
from typing import Any

from gunicorn import glogging, util

from service import worker


def _cpu_count() -> int:
    # sched_getaffinity honours taskset/cpusets (a container pinned to 2 of 64 host CPUs sees 2);
    # os.cpu_count() would report all the host's CPUs. Neither sees a CFS quota (Kubernetes
    # `limits.cpu`), which is why deploy/kubernetes.yaml sets WEB_CONCURRENCY explicitly.
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def _env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    return int(value) if value else default


# --- sockets and processes ------------------------------------------------------------------

bind = "0.0.0.0:" + str(_env_int("PORT", 8000))
# One worker process per core: the work is CPU-bound and the GIL lets one Python thread run at
# a time. Within a worker, gevent's greenlets wait on the network for free, so slow and idle
# clients cost memory (a few KiB each), not a process.
worker_class = "service.worker.Worker"
workers = _env_int("WEB_CONCURRENCY", _cpu_count())
# Connections one worker holds at once (idle, trickling, waiting for their turn); past it the
# worker stops accepting and new connections wait in the backlog.
worker_connections = 2000
# Connections the kernel queues before a worker accepts them.
backlog = 2048

# Import the app once in the master and fork the workers from it: workers share the loaded
# code and the pattern tables copy-on-write (less memory per worker), start faster, and a
# broken app makes gunicorn fail at start instead of looping on crashing workers. The cost is
# that SIGHUP does not reload application code; in a container a new image is a new pod.
preload_app = True

# --- time limits ------------------------------------------------------------------------------

# A worker whose event loop is blocked for 30 s (it never is: a turn at the CPU is
# milliseconds) is stuck and gets killed and replaced.
timeout = _env_int("GUNICORN_TIMEOUT", 30)
# On SIGTERM workers finish their in-flight requests for up to this long. Kubernetes waits
# terminationGracePeriodSeconds (default 30 s; deploy/kubernetes.yaml sets 40 s) before
# SIGKILL, so this must stay below that.
graceful_timeout = 30
# gunicorn's own idle timeout between requests on a persistent connection; the worker reads
# ZJ_CLIENT_TIMEOUT instead (service/worker.py), this is set to match for tools that read it.
keepalive = max(1, round(worker.setting(worker.CLIENT_TIMEOUT)))

# --- memory hygiene ---------------------------------------------------------------------------

# Recycle each worker now and then so that any slow growth (fragmentation) stays bounded; the
# jitter staggers the restarts. Not too often: a new worker starts with cold caches, and
# recycling every 1000 requests was measured to halve throughput under load, while worker
# memory stays flat over a minute at saturation (`make load`).
max_requests = 100_000
max_requests_jitter = 10_000

# --- request limits (defence in depth; the API's own limits are enforced in the app) --------

# The API's URLs are short (/v1/score, /v1/waits, ...); 4094 is gunicorn's default and far
# above anything legitimate while still rejecting absurd request lines with a 414.
limit_request_line = 4094
# Well-behaved clients send ~10 headers; 50 leaves room for proxies' forwarding headers.
limit_request_fields = 50
limit_request_field_size = 8190

# --- read-only root filesystem ----------------------------------------------------------------

# Each worker heartbeats by fchmod()ing an unlinked temp file. The image runs with a read-only
# root filesystem, and on a disk-backed filesystem the fchmod can block, so use /dev/shm
# (tmpfs, always writable in a container) when it exists, else the system temp dir (an
# emptyDir mounted on /tmp in Kubernetes).
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else tempfile.gettempdir()
# Gunicorn >= 25.1 opens a control socket under $XDG_RUNTIME_DIR or ~/.gunicorn by default.
# A container has no use for it, and it would need a writable home; turn it off.
control_socket_disable = True

# --- logging ----------------------------------------------------------------------------------

# Error log (gunicorn's own messages and tracebacks) to stderr; access log to stdout, so the
# container runtime collects both without any file on disk.
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info")
accesslog = "-"

# One JSON object per line. Atoms: t = time (ISO 8601 UTC, see JsonLogger.now), h = remote
# address, m = method, U = path without query string (query strings are not logged), s =
# status, B = response body bytes, duration_ms = wall time in milliseconds with microsecond
# resolution (gunicorn's own %(M)s is truncated to whole ms, i.e. 0 for most requests here),
# {x-request-id}o = the X-Request-ID header of the *response* (the app echoes the client's id
# or generates one, so every line has the id that the client and the problem body see).
access_log_format = (
    '{"time":"%(t)s","remote_addr":"%(h)s","method":"%(m)s","path":"%(U)s",'
    '"status":%(s)s,"bytes":%(B)s,"duration_ms":%(duration_ms)s,'
    '"request_id":"%({x-request-id}o)s"}'
)


class JsonSafeAtoms(glogging.SafeAtoms):
    """Escapes the string atoms the format reads for a JSON string literal.

    Gunicorn's SafeAtoms escapes only double quotes; a path may also carry backslashes or
    control characters (it is percent-decoded), which would break the JSON line. Escaping is
    done on read: gunicorn builds an atom for every header and environ entry, and escaping
    them all up front cost about a sixth of a worker's time.
    """

    def __init__(self, atoms: dict[str, Any]) -> None:
        dict.__init__(self, atoms)

    def __getitem__(self, key: str) -> Any:
        value = super().__getitem__(key)
        # json.dumps gives a quoted, fully escaped (ASCII-only) literal; drop the quotes.
        return json.dumps(value)[1:-1] if isinstance(value, str) else value


class JsonLogger(glogging.Logger):
    """Gunicorn's logger with JSON-safe atoms, ISO 8601 times and numeric fields always valid."""

    atoms_wrapper_class = JsonSafeAtoms

    def now(self) -> str:
        return (
            datetime.datetime.now(datetime.UTC)
            .isoformat(timespec="milliseconds")
            .replace("+00:00", "Z")
        )

    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        atoms = super().atoms(resp, req, environ, request_time)
        # Unquoted in the format, so they must always be JSON numbers (or null): a response
        # that failed before start_response has no status, one with no body sent has no length.
        status = atoms.get("s")
        atoms["s"] = int(status) if isinstance(status, str) and status.isdigit() else "null"
        sent = atoms.get("B")
        atoms["B"] = sent if isinstance(sent, int) else "null"
        atoms["duration_ms"] = f"{request_time.total_seconds() * 1000:.3f}"
        return atoms


logger_class = JsonLogger

# --- house-rule profiles ----------------------------------------------------------------------

# A bad ZJ_PROFILES file stops the server here, as gunicorn reads this file in the master: one
# line on stderr and exit status 1, before any worker starts, whatever the worker class (the
# app then reads the file itself, service/profiles.py).
if os.environ.get("ZJ_PROFILES"):
    from service.profiles import exit_if_bad

    exit_if_bad(os.environ["ZJ_PROFILES"])

# --- what is deliberately not set -------------------------------------------------------------

# * reload: never in production (it watches files and restarts workers on change).
# * forwarded_allow_ips: left at its default ("127.0.0.1,::1", or the FORWARDED_ALLOW_IPS env
#   var), so X-Forwarded-* headers from arbitrary clients are not trusted; the service uses no
#   client address for anything but the access log.
# * The Server header: gunicorn >= 20.1 sends "Server: gunicorn" without the version (the
#   version is what scanners look for); pyproject requires gunicorn >= 23. Gunicorn has no
#   setting to drop the header, and an app-set Server header would be sent *in addition*, so
#   the app must not set one.


# --- gunicorn's own error responses -------------------------------------------------------------

# Some errors never reach the app: a malformed request line or header block, too many headers.
# gunicorn answers those itself, in HTML; the API promises application/problem+json for every
# error, so its writer is replaced by one that keeps the status and writes a problem document
# (no request id: gunicorn may not have read the request).
util.write_error = worker.write_error
