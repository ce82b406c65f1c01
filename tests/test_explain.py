"""Explaining a score: the other readings of the tiles (``explain``), and the catalogue's
worked example of every pattern.

Every expected value was worked out by hand from ``../shared/RULES.md``: the readings of each
hand are listed in the comments, with their patterns. The properties check what holds of any
hand's alternatives: never better than the chosen reading, never one twice.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings

from service import catalogue, engine
from service.domain.rules.patterns import CATALOGUE
from service.domain.rules.rulesets import install_profiles
from service.domain.rules.versions import VERSIONS
from service.domain.scoring import scoring
from service.request import ScoreRequestSchema, load

from .support.hands import pattern_points, request
from .support.strategies import house_rule_requests, score_requests


def explained(payload: dict[str, Any]) -> dict[str, Any]:
    return engine.score({**payload, "explain": True})


def shape(reading: dict[str, Any]) -> tuple[Any, ...]:
    """What tells one reading from another: its form, sets (with the one the winning tile
    completed) and pair, or pairs."""
    sets = tuple(
        (s["tiles"], s["concealed"], s["completed_by_win"]) for s in reading.get("sets", ())
    )
    return reading["form"], sets, reading.get("pair"), tuple(reading.get("pairs", ()))


# 2222 33 44 55 66 77p, self-drawn on 7p (RULES.md §2's own example): two readings.
# - 234 234 567 567 + 22: All Sequences 5, Concealed Hand 5, No Terminals 5, Pure One-Suit 80,
#   Two Identical Sequences Twice 60 = 155 (v2.51: 100 and 55 = 170).
# - Seven Pairs (22 22 33 44 55 66 77): No Terminals 5, Pure One-Suit 80, Seven Pairs 30 = 115
#   (v2.51: 100, Seven Pairs 25 and Concealed Hand 5 = 135).
SEVEN_OR_SETS = request("22223344556677p", "7p", seat="S")


def test_the_sets_reading_against_seven_pairs() -> None:
    result = explained(SEVEN_OR_SETS)
    assert result["hand"]["form"] == "standard"
    assert [s["tiles"] for s in result["hand"]["sets"]] == ["234p", "234p", "567p", "567p"]
    assert result["score"] == 155
    assert result["alternatives"] == [
        {
            "form": "seven_pairs",
            "pairs": ["22p", "22p", "33p", "44p", "55p", "66p", "77p"],
            "patterns": [
                {"id": "1.3", "name": "No Terminals", "chinese": "斷么九", "value": 5,
                 "count": 1, "points": 5, "reason": "only 2-8 number tiles"},
                {"id": "2.1.2", "name": "Pure One-Suit", "chinese": "清一色", "value": 80,
                 "count": 1, "points": 80, "reason": "all Circles"},
                {"id": "10.2", "name": "Seven Pairs", "chinese": "七對子", "value": 30,
                 "count": 1, "points": 30, "reason": "seven pairs"},
            ],
            "points": 115,
            "limit": "none",
            "score": 115,
        }
    ]  # fmt: skip


def test_the_older_version_values_both_readings_its_own_way() -> None:
    result = explained({**SEVEN_OR_SETS, "rules": {"version": "2.51"}})
    assert result["score"] == 170
    (seven,) = result["alternatives"]
    assert pattern_points(seven) == {"1.2": 5, "1.3": 5, "2.1.2": 100, "10.2": 25}
    assert (seven["points"], seven["score"]) == (135, 135)


def test_alternatives_are_read_under_the_house_rules() -> None:
    # Seven Pairs at 100: 5 + 80 + 100 = 185 beats the sets' 155, which becomes the other.
    result = explained({**SEVEN_OR_SETS, "rules": {"values": {"10.2": 100}}})
    assert result["hand"]["form"] == "seven_pairs" and result["score"] == 185
    (sets,) = result["alternatives"]
    assert sets["form"] == "standard" and sets["pair"] == "22p"
    assert pattern_points(sets) == {"1.1": 5, "1.2": 5, "1.3": 5, "2.1.2": 80, "5.1.2": 60}
    # Without Seven Pairs, that reading is no way to win: nothing else to show.
    assert explained({**SEVEN_OR_SETS, "rules": {"exclude": ["10.2"]}})["alternatives"] == []
    # A limit of 100 caps both: the sets' 155 and Seven Pairs' 115 score 100, and the sets
    # stay first on points.
    capped = explained({**SEVEN_OR_SETS, "rules": {"limit": 100}})
    assert (capped["points"], capped["score"], capped["limit"]) == (155, 100, "capped")
    (seven,) = capped["alternatives"]
    assert (seven["points"], seven["score"], seven["limit"]) == (115, 100, "capped")


def test_alternatives_under_a_profile() -> None:
    install_profiles({"pairs": {"values": {"10.2": 100}}})
    try:
        result = explained({**SEVEN_OR_SETS, "rules": {"profile": "pairs"}})
    finally:
        install_profiles({})
    assert result["hand"]["form"] == "seven_pairs"
    assert [a["score"] for a in result["alternatives"]] == [155]


# 111 222 333 444 55s, won on West's discard of 3s by South (the README's capped hand). Five
# readings; every one is concealed (1.2, 5) and all Bamboo (2.1.2, 80):
# - 111 222 333 444 + 55, the discard completing 333 (exposed): All Triplets 30, Three
#   Concealed Triplets 30, Four Consecutive Triplets 200: 345, capped at 320. The chosen one.
# - 111 + 234 234 234 + 55, 234 completed (the three alike count once): Three Identical
#   Sequences 120: 205.
# - 123 123 123 + 444 + 55, 123 completed: 120: 205 (found after the pung of 1s).
# - 111 + 234 + 345 345 + 22, 234 completed: Two Identical Sequences 10: 95.
# - the same sets, 345 completed: 95.
TRIPLETS_OR_CHOWS = request("11122233344455s", "3s", by="discard", seat="S", discarder="W")


def test_every_other_reading_best_first() -> None:
    result = explained(TRIPLETS_OR_CHOWS)
    assert (result["points"], result["score"], result["limit"]) == (345, 320, "capped")
    others = result["alternatives"]
    assert [(a["points"], a["score"], a["limit"]) for a in others] == [
        (205, 205, "none"), (205, 205, "none"), (95, 95, "none"), (95, 95, "none")
    ]  # fmt: skip
    assert [pattern_points(a) for a in others] == [
        {"1.2": 5, "2.1.2": 80, "5.1.3": 120},
        {"1.2": 5, "2.1.2": 80, "5.1.3": 120},
        {"1.2": 5, "2.1.2": 80, "5.1.1": 10},
        {"1.2": 5, "2.1.2": 80, "5.1.1": 10},
    ]
    sets = [[(s["tiles"], s["completed_by_win"]) for s in a["sets"]] for a in others]
    assert sets == [
        [("111s", False), ("234s", True), ("234s", False), ("234s", False)],
        [("123s", True), ("123s", False), ("123s", False), ("444s", False)],
        [("111s", False), ("234s", True), ("345s", False), ("345s", False)],
        [("111s", False), ("234s", False), ("345s", True), ("345s", False)],
    ]
    assert [a["pair"] for a in others] == ["55s", "55s", "22s", "22s"]
    # The set the discard completed is exposed, the others concealed.
    assert all(s["concealed"] != s["completed_by_win"] for a in others for s in a["sets"])


# 44 555 6666 7777 8m, won on West's discard of 6m by South. The 8m is only in 678m, which
# leaves 44 555 666 777m: with the pair 44, 555 666 777 or 567 567 567; with 77, the two 4s
# take 456 456 and 567 is left; with 55 or 66, the two 4s find one 5 or one 6, no set. Each set
# the 6m can complete is a reading: seven. All concealed (1.2, 5), all Characters (2.1.2, 80),
# only 4-8 (1.3, 5), so each is 90 and:
# - 555 666 777 678 + 44, 678 completed: Three Concealed Triplets 30 and Three Consecutive
#   Triplets 100: 90 + 130 = 220. The chosen one.
# - 567 567 567 678 + 44, 567 or 678 completed: All Sequences 5 and Three Identical Sequences
#   120: 90 + 125 = 215, twice.
# - 555 666 777 678 + 44, 666 completed (exposed): Two Concealed Triplets 5 and 100: 195.
# - 456 456 567 678 + 77, 456, 567 or 678 completed: All Sequences 5 and Two Identical
#   Sequences 10: 90 + 15 = 105, three times.
FIVE_OF_SIX = request("44555666677778m", "6m", by="discard", seat="S", discarder="W")


def written(reading: dict[str, Any]) -> tuple[str, ...]:
    """A reading's sets, the one the winning tile completed marked with *, and its pair."""
    sets = [s["tiles"] + "*" * s["completed_by_win"] for s in reading["sets"]]
    return (*sorted(sets), reading["pair"])


