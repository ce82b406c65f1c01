"""The benchmark's floor routes answer exactly what POST /v1/score answers for its bodies.

If they did not, bench (iv) would be comparing the score route with some other exchange.
"""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from bench import floor, wrk

from .support import handgen

JSON = {"Content-Type": "application/json"}


@pytest.fixture(scope="module")
def floor_client() -> FlaskClient:
    return floor.create_app(20, 3).test_client()


def body(payload: object) -> bytes:
    return wrk.post_json("/v1/score", payload).body.encode()


@pytest.mark.parametrize("path", ["/bench/answer", "/bench/validate"])
def test_floor_routes_answer_as_score_does(floor_client: FlaskClient, path: str) -> None:
    for hand in handgen.generate(20, 3):
        scored = floor_client.post("/v1/score", data=body(hand), headers=JSON)
        answered = floor_client.post(path, data=body(hand), headers=JSON)
        assert answered.status_code == scored.status_code == 200
        assert answered.get_json() == scored.get_json()


def test_validate_route_rejects_what_score_rejects(floor_client: FlaskClient) -> None:
    request = {**handgen.generate(1, 3)[0], "extra": 1}
    scored = floor_client.post("/v1/score", data=body(request), headers=JSON)
    rejected = floor_client.post("/bench/validate", data=body(request), headers=JSON)
    assert rejected.status_code == scored.status_code == 422
    assert rejected.get_json()["code"] == scored.get_json()["code"] == "invalid_request"
