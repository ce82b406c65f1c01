"""Score sheets (API.md "Score sheets"): the go-around's responsible player, claimed patterns
and a session settled. Every value is worked out by hand in the comment beside it."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings

from service import engine
from service.operations import OPERATIONS
from service.problems import Problem

from .support.strategies import house_rule_requests, score_requests

# 111 222 333 444s 55s won on a discard of 3s: 345 points, capped at 320 (docs/EXAMPLES.md).
CAPPED = {"tiles": "11122233344455s", "winning_tile": "3s"}
SCHEMES = ("formal", "uniform", "discarder_pays_all", "discarder_pays_double", "formal_double")


def go_around(*discards: str) -> list[dict[str, str]]:
    """``"N3s"`` -> ``{"seat": "N", "tile": "3s"}``."""
    return [{"seat": discard[0], "tile": discard[1:]} for discard in discards]


def paid(payoff: str, *discards: str) -> dict[str, int]:
    body = {
        "hand": CAPPED,
        "win": {"by": "discard", "seat": "S", "discarder": "W", "go_around": go_around(*discards)},
        "rules": {"payoff": payoff},
    }
    return engine.score(body)["payments"]


# Value 320, standard value 25, South wins on West's discard. Responsible R, the other two O:
# formal: R 3 x 320 - 2 x 25 = 910, O 25; uniform: 320 each; discarder_pays_all: R 960;
# discarder_pays_double: R 6 x 320 = 1920, O 3 x 320 = 960; formal_double: B = 25, E = 295,
# R B + 6E = 1795, O B + 3E = 910. Paid as a self-draw: formal and uniform 320 each,
# discarder_pays_all 320, discarder_pays_double 4 x 320 = 1280, formal_double B + 4E = 1205.
RESPONSIBLE = {"formal": (910, 25), "uniform": (320, 320), "discarder_pays_all": (960, 0),
               "discarder_pays_double": (1920, 960), "formal_double": (1795, 910)}  # fmt: skip
SELF_DRAWN = {"formal": 320, "uniform": 320, "discarder_pays_all": 320,
              "discarder_pays_double": 1280, "formal_double": 1205}  # fmt: skip


@pytest.mark.parametrize("payoff", SCHEMES)
@pytest.mark.parametrize(
    ("discards", "responsible"),
    [
        # North discarded 3s first, East passed with 5m, West's 3s won: North pays.
        (("N3s", "E5m", "W3s"), "N"),
        # West, the discarder, was the first to discard it.
        (("E1m", "N2m", "W3s"), "W"),
    ],
)
def test_the_first_to_discard_the_winning_tile_is_responsible(
    payoff: str, discards: tuple[str, ...], responsible: str
) -> None:
    own, other = RESPONSIBLE[payoff]
    expected = {seat: -own if seat == responsible else -other for seat in "ESWN"}
    expected["S"] = own + 2 * other
    assert paid(payoff, *discards) == expected


@pytest.mark.parametrize("payoff", SCHEMES)
def test_a_winner_who_passed_on_the_tile_is_paid_as_a_self_draw(payoff: str) -> None:
    each = SELF_DRAWN[payoff]
    assert paid(payoff, "S3s", "W3s") == {"E": -each, "S": 3 * each, "W": -each, "N": -each}


@pytest.mark.parametrize(
    ("win", "code", "path"),
    [
        ({"go_around": go_around("W5s")}, "invalid_context", "win.go_around[0]"),
        ({"go_around": go_around("N3s")}, "invalid_context", "win.go_around[0]"),
        ({"go_around": go_around("W3s", "N1m", "W3s")}, "invalid_context",
         "win.go_around[2].seat"),
        ({"go_around": go_around("N3s", "W3s"), "responsible": "N"}, "invalid_request",
         "win.responsible"),
        ({"go_around": go_around("W3s"), "pay_as_self_draw": True}, "invalid_request",
         "win.pay_as_self_draw"),
        ({"go_around": go_around(*["N3s"] * 5)}, "invalid_request", "win.go_around"),
        ({"by": "self_draw", "discarder": None, "go_around": go_around("W3s")},
         "invalid_context", "win.go_around"),
    ],
)  # fmt: skip
def test_a_go_around_that_cannot_be(win: dict[str, Any], code: str, path: str) -> None:
    body = {"hand": CAPPED, "win": {"by": "discard", "seat": "S", "discarder": "W", **win}}
    body["win"] = {key: value for key, value in body["win"].items() if value is not None}
    with pytest.raises(Problem) as raised:
        engine.score(body)
    assert (raised.value.code, raised.value.errors[0]["path"]) == (code, path)


# --- claims -------------------------------------------------------------------------------------


def claimed(*patterns: str | tuple[str, int], **win: Any) -> dict[str, Any]:
    entries = [{"id": p} if isinstance(p, str) else {"id": p[0], "count": p[1]} for p in patterns]
    rules = win.pop("rules", {})
    win = {"by": "self_draw", "seat": "S", **win}
    return engine.claim({"patterns": entries, "win": win, "rules": rules})


def summary(answer: dict[str, Any]) -> tuple[dict[str, int], int, str, int]:
    return (
        {p["id"]: p["points"] for p in answer["patterns"]},
        answer["points"],
        answer["limit"],
        answer["score"],
    )


@pytest.mark.parametrize(
    ("patterns", "rules", "expected"),
    [
        # 1 trivial: 1.1 5 + 1.2 5 + 1.3 5 = 15
        (["1.1", "1.2", "1.3"], {}, ({"1.1": 5, "1.2": 5, "1.3": 5}, 15, "none", 15)),
        # 2 one-suit: Pure One-Suit 80; v2.51 100
        (["2.1.2"], {}, ({"2.1.2": 80}, 80, "none", 80)),
        (["2.1.2"], {"version": "2.51"}, ({"2.1.2": 100}, 100, "none", 100)),
        # 3 honours: two Value Honor sets 2 x 10 + Small Three Dragons 40 = 60
        ([("3.1", 2), "3.2.1"], {}, ({"3.1": 20, "3.2.1": 40}, 60, "none", 60)),
        # 4 triplets: All Triplets 30 + Three Concealed 30 + One Kong 5 = 65
        (["4.1", "4.2.2", "4.3.1"], {}, ({"4.1": 30, "4.2.2": 30, "4.3.1": 5}, 65, "none", 65)),
        # 5 identical sets: Two Identical Sequences Twice 60
        (["5.1.2"], {}, ({"5.1.2": 60}, 60, "none", 60)),
        # 6 similar sets: Three Similar Sequences 35
        (["6.1"], {}, ({"6.1": 35}, 35, "none", 35)),
        # 7 consecutive sets: Nine-Tile Straight 40 + Pure One-Suit 80 = 120
        (["7.1", "2.1.2"], {}, ({"2.1.2": 80, "7.1": 40}, 120, "none", 120)),
        # 8 terminals: Pure Lesser Terminals 50
        (["8.1.2"], {}, ({"8.1.2": 50}, 50, "none", 50)),
        # 9 incidental: Final Draw 10 + Win on Kong 10 + One Kong 5 = 25
        (["9.1.1", "9.2", "4.3.1"], {}, ({"4.3.1": 5, "9.1.1": 10, "9.2": 10}, 25, "none", 25)),
        # 10 irregular: Seven Pairs 30 + Pure One-Suit 80 = 110
        (["10.2", "2.1.2"], {}, ({"2.1.2": 80, "10.2": 30}, 110, "none", 110)),
        # 11 bonus tiles: 3 improper x 2 + 1 proper x 4 + Four Flowers 10 = 20
        ([("11.1.1", 3), ("11.1.2", 1), "11.2.1"], {"bonus_tiles": True},
         ({"11.1.1": 6, "11.1.2": 4, "11.2.1": 10}, 20, "none", 20)),
        # the limit: 200 + 80 + 30 + 30 = 340, capped at 320
        (["7.2.2", "2.1.2", "4.1", "4.2.2"], {},
         ({"2.1.2": 80, "4.1": 30, "4.2.2": 30, "7.2.2": 200}, 340, "capped", 320)),
        # a limit pattern alone: Big Four Winds 400 (All Honors 320 not counted)
        (["3.4", "3.3.4"], {}, ({"3.3.4": 400}, 400, "single_pattern", 400)),
        # no pattern: a chicken hand, 1 (house rules: 0)
        ([], {}, ({"0": 1}, 1, "none", 1)),
        ([], {"chicken": 0}, ({"0": 0}, 0, "none", 0)),
        # house rules: Seven Pairs valued 100
        (["10.2"], {"values": {"10.2": 100}}, ({"10.2": 100}, 100, "none", 100)),
    ],
)  # fmt: skip
def test_claims_of_every_category(
    patterns: list[Any], rules: dict[str, Any], expected: tuple[Any, ...]
) -> None:
    assert summary(claimed(*patterns, rules=rules)) == expected


def test_a_claim_pays_as_a_score_does() -> None:
    # 2.1.2 80 + 3.1 2 x 10 + 1.2 5 = 105, South on West's discard, formal: West pays
    # 3 x 105 - 50 = 265, East and North 25 each (API.md's example claim).
    answer = claimed("2.1.2", ("3.1", 2), "1.2", by="discard", discarder="W")
    assert answer["score"] == 105
    assert answer["payments"] == {"E": -25, "S": 315, "W": -265, "N": -25}
    assert [p["reason"] for p in answer["patterns"]] == ["claimed"] * 3
    # With the go-around, North (first to discard the tile) pays instead.
    answer = claimed("2.1.2", by="discard", discarder="W", go_around=go_around("N5m", "W5m"))
    assert answer["payments"] == {"E": -25, "S": 240, "W": -25, "N": -190}


@pytest.mark.parametrize(
    ("patterns", "win", "rules", "path", "says"),
    [
        (["9.9"], {}, {}, "patterns[0].id", "not a pattern id"),
        (["1.1", "10.2"], {}, {"exclude": ["10.2"]}, "patterns[1].id", "excluded"),
        (["2.1.1", "2.1.2"], {}, {}, "patterns[1].id", "one series"),
        (["4.2.1", "4.2.3"], {}, {}, "patterns[1].id", "one series"),
        (["1.1", "1.1"], {}, {}, "patterns[1].id", "claimed twice"),
        ([("1.1", 2)], {}, {}, "patterns[0].count", "counted once"),
        ([("3.1", 5)], {}, {}, "patterns[0].count", "at most 4"),
        ([("11.1.1", 7)], {}, {"bonus_tiles": True}, "patterns[0].count", "at most 6"),
        ([("11.1.2", 3)], {}, {"bonus_tiles": True}, "patterns[0].count", "at most 2"),
        (["10.2", "4.1"], {}, {}, "patterns[1].id", "cannot hold"),
        (["10.1", "10.2"], {}, {}, "patterns[1].id", "cannot hold"),
        (["10.1", "8.1.3"], {}, {}, "patterns[1].id", "cannot hold"),
        (["10.1", "1.2"], {}, {}, "patterns[1].id", "cannot hold"),  # v3.3: no 1.2 (§4.5)
        (["9.3"], {}, {}, "patterns[0].id", "win on a discard"),
        (["9.1.2"], {}, {}, "patterns[0].id", "win on a discard"),
        (["9.1.1"], {"by": "discard", "discarder": "W"}, {}, "patterns[0].id", "self-drawn"),
        (["9.4.1"], {}, {}, "patterns[0].id", "East"),
        (["9.4.2"], {"by": "discard", "discarder": "W"}, {}, "patterns[0].id", "East's first"),
        (["9.2"], {}, {}, "patterns[0].id", "needs a kong"),
        (["9.4.1", "4.3.1"], {"seat": "E"}, {}, "patterns[0].id", "before any kong"),
        (["11.2.1"], {}, {}, "patterns[0].id", "bonus-tile mod"),
    ],
)  # fmt: skip
def test_a_claim_no_hand_could_hold(
    patterns: list[Any], win: dict[str, Any], rules: dict[str, Any], path: str, says: str
) -> None:
    with pytest.raises(Problem) as raised:
        claimed(*patterns, **win, rules=rules)
    assert raised.value.code == "invalid_claim"
    assert [e["path"] for e in raised.value.errors] == [path]
    assert says in raised.value.errors[0]["message"]


def test_win_on_kong_without_one_kong_where_the_table_excludes_it() -> None:
    # A table that does not play 4.3.1 wins on a kong without claiming it: 9.2 10 alone.
    assert summary(claimed("9.2", rules={"exclude": ["4.3.1"]}))[1:] == (10, "none", 10)
    # Nor one that plays One Kong but not Two Kong, on two kongs (One Kong is one kong only):
    # All Triplets 30 and Win on Kong 10 (hypothesis found /v1/score's answer refused).
    assert summary(claimed("4.1", "9.2", rules={"exclude": ["4.3.2"]}))[1:] == (40, "none", 40)


def test_v251_thirteen_terminals_claims_concealed_hand() -> None:
    # v2.51 counts 1.2 on Thirteen Terminals (RULES.md §4.5): 320 alone, 1.2 not counted
    answer = claimed("10.1", "1.2", rules={"version": "2.51"})
    assert summary(answer) == ({"10.1": 320}, 320, "single_pattern", 320)
    assert [p["id"] for p in answer["not_counted"]] == ["1.2"]


def test_a_claim_below_the_minimum_shows_its_breakdown() -> None:
    with pytest.raises(Problem) as raised:
        claimed("1.2", rules={"minimum": 6})
    assert raised.value.code == "below_minimum"
    assert raised.value.breakdown is not None and raised.value.breakdown["score"] == 5


def _as_claim(request: dict[str, Any], answer: dict[str, Any]) -> dict[str, Any]:
    """The claim of what /v1/score counted for ``request``: every pattern the answer lists,
    counted or not, with the win's way and payer (its flags are among the patterns)."""
    entries = [
        {"id": p["id"], "count": p["count"]} if p["id"] in ("3.1", "11.1.1", "11.1.2")
        else {"id": p["id"]}
        for p in answer["patterns"] + answer["not_counted"]
        if p["id"] != "0"
    ]  # fmt: skip
    keep = ("by", "seat", "discarder", "responsible", "pay_as_self_draw", "go_around")
    win = {key: value for key, value in request["win"].items() if key in keep}
    return {"patterns": entries, "win": win, "rules": request.get("rules", {})}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(score_requests())
