"""Headers every response carries: the request id, nosniff, and CORS for browser apps."""

from __future__ import annotations

import os
import re

from flask import Flask, Response, g, request

_CLIENT_ID = re.compile(r"[A-Za-z0-9._:/+=@-]{1,128}")


def request_id(given: str) -> str:
    """The client's id when it is a sane token, so that logs can be joined; else a new one."""
    return given if _CLIENT_ID.fullmatch(given) else os.urandom(16).hex()


def init_app(app: Flask) -> None:
    allowed = {origin.strip() for origin in app.config["CORS_ORIGINS"].split(",") if origin}

    @app.before_request
    def assign_request_id() -> None:
        g.request_id = request_id(request.headers.get("X-Request-ID", ""))

    @app.after_request
    def add_headers(response: Response) -> Response:
        response.headers["X-Request-ID"] = g.get("request_id") or os.urandom(16).hex()
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Cache-Control"] = "no-store"
        origin = request.headers.get("Origin")
        if origin and ("*" in allowed or origin in allowed):
            response.headers["Access-Control-Allow-Origin"] = "*" if "*" in allowed else origin
            response.headers["Access-Control-Expose-Headers"] = "X-Request-ID"
            if "*" not in allowed:
                response.headers["Vary"] = "Origin"
            if request.method == "OPTIONS":
                response.headers["Access-Control-Allow-Methods"] = "GET, POST"
                response.headers["Access-Control-Allow-Headers"] = "Content-Type, X-Request-ID"
                response.headers["Access-Control-Max-Age"] = "600"
        return response
