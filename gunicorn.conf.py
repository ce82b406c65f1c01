"""Gunicorn settings for the Zung Jung scoring service (production and `make serve`).

The service is CPU-bound (hand decomposition and pattern matching, no I/O waits) and may face
the internet with no buffering proxy in front. So each core runs one worker process of
`service.worker.Worker`: gunicorn's gevent worker, which holds thousands of connections (slow,
idle, persistent) as cheap greenlets, reads every request in full before it costs CPU, lets
one request compute at a time (single scores before batches) and sheds the rest after a short
wait (docs/DESIGN.md, "Serving", has the measurements behind this). Every knob that differs
per deployment is read from the environment, so the same file serves the container image,
Kubernetes and a developer's shell.

    PORT               listening port (default 8000)
    WEB_CONCURRENCY    number of worker processes (default: CPUs usable by this process)
    GUNICORN_TIMEOUT   seconds a worker may stay unresponsive before it is killed (30)
    LOG_LEVEL          error-log level (info)
    ZJ_CLIENT_TIMEOUT  seconds a client has to send a request's headers, then its body, and
                       to take each part of the answer; also the keep-alive idle time (10)
    ZJ_QUEUE_TIMEOUT   seconds a request may wait for its turn before a 503 overloaded; one
                       that waited half of it in the listen backlog is refused unread (0.2)
    ZJ_BUFFER_BYTES    bytes of request bodies and answers one worker holds at most (8 MiB)
    ZJ_METRICS         1 (default): GET /metrics, counted across the workers; 0: off

service/settings.py checks every variable (and the app's own: ZJ_MAX_CONTENT_LENGTH,
ZJ_CORS_ORIGINS, ZJ_PROFILES): a bad one stops the server here, in the master, with one line.
"""

from __future__ import annotations

import datetime
import gc
import os
import shutil
import sys
import tempfile
from typing import Any

import orjson
from gunicorn import glogging, util

from service import reading, settings
from service.settings import setting

# Every setting, checked before anything reads one: a bad value stops the server here, in the
# master, with one line (not a worker failing to boot over and over). The ZJ_PROFILES file is
# read and checked too, whatever the worker class (the app then reads it itself).
settings.check_all()

# --- sockets and processes ------------------------------------------------------------------

bind = f"0.0.0.0:{setting(settings.PORT)}"
# One worker process per core: the work is CPU-bound and the GIL lets one Python thread run at
# a time. Within a worker, gevent's greenlets wait on the network for free, so slow and idle
# clients cost memory (a few KiB each), not a process.
worker_class = "service.worker.Worker"
workers = setting(settings.WEB_CONCURRENCY)  # default: the CPUs usable by this process
# Connections one worker holds at once (idle, trickling, waiting for their turn); past it the
# worker stops accepting and new connections wait in the backlog.
worker_connections = 2000
# Connections the kernel queues before a worker accepts them. A request that waits there for
# half of ZJ_QUEUE_TIMEOUT is refused unread once a worker takes it (service/worker.py).
backlog = 2048

# Import the app once in the master and fork the workers from it: workers share the loaded
# code and the pattern tables copy-on-write (less memory per worker), start faster, and a
# broken app makes gunicorn fail at start instead of looping on crashing workers. The cost is
# that SIGHUP does not reload application code; in a container a new image is a new pod.
preload_app = True

# --- time limits ------------------------------------------------------------------------------

# A worker whose event loop is blocked for 30 s (it never is: a turn at the CPU is
# milliseconds) is stuck and gets killed and replaced.
timeout = setting(settings.GUNICORN_TIMEOUT)
# On SIGTERM workers finish their in-flight requests for up to this long (a connection
# between requests is closed at once: service/worker.py). Kubernetes waits
# terminationGracePeriodSeconds (default 30 s; deploy/kubernetes.yaml sets 40 s) before
# SIGKILL, so this must stay below that.
graceful_timeout = 30
# gunicorn's own idle timeout between requests on a persistent connection; the worker reads
# ZJ_CLIENT_TIMEOUT instead (service/worker.py), this is set to match for tools that read it.
keepalive = max(1, round(setting(settings.CLIENT_TIMEOUT)))

# --- memory hygiene ---------------------------------------------------------------------------

# Workers are not recycled after a number of requests: their memory is bounded by design
# (bounded caches, ZJ_BUFFER_BYTES; `make bench` drills a stream of 118,800 distinct hands),
# and recycling a worker that holds persistent connections sends all of them to the other
# workers for as long as they live: with it, one worker served most of a benchmark's
# connections and the score rate swung from 44% to 127% of livez's between runs (measured).
max_requests = 0

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
loglevel = setting(settings.LOG_LEVEL)
accesslog = "-"