def test_a_hands_claim_scores_and_pays_as_the_hand(request: dict[str, Any]) -> None:
    answer = engine.score(request)  # a generated hand wins: its minimum is 0 (handgen.draw_rules)
    claim = engine.claim(_as_claim(request, answer))
    for key in ("rules", "points", "limit", "score", "payments"):
        assert claim[key] == answer[key], key
    assert [p["id"] for p in claim["patterns"]] == [p["id"] for p in answer["patterns"]]
    assert [p["id"] for p in claim["not_counted"]] == [p["id"] for p in answer["not_counted"]]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(house_rule_requests())
def test_a_hands_claim_scores_as_the_hand_under_house_rules(request: dict[str, Any]) -> None:
    answer = engine.score(request)  # no minimum, no irregular hand excluded: it wins
    claim = engine.claim(_as_claim(request, answer))
    assert (claim["score"], claim["payments"]) == (answer["score"], answer["payments"])


# --- a session settled --------------------------------------------------------------------------

SESSION: dict[str, Any] = {
    "players": ["Ann", "Bob", "Cat", "Dan"],
    "rules": {"payoff": "formal"},
    "hands": [
        # 1. Ann (E) self-draws 123m 789p 234s 55s + Red pung: 3.1 10; each pays 10.
        {"seats": {"E": "Ann", "S": "Bob", "W": "Cat", "N": "Dan"},
         "score": {"hand": {"tiles": "123m789p23455s", "melds": [{"kind": "pung", "tiles": "777z"}],
                            "winning_tile": "4s"},
                   "win": {"by": "self_draw", "seat": "E"}}},
        # 2. Cat (W) claims All Triplets, 30, on Bob's (S) discard: Bob 3 x 30 - 50 = 40, the
        # others 25 each; Cat 90.
        {"claim": {"patterns": [{"id": "4.1"}], "win": {"by": "discard", "seat": "W",
                                                         "discarder": "S"}}},
        # 3. A draw: nobody pays.
        {"draw": True},
        # 4. The seats move on: Bob E, Cat S, Dan W, Ann N. Ann (N) claims Pure One-Suit and
        # Concealed Hand, 85, on Bob's (E) discard: Bob 3 x 85 - 50 = 205, Cat and Dan 25.
        {"seats": {"E": "Bob", "S": "Cat", "W": "Dan", "N": "Ann"},
         "claim": {"patterns": [{"id": "2.1.2"}, {"id": "1.2"}],
                   "win": {"by": "discard", "seat": "N", "discarder": "E"}}},
        # 5. Same seats: Dan (W) self-draws a chicken hand: 1 each.
        {"claim": {"patterns": [], "win": {"by": "self_draw", "seat": "W"}}},
    ],
}  # fmt: skip


