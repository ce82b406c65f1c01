"""The operator's settings: every environment variable the service reads, checked in one place.

Each variable has a default, a parser and the words that say what is allowed. A bad value
stops the server with one line naming the variable, the value and what is allowed (exit
status 1, no traceback): ``zj-serve`` checks them all before gunicorn starts (gunicorn itself
reads ``WEB_CONCURRENCY`` and ``PORT`` as it is imported, and dies on a bad one with a
traceback), ``gunicorn.conf.py`` again in the master, and the app and the worker read them
through :func:`setting`.

Light on purpose: no Flask, no gevent, so that the launcher and the config file load it fast.
"""

from __future__ import annotations

import ipaddress
import math
import os
import re
from collections.abc import Callable
from typing import Any, NamedTuple

from .request.limits import MAX_BODY


class Setting(NamedTuple):
    name: str
    default: Callable[[], Any]
    parse: Callable[[str], Any]  # the value, or None when the text is not allowed
    allowed: str  # what is allowed, in a few words: "must be ..."
    shown_default: str  # the default as the one-line message shows it


def _number(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if 0 < value < math.inf else None


def _whole(low: int, high: int) -> Callable[[str], int | None]:
    def parse(text: str) -> int | None:
        if not re.fullmatch(r"[0-9]+", text):
            return None
        value = int(text)
        return value if low <= value <= high else None

    return parse


def _level(text: str) -> str | None:
    return text.lower() if text.lower() in LOG_LEVELS else None


def _flag(text: str) -> bool | None:
    return {"1": True, "0": False}.get(text)


_ORIGIN = re.compile(r"\*|https?://[A-Za-z0-9.-]+(?::[0-9]{1,5})?")


def _origins(text: str) -> str | None:
    origins = [origin.strip() for origin in text.split(",") if origin.strip()]
    return text if origins and all(_ORIGIN.fullmatch(o) for o in origins) else None


def _networks(text: str) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] | None:
    try:
        found = tuple(
            ipaddress.ip_network(part.strip(), strict=False)
            for part in text.split(",")
            if part.strip()
        )
    except ValueError:
        return None
    return found or None


def _path(text: str) -> str | None:
    return text if "\0" not in text else None