class JsonLogger(glogging.Logger):
    """gunicorn's logger, writing each access as one JSON object per line.

    time (ISO 8601 UTC), remote_addr, method, path (without the query string, which is not
    logged), status, bytes (of the body sent), duration_ms (microsecond resolution; gunicorn's
    own %(M)s is whole milliseconds, 0 for most requests here), request_id (the response's
    X-Request-ID: the client's or one the app made, as the client and the problem body see it).
    Built straight from the request, not from gunicorn's atoms: those are made for every
    header and environ entry, and cost a sixth of a worker's time under load (measured: the
    score rate rose 20% with no access log at all).
    """

    def access(self, resp: Any, req: Any, environ: Any, request_time: Any) -> None:
        if not self.access_log_enabled:
            return
        line = orjson.dumps(self.record(resp, environ, request_time)).decode()
        streams = [getattr(handler, "stream", None) for handler in self.access_log.handlers]
        if None in streams:  # syslog or a logging config of the operator's: the usual path
            self.access_log.info("%s", line)
            return
        # Straight to stdout or the file: logging's records, formatters and locks cost 7% of a
        # score request's rate (measured), for a line already formatted.
        for stream in streams:
            stream.write(line + "\n")
            stream.flush()

    def record(self, resp: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        status = str(resp.status or "").partition(" ")[0]
        sent = getattr(resp, "sent", None)
        return {
            "time": datetime.datetime.now(datetime.UTC).isoformat(timespec="milliseconds")[:-6]
            + "Z",
            "remote_addr": environ.get("REMOTE_ADDR", "-"),
            "method": environ.get("REQUEST_METHOD"),
            "path": environ.get("PATH_INFO"),
            # Numbers or null: a response that failed before start_response has no status.
            "status": int(status) if status.isdigit() else None,
            "bytes": sent if isinstance(sent, int) else None,
            "duration_ms": round(request_time.total_seconds() * 1000, 3),
            "request_id": next(
                (value for name, value in resp.headers if name.lower() == "x-request-id"), "-"
            ),
        }


logger_class = JsonLogger

# --- metrics ------------------------------------------------------------------------------------

# GET /metrics counts what every worker answered (service/metrics.py): prometheus-client's
# multiprocess mode, each worker writing its counts to memory-mapped files in one directory
# that a scrape sums. The variable must be set before the app (and prometheus-client) is
# loaded, which preload_app does right after this file. The directory is the operator's
# PROMETHEUS_MULTIPROC_DIR, else one of this server's own on /dev/shm (a tmpfs, writable
# under a read-only root filesystem, like worker_tmp_dir), named after the master's pid so
# that servers on one machine do not share it.
_metrics_dir = ""
_own_metrics_dir = False  # made here, so removed at exit (an operator's directory stays)
if setting(settings.METRICS):
    _metrics_dir = setting(settings.METRICS_DIR)
    if not _metrics_dir:
        _metrics_dir = os.path.join(worker_tmp_dir, f"zj-metrics-{os.getpid()}")
        _own_metrics_dir = True
    os.environ[settings.METRICS_DIR] = _metrics_dir


def on_starting(server: Any) -> None:
    """In the master, before any worker: a fresh directory, so that counts start at 0 (a
    restarted server must not add up the files of an earlier one)."""
    if _metrics_dir:
        shutil.rmtree(_metrics_dir, ignore_errors=True)
        try:
            os.makedirs(_metrics_dir, exist_ok=True)
        except OSError as error:
            raise SystemExit(
                f"{settings.METRICS_DIR}={_metrics_dir!r}: must be a directory this user can"
                f" write ({error.strerror})"
            ) from None


def pre_fork(server: Any, worker: Any) -> None:
    """In the master, before each worker: what the preloaded app made at start (its modules,
    the domain's tables of every suit's readings and every set's lines) is moved out of the
    garbage collector's sight, so that no full collection in a worker walks it again, and
    the workers share its pages rather than copy them as the collector touches them."""
    gc.freeze()


def child_exit(server: Any, child: Any) -> None:
    """A worker died or was replaced: its files stay (its counts were answered), and
    prometheus-client drops its live gauges."""
    if _metrics_dir:
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(child.pid, _metrics_dir)


def worker_exit(server: Any, worker: Any) -> None:
    """A worker, once gunicorn's own exit work is done, ends as a forked child should: with
    ``os._exit``, its exit status kept, its output flushed (every log handler flushes each
    record; ``logging.shutdown`` here hung a worker that had answered). The teardown, inherited
    from the master, ran into gevent's patched threading module, already torn down, and printed
    tracebacks for each worker on every stop (a rolling restart's, Ctrl-C's)."""
    ending = sys.exc_info()[1]  # gunicorn calls this while the worker's SystemExit unwinds
    status = ending.code if isinstance(ending, SystemExit) else 0
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status or 0 if isinstance(status, int | None) else 1)  # as sys.exit(status) would


def on_exit(server: Any) -> None:
    if _own_metrics_dir:
        shutil.rmtree(_metrics_dir, ignore_errors=True)


# --- what is deliberately not set -------------------------------------------------------------

# * reload: never in production (it watches files and restarts workers on change).
# * forwarded_allow_ips: left at its default ("127.0.0.1,::1", or the FORWARDED_ALLOW_IPS env
#   var): gunicorn uses it for X-Forwarded-Proto and the like only. Who a client is (its turns
#   at the CPU, its rate) is the service's own setting, ZJ_TRUSTED_PROXIES (service/clients.py).
# * The Server header: gunicorn >= 20.1 sends "Server: gunicorn" without the version (the
#   version is what scanners look for); pyproject requires gunicorn >= 23. Gunicorn has no
#   setting to drop the header, and an app-set Server header would be sent *in addition*, so
#   the app must not set one.


# --- gunicorn's own error responses -------------------------------------------------------------

# Some errors never reach the app: a malformed request line or header block, too many headers.
# gunicorn answers those itself, in HTML; the API promises application/problem+json for every
# error, so its writer is replaced by one that keeps the status and writes a problem document,
# with a request id of its own (gunicorn may not have read the request's). A request line's
# faults are worded by the worker first (service/worker.py, handle_error).
util.write_error = reading.write_error
