"""Headers every response carries: the request id, nosniff, no-store, and CORS for browser apps.

A WSGI middleware around the whole app rather than Flask hooks: every answer gets them, the
scoring lane's (lane.py) as Flask's, and plain header tuples cost less than Werkzeug's checked
ones (measured with the lane: see docs/PERFORMANCE.md). It also answers CORS preflights (204,
no body) and gives every status line its standard reason phrase (Werkzeug writes
`405 METHOD NOT ALLOWED`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from http import HTTPStatus
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
    return given if _CLIENT_ID.fullmatch(given) else new_request_id()


def new_request_id() -> str:
    return os.urandom(16).hex()


class Envelope:
    """WSGI middleware: the request's id in the environ, the common headers on its answer."""

    def __init__(
        self, app: App, cors_origins: str, own_cache: Callable[[str], bool] = lambda path: False
    ) -> None:
        self.app = app
        self.allowed = {origin.strip() for origin in cors_origins.split(",") if origin.strip()}
        # The paths whose answers may say themselves how long a browser keeps them (the
        # playground's files); every other answer, and any of theirs that does not say, is
        # no-store.
        self.own_cache = own_cache

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        given = request_id(environ.get("HTTP_X_REQUEST_ID", ""))
        environ[REQUEST_ID] = given
        added = [
            ("X-Request-ID", given),
            ("X-Content-Type-Options", "nosniff"),
            ("Cache-Control", "no-store"),
        ]
        own_cache = self.own_cache(environ.get("PATH_INFO", ""))
        origin = environ.get("HTTP_ORIGIN")
        allowed = self.allowed
        if "*" not in allowed:
            # The answer depends on the Origin whenever only some origins are allowed: a shared
            # cache must not give one origin's answer (or a no-origin one) to another.
            added.append(("Vary", "Origin"))
        if origin and ("*" in allowed or origin in allowed):
            added.append(("Access-Control-Allow-Origin", "*" if "*" in allowed else origin))
            added.append(("Access-Control-Expose-Headers", "X-Request-ID"))
            if environ.get("REQUEST_METHOD") == "OPTIONS":
                added.extend(_PREFLIGHT)
        if (
            environ.get("REQUEST_METHOD") == "OPTIONS"
            and origin
            and environ.get("HTTP_ACCESS_CONTROL_REQUEST_METHOD")
        ):
            # A preflight asks for headers only: 204, no body, whatever the path.
            start_response("204 No Content", added)
            return []

        def with_headers(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            # Ours replace the app's (a static file's Cache-Control, say).
            mine = added
            if own_cache and any(name.lower() == "cache-control" for name, _ in headers):
                mine = [header for header in added if header[0] != "Cache-Control"]
            ours = {name.lower() for name, _ in mine}
            kept = [header for header in headers if header[0].lower() not in ours]
            return start_response(_standard(status), kept + mine, exc_info)

        return self.app(environ, with_headers)


def _standard(status: str) -> str:
    """The status line with its standard reason phrase (`405 Method Not Allowed`)."""
    code = status[:3]
    phrase = _PHRASES.get(code)
    return status if phrase is None else f"{code} {phrase}"


_PHRASES = {str(status.value): status.phrase for status in HTTPStatus}
