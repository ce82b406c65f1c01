"""Prometheus metrics, ``GET /metrics`` (prometheus-client; off with ``ZJ_METRICS=0``).

    zj_http_requests_total{route, method, status}     every answer, the worker's own included
    zj_http_request_duration_seconds{route}          time in the app, per route (histogram)
    zj_hands_scored_total{endpoint}                  hands answered with a score: one per 200
                                                     of /v1/score and /v1/waits, one per 200
                                                     item of a batch
    zj_problems_total{code}                          problem documents answered, by code

``route`` is the endpoint's path (``/docs/*`` for the documentation's assets, ``/playground/*``
for the playground's, ``other`` for
any unknown path, so that clients cannot make up label values); ``method`` is one of the
methods HTTP defines, else ``other``.

Under gunicorn the counts are the whole server's, whatever worker answered: gunicorn.conf.py
sets ``PROMETHEUS_MULTIPROC_DIR`` (a directory emptied at start) before the app is loaded,
each worker's values live in its own memory-mapped files there, a scrape sums them, and the
files of a worker that died stay counted (the ``child_exit`` hook marks it dead). Without the
variable (tests, the CLI, another server) the counts are the process's own.

prometheus-client is imported only when metrics are enabled, after the variable is set: it
chooses between the two modes as it is imported.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from typing import Any, Final

from .operations import OPERATIONS

StartResponse = Callable[..., Any]
App = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]

ROUTES: Final = frozenset(
    {*OPERATIONS, "/v1/patterns", "/v1/rules", "/livez", "/readyz", "/openapi.yaml", "/docs",
     "/docs/", "/metrics", "/"}
)  # fmt: skip
METHODS: Final = frozenset(
    {"GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"}
)
# Seconds: a hand is ~0.1 ms in the app, a full batch ~100 ms, a slow one more.
BUCKETS: Final = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


def route_of(path: str) -> str:
    if path in ROUTES:
        return path
    for prefix in ("/docs/", "/playground/"):
        if path.startswith(prefix):
            return prefix + "*"
    return "other"


class Metrics:
    """The service's metrics, once per process (prometheus-client's names are global)."""

    def __init__(self) -> None:
        from prometheus_client import (
            CollectorRegistry,
            Counter,
            Histogram,
            disable_created_metrics,
        )

        disable_created_metrics()  # type: ignore[no-untyped-call]  # a timestamp series beside each count: noise here
        self.registry = CollectorRegistry()
        self.multiprocess = bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))
        self.requests = Counter(
            "zj_http_requests",
            "HTTP requests answered, by route, method and status.",
            ["route", "method", "status"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "zj_http_request_duration_seconds",
            "Time the app took to answer, by route.",
            ["route"],
            buckets=BUCKETS,
            registry=self.registry,
        )
        self.hands = Counter(
            "zj_hands_scored",
            "Hands answered with a score, by endpoint.",
            ["endpoint"],
            registry=self.registry,
        )
        self.problems = Counter(
            "zj_problems",
            "Problem documents answered, by code.",
            ["code"],
            registry=self.registry,
        )
        # Label look-ups are the costly part of an increment: each child is looked up once.
        self._answers: dict[tuple[str, str, str], Any] = {}
        self._routes: dict[str, Any] = {}
        self._hands: dict[str, Any] = {}
        self._problems: dict[str, Any] = {}

    def answered(self, route: str, method: str, status: str, seconds: float | None) -> None:
        if method not in METHODS:
            method = "other"  # clients choose methods: the label's values stay bounded
        key = (route, method, status)
        child = self._answers.get(key)
        if child is None:
            child = self._answers[key] = self.requests.labels(route, method, status)
        child.inc()
        if seconds is not None:
            timer = self._routes.get(route)
            if timer is None:
                timer = self._routes[route] = self.latency.labels(route)
            timer.observe(seconds)

    def scored(self, endpoint: str, count: int) -> None:
        child = self._hands.get(endpoint)
        if child is None:
            child = self._hands[endpoint] = self.hands.labels(endpoint)
        child.inc(count)

    def problem(self, code: str) -> None:
        child = self._problems.get(code)
        if child is None:
            child = self._problems[code] = self.problems.labels(code)
        child.inc()

    def exposition(self) -> tuple[bytes, str]:
        """The text a scrape answers, and its content type."""
        from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest

        if not self.multiprocess:
            return generate_latest(self.registry), CONTENT_TYPE_LATEST
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return generate_latest(registry), CONTENT_TYPE_LATEST


# The process's metrics once enabled (create_app with metrics on); None: nothing is counted.
_metrics: Metrics | None = None


def enable() -> Metrics:
    global _metrics
    if _metrics is None:
        _metrics = Metrics()
    return _metrics


def current() -> Metrics | None:
    return _metrics


def scored(endpoint: str, count: int = 1) -> None:
    if _metrics is not None:
        _metrics.scored(endpoint, count)


def problem(code: str) -> None:
    if _metrics is not None:
        _metrics.problem(code)


def outside(path: str, method: str, status: int, code: str) -> None:
    """An answer the server gave without the app (the worker's 408, 413, 503, 400)."""
    if _metrics is not None:
        _metrics.answered(route_of(path), method, str(status), None)
        _metrics.problem(code)


class Counted:
    """WSGI middleware around the Flask app: every answer counted and timed."""

    def __init__(self, app: App, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        started = time.perf_counter()
        status: list[str] = []

        def capture(line: str, headers: Any, exc_info: Any = None) -> Any:
            status.append(line)
            return start_response(line, headers, exc_info)

        answer = self.app(environ, capture)
        path = environ.get("PATH_INFO", "")
        self.metrics.answered(
            path if path in ROUTES else route_of(path),
            environ.get("REQUEST_METHOD", ""),
            status[-1][:3] if status else "500",
            time.perf_counter() - started,
        )
        return answer