def cpu_count() -> int:
    """CPUs usable by this process: sched_getaffinity honours taskset and cpusets (a container
    pinned to 2 of 64 host CPUs sees 2); neither sees a CFS quota (Kubernetes `limits.cpu`),
    which is why deploy/kubernetes.yaml sets WEB_CONCURRENCY explicitly."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


LOG_LEVELS = ("debug", "info", "warning", "error", "critical")

PORT = "PORT"
WEB_CONCURRENCY = "WEB_CONCURRENCY"
GUNICORN_TIMEOUT = "GUNICORN_TIMEOUT"
LOG_LEVEL = "LOG_LEVEL"
# Seconds a client has to send a request's headers, then its body, and to take each part of an
# answer; also how long an idle persistent connection is kept.
CLIENT_TIMEOUT = "ZJ_CLIENT_TIMEOUT"
# Seconds a request with a body may wait for its turn at the CPU before a 503.
QUEUE_TIMEOUT = "ZJ_QUEUE_TIMEOUT"
# Bytes of bodies and answers a worker may hold in memory at once.
BUFFER_BYTES = "ZJ_BUFFER_BYTES"
MAX_CONTENT_LENGTH = "ZJ_MAX_CONTENT_LENGTH"
CORS_ORIGINS = "ZJ_CORS_ORIGINS"
PROFILES = "ZJ_PROFILES"
METRICS = "ZJ_METRICS"
# Hands one expected-score request may search (RULES.md §8): its memory and time.
EXPECT_STATES = "ZJ_EXPECT_STATES"
PLAYGROUND = "ZJ_PLAYGROUND"
METRICS_DIR = "PROMETHEUS_MULTIPROC_DIR"
# The proxies (addresses, CIDR ranges) whose X-Forwarded-For names the client (clients.py).
TRUSTED_PROXIES = "ZJ_TRUSTED_PROXIES"
# Requests a second each client may send to a worker, and how many at once (clients.Rates).
CLIENT_RATE = "ZJ_CLIENT_RATE"
CLIENT_BURST = "ZJ_CLIENT_BURST"

_POSITIVE = "must be a positive number"
SETTINGS = {
    s.name: s
    for s in (
        Setting(PORT, lambda: 8000, _whole(1, 65535), "must be a whole number 1-65535", "8000"),
        Setting(
            WEB_CONCURRENCY, cpu_count, _whole(1, 256),
            "must be a whole number of worker processes 1-256", "one per usable CPU",
        ),
        Setting(
            GUNICORN_TIMEOUT, lambda: 30, _whole(1, 86400),
            "must be a whole number of seconds 1-86400", "30",
        ),
        Setting(LOG_LEVEL, lambda: "info", _level, "must be one of " + ", ".join(LOG_LEVELS),
                "info"),
        Setting(CLIENT_TIMEOUT, lambda: 10.0, _number, _POSITIVE, "10"),
        Setting(QUEUE_TIMEOUT, lambda: 0.2, _number, _POSITIVE, "0.2"),
        Setting(BUFFER_BYTES, lambda: 8 * 1024 * 1024, _number, _POSITIVE, "8388608"),
        Setting(
            MAX_CONTENT_LENGTH, lambda: MAX_BODY, _whole(1, 1024**3),
            "must be a whole number of bytes 1-1073741824", str(MAX_BODY),
        ),
        Setting(
            CORS_ORIGINS, lambda: "*", _origins,
            "must be * or comma-separated origins such as https://example.com:8443", "*",
        ),
        Setting(PROFILES, lambda: "", _path, "must be a file path", "none"),
        Setting(METRICS, lambda: True, _flag, "must be 1 (on) or 0 (off)", "1"),
        Setting(
            EXPECT_STATES, lambda: 50_000, _whole(1, 10_000_000),
            "must be a whole number of hands 1-10000000", "50000",
        ),
        Setting(PLAYGROUND, lambda: True, _flag, "must be 1 (on) or 0 (off)", "1"),
        Setting(METRICS_DIR, lambda: "", _path, "must be a directory path", "a fresh one"),
        Setting(
            TRUSTED_PROXIES, tuple, _networks,
            "must be comma-separated addresses or CIDR ranges such as 10.0.0.0/8", "none",
        ),
        Setting(CLIENT_RATE, lambda: None, _number, _POSITIVE + " of requests a second", "off"),
        Setting(
            CLIENT_BURST, lambda: None, _whole(1, 1_000_000),
            "must be a whole number of requests 1-1000000", "one second's worth",
        ),
    )
}  # fmt: skip


def setting(name: str) -> Any:
    """The value of the variable ``name``, or its default when it is unset or blank.

    A value that is not allowed raises SystemExit with one line, which Python prints on
    stderr before exiting with status 1.
    """
    entry = SETTINGS[name]
    text = os.environ.get(name, "").strip()
    if not text:
        return entry.default()
    value = entry.parse(text)
    if value is None:
        raise SystemExit(f"{name}={text!r}: {entry.allowed} (default {entry.shown_default})")
    return value


def client_rate() -> tuple[float, int] | None:
    """The per-client rate and burst in force (ZJ_CLIENT_RATE, ZJ_CLIENT_BURST); None: off."""
    rate = setting(CLIENT_RATE)
    if rate is None:
        return None
    burst = setting(CLIENT_BURST)
    return rate, max(1, math.ceil(rate)) if burst is None else burst


def check_all() -> None:
    """Every setting in the environment, each checked (SystemExit at the first bad one), and
    the profiles file read and checked when one is named."""
    for name in SETTINGS:
        setting(name)
    path = setting(PROFILES)
    if path:
        from .profiles import exit_if_bad  # marshmallow: only when there is a file

        exit_if_bad(path)
