"""Every error as application/problem+json (RFC 9457), never a stack trace."""

from __future__ import annotations

import logging
from typing import Any

import orjson
from flask import Flask, Response, request
from werkzeug.exceptions import HTTPException

from .. import metrics
from ..problems import Problem
from .headers import REQUEST_ID

log = logging.getLogger(__name__)

_HTTP_CODES = {
    400: "malformed_json",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    415: "unsupported_media_type",
}
_HTTP_DETAILS = {
    400: "the body is not valid JSON",
    404: "no such resource; see GET /openapi.yaml for the endpoints",
    413: "the body is larger than the service accepts",
    415: "send the body as JSON with Content-Type: application/json",
}


def internal_error() -> Problem:
    """The answer to a bug: no detail, the request id finds it in the log."""
    return Problem("internal_error", "the service failed; the request id identifies it")


def problem_bytes(problem: Problem, environ: dict[str, Any]) -> bytes:
    """The problem document answering a request (counted in the metrics), with its id."""
    metrics.problem(problem.code)
    body = problem.body()
    if REQUEST_ID in environ:
        body["request_id"] = environ[REQUEST_ID]
    return orjson.dumps(body)


def problem_response(problem: Problem) -> Response:
    data = problem_bytes(problem, request.environ)
    return Response(data, problem.status, mimetype="application/problem+json")


def init_app(app: Flask) -> None:
    app.register_error_handler(Problem, problem_response)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Response:
        status = error.code or 500
        code = _HTTP_CODES.get(status, "invalid_request" if status < 500 else "internal_error")
        detail = _HTTP_DETAILS.get(status, error.description or "")
        if status == 405:
            allowed = ", ".join(sorted(error.valid_methods or ()))  # type: ignore[attr-defined]
            detail = f"this endpoint accepts {allowed}"
        if status == 413:
            detail += f" (at most {app.config['MAX_CONTENT_LENGTH']} bytes)"
        response = problem_response(Problem(code, detail, status=status))
        # Keep what Werkzeug adds, such as the Allow header of a 405.
        for name, value in error.get_headers():
            if name.lower() != "content-type":
                response.headers[name] = value
        return response

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> Response:
        log.exception(
            "unexpected error, request %s", request.environ.get(REQUEST_ID), exc_info=error
        )
        return problem_response(internal_error())