def test_at_most_five_alternatives() -> None:
    result = explained(FIVE_OF_SIX)
    assert (result["score"], written(result["hand"])) == (
        220, ("555m", "666m", "678m*", "777m", "44m")
    )  # fmt: skip
    assert pattern_points(result) == {"1.2": 5, "1.3": 5, "2.1.2": 80, "4.2.2": 30, "7.2.1": 100}
    others = result["alternatives"]
    # The six others, best first, but for one of the three at 105.
    assert [(a["score"], a["points"]) for a in others] == [
        (215, 215), (215, 215), (195, 195), (105, 105), (105, 105)
    ]  # fmt: skip
    identical = {"1.1": 5, "1.2": 5, "1.3": 5, "2.1.2": 80}
    assert [pattern_points(a) for a in others] == [
        {**identical, "5.1.3": 120},
        {**identical, "5.1.3": 120},
        {"1.2": 5, "1.3": 5, "2.1.2": 80, "4.2.1": 5, "7.2.1": 100},
        {**identical, "5.1.1": 10},
        {**identical, "5.1.1": 10},
    ]
    readings = [written(a) for a in others]
    assert set(readings[:2]) == {
        ("567m", "567m", "567m*", "678m", "44m"), ("567m", "567m", "567m", "678m*", "44m")
    }  # fmt: skip
    assert readings[2] == ("555m", "666m*", "678m", "777m", "44m")
    at_105 = {
        ("456m", "456m*", "567m", "678m", "77m"),
        ("456m", "456m", "567m*", "678m", "77m"),
        ("456m", "456m", "567m", "678m*", "77m"),
    }
    assert len(set(readings[3:])) == 2 and set(readings[3:]) <= at_105


