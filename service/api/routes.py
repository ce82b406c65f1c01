"""The endpoints of API.md: parse the body, call the engine, return its JSON."""

from __future__ import annotations

import logging
from importlib import resources
from typing import Any

from flask import Blueprint, Response, current_app, request
from werkzeug.exceptions import RequestEntityTooLarge

from .. import catalogue, engine, metrics
from ..operations import OPERATIONS
from ..problems import Problem
from . import lane
from .headers import REQUEST_ID

log = logging.getLogger(__name__)

bp = Blueprint("api", __name__)

# A hand /readyz scores: if this works, the whole scoring path does.
READY_HAND = {
    "hand": {"tiles": "123m789p23455s", "melds": [{"kind": "pung", "tiles": "777z"}],
             "winning_tile": "4s"},
    "win": {"by": "discard", "seat": "S", "discarder": "W"},
}  # fmt: skip


def _body() -> Any:
    """The JSON body of a POST, or the right problem (415, 413, 400)."""
    if request.mimetype != "application/json":
        raise Problem(
            "unsupported_media_type",
            f"send JSON with Content-Type: application/json (got {request.mimetype or 'none'})",
        )
    return lane.parse(_read(request.environ))


def _read(environ: dict[str, Any]) -> bytes:
    """The body, or 413 if it is over the limit, chunked bodies included."""
    limit: int = current_app.config["MAX_CONTENT_LENGTH"]
    declared: str = environ.get("CONTENT_LENGTH") or ""
    if declared.isdigit():
        if int(declared) > limit:
            raise RequestEntityTooLarge()
        return lane.read_declared(environ, int(declared))
    # A chunked body declares no length, and Werkzeug's limited stream stops quietly at the
    # limit: read one byte past it to tell a complete body from a cut one.
    data = request.input_stream.read(limit + 1)
    if len(data) > limit:
        raise RequestEntityTooLarge()
    return data


def _no_query(*allowed: str) -> None:
    for name, values in request.args.lists():
        if name not in allowed:
            raise Problem.at("invalid_request", name, "unknown query parameter: remove it")
        if len(values) > 1:
            raise Problem.at(
                "invalid_request", name, f"given {len(values)} times: give a query parameter once"
            )


def operate() -> dict[str, Any]:
    """The operations' requests that the lane (lane.py) leaves to Flask (another media type,
    a chunked body, ...): read here, then answered alike."""
    return lane.run(OPERATIONS[request.path], _body(), request.environ)


for _path in OPERATIONS:
    bp.add_url_rule(_path, "operate", operate, methods=["POST"])


@bp.get("/v1/patterns")
def patterns() -> dict[str, Any]:
    _no_query("version", "profile")
    return catalogue.patterns(request.args)


@bp.get("/v1/rules")
def rules() -> dict[str, Any]:
    _no_query()
    config = current_app.config
    return catalogue.rules(config["MAX_CONTENT_LENGTH"], config["CLIENT_RATE"])


@bp.get("/livez")
def livez() -> dict[str, str]:
    return {"status": "ok"}


@bp.get("/readyz")
def readyz() -> dict[str, str]:
    try:
        engine.score(READY_HAND)
    except Exception:  # any failure means not ready
        log.exception("readiness check failed, request %s", request.environ.get(REQUEST_ID))
        raise Problem("not_ready", "scoring a fixed hand failed; see the log") from None
    return {"status": "ready"}


@bp.get("/openapi.yaml")
def openapi() -> Response:
    text = resources.files("service").joinpath("openapi.yaml").read_bytes()
    return Response(text, mimetype="application/yaml")


def metrics_view() -> Response:
    """GET /metrics (registered by create_app when metrics are on)."""
    counted = metrics.current()
    assert counted is not None  # registered only once enabled
    text, content_type = counted.exposition()
    return Response(text, content_type=content_type)
