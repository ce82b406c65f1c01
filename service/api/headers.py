"""Headers every response carries: the request id, nosniff, no-store, and CORS for browser apps.

A WSGI middleware around the whole app rather than Flask hooks: every answer gets them, the
scoring lane's (lane.py) as Flask's, and plain header tuples cost less than Werkzeug's checked
ones (measured with the lane: see docs/PERFORMANCE.md).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from typing import Any

StartResponse = Callable[..., Any]
App = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]

# The WSGI environ key of the request's id, set here for the app (problem bodies, logs).
REQUEST_ID = "zj.request_id"
_CLIENT_ID = re.compile(r"[A-Za-z0-9._:/+=@-]{1,128}")
_PREFLIGHT = [
    ("Access-Control-Allow-Methods", "GET, POST"),
    ("Access-Control-Allow-Headers", "Content-Type, X-Request-ID"),
    ("Access-Control-Max-Age", "600"),
]


def request_id(given: str) -> str:
    """The client's id when it is a sane token, so that logs can be joined; else a new one."""
    return given if _CLIENT_ID.fullmatch(given) else os.urandom(16).hex()


class Envelope:
    """WSGI middleware: the request's id in the environ, the common headers on its answer."""

    def __init__(self, app: App, cors_origins: str) -> None:
        self.app = app
        self.allowed = {origin.strip() for origin in cors_origins.split(",") if origin.strip()}

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        given = request_id(environ.get("HTTP_X_REQUEST_ID", ""))
        environ[REQUEST_ID] = given
        added = [
            ("X-Request-ID", given),
            ("X-Content-Type-Options", "nosniff"),
            ("Cache-Control", "no-store"),
        ]
        origin = environ.get("HTTP_ORIGIN")
        allowed = self.allowed
        if origin and ("*" in allowed or origin in allowed):
            added.append(("Access-Control-Allow-Origin", "*" if "*" in allowed else origin))
            added.append(("Access-Control-Expose-Headers", "X-Request-ID"))
            if "*" not in allowed:
                added.append(("Vary", "Origin"))
            if environ.get("REQUEST_METHOD") == "OPTIONS":
                added.extend(_PREFLIGHT)

        def with_headers(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            # Ours replace the app's (a static file's Cache-Control, say).
            ours = {name.lower() for name, _ in added}
            kept = [header for header in headers if header[0].lower() not in ours]
            return start_response(status, kept + added, exc_info)

        return self.app(environ, with_headers)