def test_without_explain_nothing_changes() -> None:
    plain = engine.score(TRIPLETS_OR_CHOWS)
    assert "alternatives" not in plain
    assert "alternatives" not in engine.score({**TRIPLETS_OR_CHOWS, "explain": False})
    assert {k: v for k, v in explained(TRIPLETS_OR_CHOWS).items() if k != "alternatives"} == plain


def test_one_reading_has_no_alternative() -> None:
    assert explained(request("19m19p19s12345677z", "7z"))["alternatives"] == []


def test_explain_over_http_and_in_a_batch(client: FlaskClient) -> None:
    answer = client.post("/v1/score", json={**SEVEN_OR_SETS, "explain": True})
    assert answer.status_code == 200
    assert [a["score"] for a in answer.get_json()["alternatives"]] == [115]
    items = [{**SEVEN_OR_SETS, "explain": True}, SEVEN_OR_SETS, {**SEVEN_OR_SETS, "explain": 1}]
    results = client.post("/v1/score/batch", json={"items": items}).get_json()["results"]
    assert [a["score"] for a in results[0]["body"]["alternatives"]] == [115]
    assert "alternatives" not in results[1]["body"]
    assert results[2]["status"] == 422
    assert results[2]["body"]["errors"] == [{"path": "explain", "message": "must be true or false"}]