def test_a_session_settled_by_player() -> None:
    answer = engine.settle(copy.deepcopy(SESSION))
    assert answer["hands"] == [
        {"score": 10, "winner": "Ann", "payments": {"Ann": 30, "Bob": -10, "Cat": -10, "Dan": -10}},
        {"score": 30, "winner": "Cat", "payments": {"Ann": -25, "Bob": -40, "Cat": 90, "Dan": -25}},
        {"draw": True},
        {"score": 85, "winner": "Ann",
         "payments": {"Ann": 255, "Bob": -205, "Cat": -25, "Dan": -25}},
        {"score": 1, "winner": "Dan", "payments": {"Ann": -1, "Bob": -1, "Cat": -1, "Dan": 3}},
    ]  # fmt: skip
    # Ann 30 - 25 + 255 - 1 = 259; Bob -10 - 40 - 205 - 1 = -256; Cat -10 + 90 - 25 - 1 = 54;
    # Dan -10 - 25 - 25 + 3 = -57.
    assert answer["totals"] == {"Ann": 259, "Bob": -256, "Cat": 54, "Dan": -57}
    assert answer["rules"]["payoff"] == "formal"


def test_settling_hand_by_hand_sums_to_the_sheet() -> None:
    whole = engine.settle(copy.deepcopy(SESSION))
    seats = None
    totals = dict.fromkeys(SESSION["players"], 0)
    for hand in SESSION["hands"]:
        seats = hand.get("seats", seats)
        one = {**SESSION, "hands": [{**hand, "seats": seats}]}
        for player, amount in engine.settle(copy.deepcopy(one))["totals"].items():
            totals[player] += amount
    assert totals == whole["totals"]
    assert sum(whole["totals"].values()) == 0
    assert all(sum(h.get("payments", {}).values()) == 0 for h in whole["hands"])


