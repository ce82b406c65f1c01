"""The scoring endpoints answer alike through the lane (service/api/lane.py) and through Flask.

A body sent as ``application/json`` takes the lane; the same body sent with a charset
parameter takes the Flask route. Both must give the same status, body and headers (but the
request id, which is new each time unless the client sends one).
"""

from __future__ import annotations

import json
from typing import Any
from unittest import mock

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings

from service import engine
from service.api import lane
from service.operations import OPERATIONS

from .support.hands import EXAMPLE, request
from .support.strategies import score_requests

LANE = "application/json"
FLASK = "application/json; charset=utf-8"
BODIES = [
    pytest.param("/v1/score", json.dumps(EXAMPLE), id="score"),
    pytest.param("/v1/score", json.dumps({**EXAMPLE, "explain": True}), id="explained"),
    pytest.param("/v1/score", '{"hand": ', id="malformed-json"),
    pytest.param("/v1/score", "[]", id="not-an-object"),
    pytest.param("/v1/score", json.dumps({"hand": {}, "win": {}, "colour": 1}), id="invalid"),
    pytest.param("/v1/score", json.dumps(request("123m456p789s23599s", "9s")), id="no-win"),
    pytest.param(
        "/v1/score",
        json.dumps(
            request("234m678p345s99s", "9s", melds=[("pung", "222s")], rules={"minimum": 5})
        ),
        id="below-minimum",
    ),
    pytest.param(
        "/v1/waits",
        json.dumps({"hand": {"tiles": "123m456p789s2355s"}, "win": {"seat": "S"}}),
        id="waits",
    ),
    pytest.param(
        "/v1/score/batch", json.dumps({"items": [EXAMPLE, {"hand": {}}, None]}), id="batch"
    ),
]


def _answer(client: FlaskClient, path: str, body: str, media_type: str) -> tuple[Any, ...]:
    response = client.post(
        path, data=body.encode(), headers={"Content-Type": media_type, "X-Request-ID": "same"}
    )
    return response.status_code, response.get_json(), sorted(response.headers.items())


@pytest.mark.parametrize(("path", "body"), BODIES)
def test_the_lane_answers_as_flask_does(
    app: Flask, client: FlaskClient, path: str, body: str
) -> None:
    through_flask = _answer(client, path, body, FLASK)
    with mock.patch.object(Flask, "full_dispatch_request", side_effect=AssertionError("Flask")):
        through_lane = _answer(client, path, body, LANE)
    assert through_lane == through_flask


@settings(max_examples=50, deadline=None, suppress_health_check=list(HealthCheck))
@given(score_requests())
def test_every_hand_scores_alike_through_both(payload: dict[str, Any]) -> None:
    from service import create_app

    client = create_app({"TESTING": True}).test_client()
    body = json.dumps(payload)
    assert _answer(client, "/v1/score", body, LANE) == _answer(client, "/v1/score", body, FLASK)


def test_unusual_requests_go_on_to_flask(client: FlaskClient) -> None:
    # Another media type, an over-limit body, another method: Flask answers them as before
    # (chunked bodies: test_hostile_input.py).
    assert client.post("/v1/score", data="x", content_type="text/plain").status_code == 415
    big = client.post("/v1/score", data=b" " * (2 * 1024 * 1024 + 1), content_type=LANE)
    assert big.status_code == 413
    assert client.get("/v1/score").status_code == 405


@pytest.mark.parametrize(
    ("path", "expect", "paused"),
    [
        ("/v1/discards", {"expect": {"draws_left": 2}}, True),
        ("/v1/waits", {"expect": {}}, True),
        ("/v1/discards", {}, False),  # no expected score: a single request
    ],
)
def test_an_expected_score_is_given_the_servers_pause(
    path: str, expect: dict[str, Any], paused: bool
) -> None:
    operation = OPERATIONS[path]
    payload = {"hand": {"tiles": "123m456p789s1123s"}, "win": {"seat": "E"}, **expect}
    with mock.patch.object(engine, operation.name, return_value={}) as answer:
        lane.run(operation, payload, {lane.PAUSE: lambda: None})
    assert answer.call_args.args[0] is payload
    assert (len(answer.call_args.args) == 2) is paused
    if paused:  # the server's pause, called no more than every few milliseconds
        assert isinstance(answer.call_args.args[1], lane._Pacer)