def check_alternatives(payload: dict[str, Any]) -> None:
    result = explained(payload)
    chosen = (result["score"], result["points"])
    others = result["alternatives"]
    assert len(others) <= 5
    worth = [(a["score"], a["points"]) for a in others]
    assert all(w <= chosen for w in worth), (chosen, worth)
    assert worth == sorted(worth, reverse=True)
    shapes = [shape(a) for a in others]
    assert len(set(shapes)) == len(shapes), shapes
    assert shape(result["hand"]) not in shapes
    # The first of the ranked readings is the one chosen, the same object for object.
    loaded = load(ScoreRequestSchema(), payload)
    best = scoring.score(loaded.hand, loaded.win, loaded.rules)
    first = scoring.ranked(best.situation)[0].arrangement
    assert (first.form, first.pair, first.pairs, first.winning) == (
        best.arrangement.form, best.arrangement.pair, best.arrangement.pairs,
        best.arrangement.winning,
    )  # fmt: skip
    assert [m.order() for m in first.sets] == [m.order() for m in best.arrangement.sets]
    for other in others:
        for pattern in other["patterns"]:
            assert pattern["points"] == pattern["value"] * pattern["count"]
        assert other["points"] == sum(p["points"] for p in other["patterns"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(score_requests())
def test_alternatives_are_never_better_nor_twice(payload: dict[str, Any]) -> None:
    check_alternatives(payload)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(house_rule_requests())
def test_alternatives_under_house_rules_are_never_better(payload: dict[str, Any]) -> None:
    check_alternatives(payload)


# ---- Worked examples ---------------------------------------------------------------------


@pytest.mark.parametrize("version", list(VERSIONS))
def test_every_example_counts_its_pattern(version: str) -> None:
    listed = catalogue.patterns({"version": version})["patterns"]
    assert [entry["id"] for entry in listed] == [p.id for p in CATALOGUE]
    for entry in listed:
        example = entry["example"]
        assert example["rules"]["version"] == version
        result = engine.score(example)
        counted = [p["id"] for p in result["patterns"]]
        assert entry["id"] in counted, (version, entry["id"], counted)


def test_an_example_is_a_score_request() -> None:
    (three_winds,) = [
        entry for entry in catalogue.patterns({})["patterns"] if entry["id"] == "3.3.4"
    ]
    assert three_winds["example"] == {
        "hand": {"tiles": "55m111222333444z", "winning_tile": "5m"},
        "win": {"by": "self_draw", "seat": "S"},
        "rules": {"version": "3.3"},
    }
    (flowers,) = [
        e for e in catalogue.patterns({"version": "2.51"})["patterns"] if e["id"] == "11.2.1"
    ]
    assert flowers["example"] == {
        "hand": {"tiles": "123m789p23455s", "winning_tile": "4s",
                 "melds": [{"kind": "pung", "tiles": "777z"}], "flowers": [1, 2, 3, 4]},
        "win": {"by": "self_draw", "seat": "S"},
        "rules": {"version": "2.51", "bonus_tiles": True},
    }  # fmt: skip


def test_the_chicken_hand_has_an_example_too() -> None:
    example = scoring.CHICKEN.example
    payload = request(example.tiles, example.winning_tile, seat=example.seat, melds=example.melds)
    assert pattern_points(engine.score(payload)) == {"0": 1}


def test_the_catalogue_serves_the_examples(client: FlaskClient) -> None:
    listed = client.get("/v1/patterns?version=2.51").get_json()["patterns"]
    assert all(entry["example"]["rules"]["version"] == "2.51" for entry in listed)