def test_without_players_the_seats_are_the_players() -> None:
    chicken = {"patterns": [], "win": {"by": "self_draw", "seat": "S"}}
    answer = engine.settle({"hands": [{"draw": True}, {"claim": chicken}]})
    assert answer["totals"] == {"E": -1, "S": 3, "W": -1, "N": -1}


@pytest.mark.parametrize(
    ("change", "code", "path"),
    [
        (lambda s: s["hands"][3]["claim"]["patterns"].__setitem__(1, {"id": "2.1.1"}),
         "invalid_claim", "hands[3].claim.patterns[1].id"),
        (lambda s: s["hands"][0]["score"]["hand"].__setitem__("tiles", "123m"),
         "invalid_hand", "hands[0].score.hand.tiles"),
        (lambda s: s["hands"][2].__setitem__("claim", s["hands"][1]["claim"]),
         "invalid_request", "hands[2]"),
        (lambda s: s["hands"][2].__setitem__("draw", False), "invalid_request", "hands[2]"),
        (lambda s: s["hands"][3]["seats"].__setitem__("E", "Zed"),
         "invalid_request", "hands[3].seats.E"),
        (lambda s: s["hands"][3]["seats"].__setitem__("E", "Ann"),
         "invalid_request", "hands[3].seats"),
        (lambda s: s.__setitem__("players", ["Ann", "Ann", "Cat", "Dan"]),
         "invalid_request", "players"),
        (lambda s: s.__setitem__("players", ["Ann", "x" * 41, "Cat", "Dan"]),
         "invalid_request", "players[1]"),
        (lambda s: s.__setitem__("hands", s["hands"] * 41), "invalid_request", "hands"),
        (lambda s: s["hands"][1]["claim"]["win"].__setitem__("last_tile", True),
         "invalid_request", "hands[1].claim.win.last_tile"),
        (lambda s: s["rules"].__setitem__("minimum", 50),
         "below_minimum", "hands[0].score"),
    ],
)  # fmt: skip
def test_a_bad_hand_fails_the_sheet_at_its_path(change: Any, code: str, path: str) -> None:
    sheet = copy.deepcopy(SESSION)
    change(sheet)
    with pytest.raises(Problem) as raised:
        engine.settle(sheet)
    assert raised.value.code == code
    assert path in [e["path"] for e in raised.value.errors]


def test_sheets_and_claims_over_http(client: FlaskClient) -> None:
    response = client.post("/v1/settle", json=SESSION)
    assert response.status_code == 200
    assert response.get_json() == engine.settle(copy.deepcopy(SESSION))
    claim = {"patterns": [{"id": "4.1"}], "win": {"by": "self_draw", "seat": "E"}}
    response = client.post("/v1/claim", json=claim)
    assert (response.status_code, response.get_json()["score"]) == (200, 30)
    response = client.post("/v1/claim", json={**claim, "patterns": [{"id": "10.2"}, {"id": "4.1"}]})
    assert response.status_code == 422
    assert response.get_json()["code"] == "invalid_claim"


def test_a_sheet_is_background_work_that_pauses_between_hands() -> None:
    # The server's pause (the worker's turns) is offered before each hand, as to a batch's
    # items, so that a 200-hand sheet never holds a probe back.
    assert OPERATIONS["/v1/settle"].long({"hands": []})
    pauses = []
    engine.settle(copy.deepcopy(SESSION), pause=lambda: pauses.append(1))
    assert len(pauses) == len(SESSION["hands"])
