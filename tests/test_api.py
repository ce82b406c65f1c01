"""The HTTP contract of API.md: every endpoint, every error code, the headers."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from marshmallow import ValidationError

from service import create_app, engine
from service.domain.rules.rulesets import install_profiles
from service.request import WaitsRequestSchema

from .support.contract import SPEC_PATH, ContractClient
from .support.hands import EXAMPLE, request
from .test_house_rules import README_CLUB
from .test_openapi_spec import SPEC, operations, resolve

NINE_GATES = {"hand": {"tiles": "1112345678999m"}, "win": {"seat": "S"}}


def problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.get_json()
    assert response.mimetype == "application/problem+json"
    body: dict[str, Any] = response.get_json()
    assert body["code"] == code
    assert body["status"] == status
    assert body["type"] == f"urn:zj-service:problem:{code}"
    assert body["title"] and body["detail"]
    return body


def paths(body: dict[str, Any]) -> list[str]:
    return [error["path"] for error in body["errors"]]


def test_score_the_api_example(client: FlaskClient) -> None:
    response = client.post("/v1/score", json=EXAMPLE)
    assert response.status_code == 200
    body = response.get_json()
    assert [(p["id"], p["points"], p["reason"]) for p in body["patterns"]] == [
        ("3.1", 10, "pung of Red")
    ]
    assert (body["points"], body["limit"], body["score"]) == (10, "none", 10)
    assert body["payments"] == {"E": -10, "S": 30, "W": -10, "N": -10}
    # API.md: the effective rule set, every field resolved (the house rules at their defaults).
    assert body["rules"] == {
        "version": "3.3",
        "payoff": "formal",
        "standard_value": 25,
        "minimum": 0,
        "bonus_tiles": False,
        "values": {},
        "exclude": [],
        "chicken": 1,
        "limit": 320,
    }
    hand = body["hand"]
    assert hand["form"] == "standard" and hand["concealed"] is False
    assert hand["pair"] == "55s"
    assert hand["tiles"] == "123m789p23455s777z"
    assert hand["glyphs"] == "🀇🀈🀉🀟🀠🀡🀑🀒🀓🀔🀔🀄🀄🀄"
    assert [s["tiles"] for s in hand["sets"]] == ["777z", "123m", "789p", "234s"]
    assert [s["completed_by_win"] for s in hand["sets"]] == [False, False, False, True]


def test_tiles_may_be_a_list(client: FlaskClient) -> None:
    tiles = ["1m", "2m", "3m", "7p", "8p", "9p", "2s", "3s", "4s", "5s", "5s"]
    body = dict(EXAMPLE, hand=dict(EXAMPLE["hand"], tiles=tiles))
    assert client.post("/v1/score", json=body).get_json()["score"] == 10


def test_request_id_is_echoed_or_made(client: FlaskClient) -> None:
    echoed = client.post("/v1/score", json=EXAMPLE, headers={"X-Request-ID": "abc-123"})
    assert echoed.headers["X-Request-ID"] == "abc-123"
    made = client.get("/livez")
    assert len(made.headers["X-Request-ID"]) == 32
    hostile = client.get("/livez", headers={"X-Request-ID": "x" * 500})
    assert hostile.headers["X-Request-ID"] != "x" * 500
    failed = client.post("/v1/score", json={}, headers={"X-Request-ID": "req-9"})
    assert failed.get_json()["request_id"] == "req-9"


def test_security_headers(client: FlaskClient) -> None:
    response = client.get("/livez")
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert "Server" not in response.headers


def test_malformed_json(client: FlaskClient) -> None:
    response = client.post("/v1/score", data="{nope", content_type="application/json")
    problem(response, 400, "malformed_json")


@pytest.mark.parametrize("body", ["NaN", '{"a": NaN}', "[" * 5000, '"\\ud800"'])
def test_hostile_json_is_malformed(client: FlaskClient, body: str) -> None:
    response = client.post("/v1/score", data=body, content_type="application/json")
    problem(response, 400, "malformed_json")


def test_payload_too_large(client: FlaskClient) -> None:
    response = client.post(
        "/v1/score", data=b" " * (3 * 1024 * 1024), content_type="application/json"
    )
    problem(response, 413, "payload_too_large")


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded"])
def test_unsupported_media_type(client: FlaskClient, content_type: str | None) -> None:
    response = client.post("/v1/score", data="{}", content_type=content_type)
    problem(response, 415, "unsupported_media_type")


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda b: b["hand"].update(extra=1), "hand.extra"),
        (lambda b: b.update(extra=1), "extra"),
        (lambda b: b["hand"].update(tiles="123m456p789s0m"), "hand.tiles"),
        (lambda b: b["hand"].update(tiles="123m456p78s 8z"), "hand.tiles"),
        (lambda b: b["hand"].update(tiles=123), "hand.tiles"),
        (lambda b: b["hand"].update(winning_tile="4s5s"), "hand.winning_tile"),
        (lambda b: b["hand"]["melds"][0].update(kind="set"), "hand.melds[0].kind"),
        (lambda b: b["hand"]["melds"][0].update(tiles="777x"), "hand.melds[0].tiles"),
        (lambda b: b["hand"]["melds"][0].update(concealed="yes"), "hand.melds[0].concealed"),
        (lambda b: b["win"].update(by="tsumo"), "win.by"),
        (lambda b: b["win"].update(seat="X"), "win.seat"),
        (lambda b: b["win"].update(last_tile=1), "win.last_tile"),
        (lambda b: b["win"].pop("seat"), "win.seat"),
        (lambda b: b.update(rules={"version": "4.0"}), "rules.version"),
        (lambda b: b.update(rules={"standard_value": 25.5}), "rules.standard_value"),
        (lambda b: b.update(rules={"standard_value": 0}), "rules.standard_value"),
        (lambda b: b.update(rules={"minimum": True}), "rules.minimum"),
        (lambda b: b.update(rules={"payoff": "pao"}), "rules.payoff"),
        (lambda b: b["hand"].update(flowers=[1, 1]), "hand.flowers"),
        (lambda b: b["hand"].update(seasons=[5]), "hand.seasons[0]"),
    ],
)
def test_invalid_request_names_the_field(client: FlaskClient, change: Any, path: str) -> None:
    body = request("123m789p23455s", "4s", by="discard", discarder="W",
                         melds=[{"kind": "pung", "tiles": "777z"}])  # fmt: skip
    change(body)
    found = problem(client.post("/v1/score", json=body), 422, "invalid_request")
    assert path in paths(found)
    assert all(error["message"] for error in found["errors"])


def test_body_must_be_an_object(client: FlaskClient) -> None:
    found = problem(client.post("/v1/score", json=[1, 2]), 422, "invalid_request")
    assert paths(found) == ["$"]


@pytest.mark.parametrize(
    ("tiles", "winning", "melds", "path"),
    [
        ("123m789p23455s", "4s", [], "hand.tiles"),  # 13 tiles
        ("1111m789p23455s", "4s", [{"kind": "pung", "tiles": "111m"}], "hand.tiles"),
        ("11111m789p234555s", "4s", [], "hand"),  # a fifth 1m
        ("123m789p23455s", "4s", [{"kind": "chow", "tiles": ["8m", "9m", "1p"]}],
         "hand.melds[0].tiles"),
        ("123m789p23455s", "4s", [{"kind": "chow", "tiles": "123z"}], "hand.melds[0].tiles"),
        ("123m789p23455s", "4s", [{"kind": "pung", "tiles": "677z"}], "hand.melds[0].tiles"),
        ("123m789p23455s", "4s", [{"kind": "kong", "tiles": "777z"}], "hand.melds[0].tiles"),
        ("123m789p23455s", "4s",
         [{"kind": "pung", "tiles": "777z", "concealed": True}], "hand.melds[0].concealed"),
        ("123m789p23455s", "9s", [{"kind": "pung", "tiles": "777z"}], "hand.winning_tile"),
    ],
)  # fmt: skip
def test_invalid_hand(
    client: FlaskClient, tiles: str, winning: str, melds: list[dict[str, Any]], path: str
) -> None:
    body = request(tiles, winning, melds=melds)
    assert paths(problem(client.post("/v1/score", json=body), 422, "invalid_hand")) == [path]


@pytest.mark.parametrize(
    ("tiles", "melds", "copies", "tile"),
    [
        ("11111m789p234555s", [], 5, "1m"),
        ("1m789p23456s55s", [{"kind": "kong", "tiles": "1111m"}], 5, "1m"),
        ("11111111111111m", [], 14, "1m"),
        ("11111111111m", [{"kind": "kong", "tiles": "1111m"}], 15, "1m"),
        ("11m", [{"kind": "kong", "tiles": "1111m"}] * 4, 18, "1m"),  # the most there can be
        ("99999p", [{"kind": "pung", "tiles": "999p"}] * 3, 14, "9p"),
    ],
)  # fmt: skip
def test_more_than_four_copies_are_counted_across_tiles_and_melds(
    client: FlaskClient, tiles: str, melds: list[dict[str, Any]], copies: int, tile: str
) -> None:
    body = request(tiles, tile, melds=melds)
    found = problem(client.post("/v1/score", json=body), 422, "invalid_hand")
    assert found["errors"] == [{"path": "hand", "message": f"{copies} copies of {tile} across"
                                " tiles and melds; there are only 4"}]  # fmt: skip


@pytest.mark.parametrize(
    ("win", "path"),
    [
        ({"by": "self_draw", "robbing_kong": True}, "win.robbing_kong"),
        ({"by": "self_draw", "kong_replacement": True}, "win.kong_replacement"),
        ({"by": "discard", "discarder": "S"}, "win.discarder"),
        ({"by": "discard"}, "win.discarder"),
        ({"by": "self_draw", "discarder": "E"}, "win.discarder"),
        ({"by": "self_draw", "responsible": "E"}, "win.responsible"),
        ({"by": "discard", "discarder": "E", "responsible": "S"}, "win.responsible"),
        (
            {"by": "discard", "discarder": "E", "responsible": "W", "pay_as_self_draw": True},
            "win.responsible",
        ),
        ({"by": "self_draw", "pay_as_self_draw": True}, "win.pay_as_self_draw"),
        ({"by": "self_draw", "first_turn": True}, "win.first_turn"),
        ({"by": "discard", "discarder": "W", "first_turn": True}, "win.first_turn"),
    ],
)
def test_invalid_context(client: FlaskClient, win: dict[str, Any], path: str) -> None:
    body = request("123m456p789s2355s4s"[:-2] + "4s", "4s")
    body["win"] = {"seat": "S", **win}
    assert paths(problem(client.post("/v1/score", json=body), 422, "invalid_context")) == [path]


def test_not_a_winning_hand(client: FlaskClient) -> None:
    body = request("123m456p789s23599s", "9s")
    problem(client.post("/v1/score", json=body), 422, "not_a_winning_hand")


def test_below_minimum_still_carries_the_breakdown(client: FlaskClient) -> None:
    chicken = request(
        "234m678p345s99s",
        "9s",
        by="discard",
        discarder="E",
        melds=[{"kind": "pung", "tiles": "222s"}],
        rules={"minimum": 5},
    )
    found = problem(client.post("/v1/score", json=chicken), 422, "below_minimum")
    assert found["breakdown"]["score"] == 1
    assert found["breakdown"]["patterns"][0]["id"] == "0"
    assert "payments" not in found["breakdown"]


def test_not_found(client: FlaskClient) -> None:
    problem(client.get("/v2/score"), 404, "not_found")


def test_method_not_allowed_keeps_allow(client: FlaskClient) -> None:
    response = client.get("/v1/score")
    problem(response, 405, "method_not_allowed")
    assert "POST" in response.headers["Allow"]


def test_an_unexpected_failure_is_a_bare_500(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def explode(payload: Any) -> dict[str, Any]:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(engine, "score", explode)
    response = client.post("/v1/score", json=EXAMPLE)
    body = problem(response, 500, "internal_error")
    assert "secret" not in response.get_data(as_text=True)
    assert "Traceback" not in response.get_data(as_text=True)
    assert body["request_id"] == response.headers["X-Request-ID"]


def test_batch_keeps_order_and_isolates_bad_items(client: FlaskClient) -> None:
    items = [EXAMPLE, {"hand": {}}, request("123m456p789s23599s", "9s"), EXAMPLE]
    response = client.post("/v1/score/batch", json={"items": items})
    assert response.status_code == 200
    results = response.get_json()["results"]
    assert [r["status"] for r in results] == [200, 422, 422, 200]
    assert results[1]["body"]["code"] == "invalid_request"
    assert results[2]["body"]["code"] == "not_a_winning_hand"
    assert results[0]["body"] == results[3]["body"] == client.post("/v1/score", json=EXAMPLE).json


def test_batch_limits(client: FlaskClient) -> None:
    assert client.post("/v1/score/batch", json={"items": []}).get_json() == {"results": []}
    too_many = client.post("/v1/score/batch", json={"items": [EXAMPLE] * 1001})
    assert paths(problem(too_many, 422, "invalid_request")) == ["items"]
    problem(client.post("/v1/score/batch", json={"item": []}), 422, "invalid_request")


def test_batch_of_a_thousand(client: FlaskClient) -> None:
    response = client.post("/v1/score/batch", json={"items": [EXAMPLE] * 1000})
    single = client.post("/v1/score", json=EXAMPLE).json
    assert response.get_json()["results"] == [{"status": 200, "body": single}] * 1000


def test_waits_on_a_nine_sided_wait(client: FlaskClient) -> None:
    response = client.post("/v1/waits", json=NINE_GATES)
    assert response.status_code == 200
    waits = response.get_json()["waits"]
    assert [w["tile"] for w in waits] == [f"{n}m" for n in range(1, 10)]
    assert [w["remaining"] for w in waits] == [1, 3, 3, 3, 3, 3, 3, 3, 1]
    assert waits[0]["glyph"] == "🀇"
    for wait in waits:
        for way in ("self_draw", "discard"):
            assert wait[way]["score"] == 480
            assert wait[way]["patterns"][0]["id"] == "2.2"
            assert "payments" not in wait[way]


def test_waits_on_nothing_is_an_empty_list(client: FlaskClient) -> None:
    body = {"hand": {"tiles": "147m258p369s1234z"}, "win": {"seat": "E"}}
    answer = client.post("/v1/waits", json=body).get_json()
    # No two tiles within two of each other, no pair: Seven Pairs is closest, 6 - 0 pairs.
    assert (answer["waits"], answer["shanten"], answer["useful_remaining"]) == ([], 6, 39)


def test_a_tile_all_four_held_is_no_wait(client: FlaskClient) -> None:
    # 1111234m 567s 789s: 4m makes 111m 123m 44m; 1m (111m 11m 234m) would be a fifth copy.
    body = {"hand": {"tiles": "1111234m567s789s"}, "win": {"seat": "E"}}
    waits = client.post("/v1/waits", json=body).get_json()["waits"]
    assert [w["tile"] for w in waits] == ["4m"]


def test_waits_where_the_context_rules_out_one_way(client: FlaskClient) -> None:
    body = {
        "hand": {"tiles": "123m456p789s2355s", "melds": []},
        "win": {"seat": "S", "robbing_kong": True},
    }
    waits = client.post("/v1/waits", json=body).get_json()["waits"]
    assert [w["tile"] for w in waits] == ["1s", "4s"]
    assert all(w["self_draw"] is None and w["discard"]["score"] == 20 for w in waits)


def test_waits_errors(client: FlaskClient) -> None:
    short = {"hand": {"tiles": "123m"}, "win": {"seat": "E"}}
    problem(client.post("/v1/waits", json=short), 422, "invalid_hand")
    extra = {"hand": {"tiles": "1112345678999m", "winning_tile": "1m"}, "win": {"seat": "E"}}
    assert "hand.winning_tile" in paths(
        problem(client.post("/v1/waits", json=extra), 422, "invalid_request")
    )
    both = {"hand": {"tiles": "1112345678999m"},
            "win": {"seat": "E", "robbing_kong": True, "kong_replacement": True}}  # fmt: skip
    problem(client.post("/v1/waits", json=both), 422, "invalid_context")


@pytest.mark.parametrize("path", ["/v1/waits", "/v1/discards"])
@pytest.mark.parametrize(
    ("expect", "where"),
    [
        ({"draws_left": 41}, "expect.draws_left"),
        ({"draws_left": -1}, "expect.draws_left"),
        ({"draws_left": 1.5}, "expect.draws_left"),
        ({"draws_left": "3"}, "expect.draws_left"),
        ({"discard_rate": 2}, "expect.discard_rate"),
        ({"discard_rate": -0.1}, "expect.discard_rate"),
        ({"discard_rate": "0.5"}, "expect.discard_rate"),
        ({"discard_rate": True}, "expect.discard_rate"),
        ({"objective": "x"}, "expect.objective"),
        ({"objective": None}, "expect.objective"),
        ({"draws": 3}, "expect.draws"),
        ([], "expect"),
        (17, "expect"),
        ("expected_score", "expect"),
        (None, "expect"),
    ],
)
def test_a_bad_expect_is_an_invalid_request_at_its_path(
    client: FlaskClient, path: str, expect: Any, where: str
) -> None:
    tiles = "123m456p789s1123s" + ("4s" if path == "/v1/discards" else "")
    body = {"hand": {"tiles": tiles}, "win": {"seat": "E"}, "expect": expect}
    assert paths(problem(client.post(path, json=body), 422, "invalid_request")) == [where]


def test_the_schema_alone_refuses_a_null_expect() -> None:
    """marshmallow, the authority, says what the fast path says (a null ``expect`` is no
    object), not only the answer built from both."""
    body = {"hand": {"tiles": "123m456p789s1123s"}, "win": {"seat": "E"}, "expect": None}
    with pytest.raises(ValidationError) as refused:
        WaitsRequestSchema().load(body)
    assert refused.value.messages == {"expect": ["Field may not be null."]}


@pytest.mark.parametrize(("version", "pure_one_suit"), [("3.3", 80), ("2.51", 100)])
def test_patterns_catalogue(client: FlaskClient, version: str, pure_one_suit: int) -> None:
    body = client.get(f"/v1/patterns?version={version}").get_json()
    assert body["version"] == version
    by_id = {p["id"]: p for p in body["patterns"]}
    assert len(by_id) == 48  # the 44 official patterns and the 4 of the bonus-tile mod
    assert by_id["2.1.2"]["value"] == pure_one_suit
    assert by_id["3.1"]["chinese"] == "番牌" and by_id["4.3.2"]["series"] == "4.3"
    assert by_id["10.1"]["category"] == "Irregular Hands"


def test_patterns_default_and_errors(client: FlaskClient) -> None:
    assert client.get("/v1/patterns").get_json()["version"] == "3.3"
    problem(client.get("/v1/patterns?version=9"), 422, "invalid_request")
    problem(client.get("/v1/patterns?lang=fr"), 422, "invalid_request")


def test_rules(client: FlaskClient) -> None:
    body = client.get("/v1/rules").get_json()
    assert body["versions"] == ["3.3", "2.51"]
    assert [p["id"] for p in body["payoffs"]] == [
        "formal", "uniform", "discarder_pays_all", "discarder_pays_double", "formal_double"
    ]  # fmt: skip
    assert body["defaults"]["standard_value"] == 25
    assert body["limits"]["batch_items"] == 1000
    assert body["limits"]["expect_states"] == 50_000
    assert body["limits"]["client_rate"] is None  # off by default


def test_rules_report_the_expected_score_budget_in_force(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ZJ_EXPECT_STATES", "10")
    assert client.get("/v1/rules").get_json()["limits"]["expect_states"] == 10
    melds = [{"kind": "pung", "tiles": "777z"}, {"kind": "chow", "tiles": "456p"}]
    hand = {"hand": {"tiles": "11235s555z", "melds": melds}, "win": {"seat": "E"}}
    answer = client.post("/v1/discards", json={**hand, "expect": {"draws_left": 1}}).get_json()
    assert answer["expectation"]["limited"] == "budget"
    assert [discard["expected"] for discard in answer["discards"]] == [None] * 5


def test_rules_show_the_client_rate_in_force(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ZJ_CLIENT_RATE", "50")
    monkeypatch.setenv("ZJ_CLIENT_BURST", "100")
    body = create_app({"TESTING": True}).test_client().get("/v1/rules").get_json()
    assert body["limits"]["client_rate"] == {"per_second": 50.0, "burst": 100}


def test_health(client: FlaskClient) -> None:
    assert client.get("/livez").get_json() == {"status": "ok"}
    assert client.get("/readyz").get_json() == {"status": "ready"}


def test_readyz_fails_when_scoring_does(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(engine, "score", lambda payload: 1 / 0)
    problem(client.get("/readyz"), 503, "not_ready")


def test_openapi_is_served(client: FlaskClient) -> None:
    response = client.get("/openapi.yaml")
    assert response.status_code == 200
    assert response.data == SPEC_PATH.read_bytes()


def test_cors_default_allows_any_origin(client: FlaskClient) -> None:
    response = client.post("/v1/score", json=EXAMPLE, headers={"Origin": "https://app.example"})
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Credentials" not in response.headers


def test_cors_preflight(client: FlaskClient) -> None:
    response = client.options(
        "/v1/score",
        headers={"Origin": "https://app.example", "Access-Control-Request-Method": "POST"},
    )
    # A preflight asks for headers only: 204, no body, no content type (it was Flask's 200 with
    # text/html).
    assert response.status_code == 204
    assert response.data == b"" and "Content-Type" not in response.headers
    assert "POST" in response.headers["Access-Control-Allow-Methods"]
    assert response.headers["Access-Control-Allow-Origin"] == "*"


def test_cors_restricted_origins() -> None:
    app = create_app({"CORS_ORIGINS": "https://good.example"})
    app.test_client_class = ContractClient
    client = app.test_client()
    good = client.get("/livez", headers={"Origin": "https://good.example"})
    assert good.headers["Access-Control-Allow-Origin"] == "https://good.example"
    assert "Origin" in good.headers["Vary"]
    bad = client.get("/livez", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in bad.headers
    # Every answer varies by Origin, so that no shared cache gives one origin's answer (or an
    # answer to no origin) to another.
    assert bad.headers["Vary"] == "Origin"
    assert client.get("/livez").headers["Vary"] == "Origin"
    preflight = client.options(
        "/v1/score",
        headers={"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"},
    )
    assert preflight.status_code == 204 and "Access-Control-Allow-Origin" not in preflight.headers


def test_any_origin_allowed_needs_no_vary(client: FlaskClient) -> None:
    assert "Vary" not in client.get("/livez", headers={"Origin": "https://app.example"}).headers


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [("DELETE", "/v1/score", "405 Method Not Allowed"), ("GET", "/nowhere", "404 Not Found"),
     ("POST", "/v1/score", "422 Unprocessable Entity"), ("GET", "/livez", "200 OK")],
)  # fmt: skip
def test_status_lines_carry_the_standard_phrase(
    client: FlaskClient, method: str, path: str, status: str
) -> None:
    # Werkzeug writes "405 METHOD NOT ALLOWED"; the phrases are Python's HTTPStatus' (3.11).
    response = client.open(path, method=method, json={} if method == "POST" else None)
    assert response.status == status


def test_configuration_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ZJ_CORS_ORIGINS", "https://one.example,https://two.example")
    monkeypatch.setenv("ZJ_MAX_CONTENT_LENGTH", "1024")
    client = create_app().test_client()
    allowed = client.get("/livez", headers={"Origin": "https://two.example"})
    assert allowed.headers["Access-Control-Allow-Origin"] == "https://two.example"
    big = client.post("/v1/score", data=b" " * 2048, content_type="application/json")
    assert big.status_code == 413


# ---- The contract's examples ---------------------------------------------------------------


def contract_examples() -> Iterator[Any]:
    """(path, request, answer) for every request example of openapi.yaml, with the 200 example
    of the same name (None if there is none), each named by the request's component."""
    for name, operation in operations():
        requests = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
        for example, body in requests.get("examples", {}).items():
            answers = resolve(operation["responses"]["200"])["content"]["application/json"]
            answer = answers.get("examples", {}).get(example)
            yield pytest.param(
                name.split(" ", 1)[1],
                resolve(body)["value"],
                None if answer is None else resolve(answer)["value"],
                id=f"{name} {body['$ref'].rsplit('/', 1)[1]}",
            )


CONTRACT_EXAMPLES = list(contract_examples())


def test_every_request_example_is_compared_with_its_answer() -> None:
    requests = {
        name
        for name in SPEC["components"]["examples"]
        if "Request" in name and not name.startswith("Problem")
    }
    assert {param.id.rsplit(" ", 1)[1] for param in CONTRACT_EXAMPLES} == requests


@pytest.fixture
def club_client(tmp_path: Path) -> Iterator[FlaskClient]:
    """A client of a server that loaded the profiles the examples were run with."""
    path = tmp_path / "profiles.json"
    path.write_text(json.dumps(README_CLUB), encoding="utf-8")
    app = create_app({"TESTING": True, "PROFILES": str(path)})
    app.test_client_class = ContractClient
    try:
        with app.test_client() as client:
            yield client
    finally:
        install_profiles({})


@pytest.mark.parametrize(("path", "body", "answer"), CONTRACT_EXAMPLES)
def test_the_contract_s_examples_are_what_the_service_answers(
    club_client: FlaskClient, path: str, body: dict[str, Any], answer: dict[str, Any] | None
) -> None:
    assert answer is not None, "no 200 example of the request's name"
    response = club_client.post(path, json=body)
    assert (response.status_code, response.get_json()) == (200, answer)
