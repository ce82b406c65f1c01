"""Fixtures: the app, and a test client whose every response is checked against openapi.yaml."""

from __future__ import annotations

import io
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import settings
from openapi_core import Config, OpenAPI
from openapi_core.contrib.werkzeug import WerkzeugOpenAPIRequest, WerkzeugOpenAPIResponse
from openapi_core.templating.paths.exceptions import OperationNotFound, PathNotFound
from openapi_schema_validator import OAS31Validator
from werkzeug.wrappers import Request

from service import create_app

# CI replays the same examples every run (a red build is then always reproducible); local runs
# keep exploring new ones.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

SPEC_PATH = Path(__file__).resolve().parents[1] / "openapi.yaml"
# openapi-core reads only application/json as JSON; problems are application/problem+json.
CONTRACT = OpenAPI.from_file_path(
    str(SPEC_PATH),
    config=Config(
        extra_media_type_deserializers={
            "application/problem+json": json.loads,
            "application/yaml": yaml.safe_load,
            "text/html": lambda data: data.decode() if isinstance(data, bytes) else data,
            "text/plain": lambda data: data.decode() if isinstance(data, bytes) else data,
        }
    ),
)


with SPEC_PATH.open(encoding="utf-8") as _stream:
    # The rule the score schemas leave out so that code generators read them as plain
    # objects (openapi.yaml, LimitConsistency): every score and breakdown answered keeps it.
    LIMIT_RULE = OAS31Validator(
        yaml.safe_load(_stream)["components"]["schemas"]["LimitConsistency"]
    )


def check_limit_rule(node: Any) -> int:
    """Every score response or breakdown within ``node`` keeps LimitConsistency; how many."""
    checked = 0
    if isinstance(node, dict):
        if {"patterns", "not_counted", "limit", "score"} <= node.keys():
            LIMIT_RULE.validate(node)
            checked += 1
        for value in node.values():
            checked += check_limit_rule(value)
    elif isinstance(node, list):
        for value in node:
            checked += check_limit_rule(value)
    return checked


class ContractClient(FlaskClient):
    """A test client that fails the test on any response openapi.yaml does not describe."""

    def open(self, *args: Any, **kwargs: Any) -> Any:
        response = super().open(*args, **kwargs)
        # The body was read by the app; the response check needs only the method and path.
        environ = dict(response.request.environ, CONTENT_LENGTH="0")
        environ["wsgi.input"] = io.BytesIO()
        request = WerkzeugOpenAPIRequest(Request(environ))
        try:
            CONTRACT.validate_response(request, WerkzeugOpenAPIResponse(response))
        except (PathNotFound, OperationNotFound):
            # Unknown paths and methods (and CORS preflights) have no operation; their
            # answers are checked by the tests that make them.
            assert response.status_code in (404, 405) or response.request.method == "OPTIONS"
        if response.is_json:
            check_limit_rule(response.get_json())
        return response


@pytest.fixture
def app() -> Flask:
    return create_app({"TESTING": True})


@pytest.fixture
def client(app: Flask) -> Iterator[FlaskClient]:
    app.test_client_class = ContractClient
    with app.test_client() as client:
        yield client


def score_request(
    tiles: str,
    winning_tile: str,
    by: str = "self_draw",
    seat: str = "S",
    discarder: str | None = None,
    melds: list[dict[str, Any]] | None = None,
    rules: dict[str, Any] | None = None,
    **flags: Any,
) -> dict[str, Any]:
    """A score request in API.md's JSON, terse to write in tests."""
    win: dict[str, Any] = {"by": by, "seat": seat, **flags}
    if discarder is not None:
        win["discarder"] = discarder
    body: dict[str, Any] = {
        "hand": {"tiles": tiles, "melds": melds or [], "winning_tile": winning_tile},
        "win": win,
    }
    if rules is not None:
        body["rules"] = rules
    return body


# API.md's example hand with its winning tile among the tiles, as the API's own rule wants
# (API.md prints "123m789p2355s", 13 tiles with the meld). Value Honor 10, payments -10/+30.
EXAMPLE = score_request(
    "123m789p23455s",
    "4s",
    by="discard",
    seat="S",
    discarder="W",
    melds=[{"kind": "pung", "tiles": "777z"}],
)
