"""The endpoints of API.md: parse the body, call the engine, return its JSON."""

from __future__ import annotations

from importlib import resources
from typing import Any

import orjson
from flask import Blueprint, Response, request

from .. import catalogue, engine
from ..domain.errors import Problem

bp = Blueprint("api", __name__)

# A hand /readyz scores: if this works, the whole scoring path does.
READY_HAND = {
    "hand": {"tiles": "123m789p23455s", "melds": [{"kind": "pung", "tiles": "777z"}],
             "winning_tile": "4s"},
    "win": {"by": "discard", "seat": "S", "discarder": "W"},
}  # fmt: skip


def _body() -> Any:
    """The JSON body of a POST, or the right problem (415, 400)."""
    if request.mimetype != "application/json":
        raise Problem(
            "unsupported_media_type",
            f"send JSON with Content-Type: application/json (got {request.mimetype or 'none'})",
            status=415,
        )
    try:
        return orjson.loads(request.get_data())
    except orjson.JSONDecodeError as error:
        raise Problem(
            "malformed_json", f"the body is not valid JSON: {error}", status=400
        ) from None


def _no_query(*allowed: str) -> None:
    for name in request.args:
        if name not in allowed:
            raise Problem.at("invalid_request", name, "unknown query parameter: remove it")


@bp.post("/v1/score")
def score() -> dict[str, Any]:
    return engine.score(_body())


@bp.post("/v1/waits")
def waits() -> dict[str, Any]:
    return engine.waits(_body())


@bp.post("/v1/score/batch")
def batch() -> dict[str, Any]:
    return engine.batch(_body())


@bp.get("/v1/patterns")
def patterns() -> dict[str, Any]:
    _no_query("version")
    return catalogue.patterns(request.args.get("version", "3.3"))


@bp.get("/v1/rules")
def rules() -> dict[str, Any]:
    _no_query()
    return catalogue.rules()


@bp.get("/livez")
def livez() -> dict[str, str]:
    return {"status": "ok"}


@bp.get("/readyz")
def readyz() -> dict[str, str]:
    try:
        engine.score(READY_HAND)
    except Exception as error:
        raise Problem("not_ready", f"scoring a fixed hand failed: {error}", status=503) from None
    return {"status": "ready"}


@bp.get("/openapi.yaml")
def openapi() -> Response:
    text = resources.files("service").joinpath("openapi.yaml").read_bytes()
    return Response(text, mimetype="application/yaml")
