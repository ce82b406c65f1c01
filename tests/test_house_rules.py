"""House rules (API.md "House rules", RULES.md §5 formal_double and §6), values worked by hand.

Each field alone, then in combination, then profiles, then the errors. The hands:
- PAIRS_OR_SEQUENCES, 22223344556677p self-drawn: read as 234p 234p 567p 567p + 22p it holds
  All Sequences 5, Concealed Hand 5, No Terminals 5, Pure One-Suit 80 and Two Identical
  Sequences Twice 60 = 155; as Seven Pairs, Seven Pairs 30 + Pure One-Suit 80 + No Terminals 5
  = 115 (v3.3: no Concealed Hand on Seven Pairs). It has no other reading.
- CONSECUTIVE: exposed pungs 111s 222s 333s, 444s and a pair of Red held, self-drawn: Four
  Consecutive Triplets 200 + All Triplets 30 + Mixed One-Suit 40 = 270 (one concealed
  triplet only, and the pair never scores).
- SEVEN_PAIRS: 11 33 55 77 99m 11 22p: only Seven Pairs (30), nothing else.
- CHICKEN: an exposed chow 123m, then 456p 789s 222z 55s self-drawn by East: no pattern (South
  is not East's wind), a Chicken Hand.
- MELDED_SEQUENCES: exposed chows 234p 234p, then 567p 567p 22p self-drawn: All Sequences 5,
  No Terminals 5, Pure One-Suit 80, Two Identical Sequences Twice 60 = 150 (its one reading).
- hands.EXAMPLE: South wins on West's discard with a pung of Red: Value Honor 10 only.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service import create_app, engine
from service.cli import _parser
from service.domain.rules.hand import Rules, Win
from service.domain.rules.patterns import (
    _HOUSE_PLANS,
    _HOUSE_TABLES,
    BY_ID,
    CATALOGUE,
    HOUSE_PLANS,
    HOUSE_TABLES,
    Table,
    table_for,
)
from service.domain.rules.rulesets import (
    _DEFAULT_KEY,
    _HOUSE_RULES,
    _RESOLVED,
    DEFAULT,
    RESOLVED,
    _plain,
    install_profiles,
    profiles,
    resolve,
)
from service.domain.rules.schemes import SCHEMES
from service.domain.rules.versions import V3_3, VERSIONS, Version
from service.domain.scoring.payments import payments
from service.problems import Problem
from service.request import MAX_VALUE, RulesSchema

from .support.contract import ContractClient
from .support.hands import EXAMPLE, check, paths, problem, request, score_hand
from .test_openapi_spec import SPEC

PAIRS_OR_SEQUENCES = ("22223344556677p", "7p")
CONSECUTIVE = dict(
    tiles="444s77z", win="7z", melds=[("pung", "111s"), ("pung", "222s"), ("pung", "333s")]
)
SEVEN_PAIRS = ("1133557799m1122p", "2p")
CHICKEN = dict(tiles="456p789s55s222z", win="5s", seat="E", melds=[("chow", "123m")])
MELDED_SEQUENCES = dict(tiles="22556677p", win="7p", melds=[("chow", "234p"), ("chow", "234p")])

CLUB = {
    "club": {"minimum": 5, "values": {"2.1.2": 100}, "exclude": ["10.1"]},
    "no-chicken": {"chicken": 0, "payoff": "formal_double"},
}


def with_rules(rules: dict[str, Any], base: dict[str, Any] = EXAMPLE) -> dict[str, Any]:
    return {**base, "rules": rules}


# ---- values -----------------------------------------------------------------------------------


def test_a_value_override_is_the_pattern_s_value() -> None:
    result = engine.score(with_rules({"values": {"3.1": 15}}))
    check(result, {"3.1": 15}, 15)
    assert result["payments"] == {"E": -15, "S": 45, "W": -15, "N": -15}
    assert result["rules"]["values"] == {"3.1": 15}


def test_an_override_equal_to_the_version_s_value_changes_nothing_and_is_not_echoed() -> None:
    plain = engine.score(EXAMPLE)
    same = engine.score(with_rules({"values": {"3.1": 10}, "exclude": []}))
    assert same == plain
    assert same["rules"]["values"] == {}


def test_an_override_makes_freedom_of_count_pick_another_reading() -> None:
    default = score_hand(*PAIRS_OR_SEQUENCES)
    assert default["hand"]["form"] == "standard"
    check(default, {"1.1": 5, "1.2": 5, "1.3": 5, "2.1.2": 80, "5.1.2": 60}, 155)
    # Seven Pairs at 100: 100 + 80 + 5 = 185 beats the sequences' 155.
    pairs = score_hand(*PAIRS_OR_SEQUENCES, rules={"values": {"10.2": 100}})
    assert pairs["hand"]["form"] == "seven_pairs"
    check(pairs, {"1.3": 5, "2.1.2": 80, "10.2": 100}, 185)


def test_a_value_of_zero_still_counts_the_pattern() -> None:
    # Not a chicken hand: the hand holds Value Honor, worth nothing at this table.
    result = engine.score(with_rules({"values": {"3.1": 0}}))
    check(result, {"3.1": 0}, 0)
    assert result["payments"] == {"E": 0, "S": 0, "W": 0, "N": 0}


def test_a_value_adds_a_pattern_the_version_lacks() -> None:
    lacking = Version("no-seven-pairs", {k: v for k, v in V3_3.items() if k != "10.2"})
    assert "seven_pairs" not in Table(lacking, {}, ()).wins
    table = Table(lacking, {"10.2": 45}, ())
    assert table.values["10.2"] == 45 and "seven_pairs" in table.wins


def test_an_override_on_a_bonus_tile_is_per_tile() -> None:
    # Flowers 1 and 3, season 2, seat South (2): season 2 proper, the flowers improper.
    result = score_hand(
        *SEVEN_PAIRS, flowers=[1, 3], seasons=[2],
        rules={"bonus_tiles": True, "values": {"11.1.1": 7}},
    )  # fmt: skip
    check(result, {"10.2": 30, "11.1.1": 14, "11.1.2": 4}, 48)


# ---- exclude ----------------------------------------------------------------------------------


def test_an_excluded_pattern_is_never_counted() -> None:
    result = engine.score(with_rules({"exclude": ["3.1"]}))
    check(result, {"0": 1}, 1)  # nothing left: a chicken hand
    assert result["payments"] == {"E": -1, "S": 3, "W": -1, "N": -1}


def test_excluding_seven_pairs_makes_a_seven_pairs_hand_no_winning_hand() -> None:
    check(score_hand(*SEVEN_PAIRS), {"10.2": 30}, 30)
    prob = problem(request(*SEVEN_PAIRS, rules={"exclude": ["10.2"]}))
    assert prob.code == "not_a_winning_hand"
    assert prob.errors == [
        {
            "path": "hand.tiles",
            "message": "1133557799m1122p with 0 melds forms no winning hand: four sets and a"
            " pair or Thirteen Terminals",
        }
    ]


def test_excluding_thirteen_terminals_too_leaves_only_four_sets_and_a_pair() -> None:
    prob = problem(request("19m19p19s12345677z", "7z", rules={"exclude": ["10.2", "10.1"]}))
    assert prob.code == "not_a_winning_hand"
    assert prob.detail.endswith("forms no winning hand: four sets and a pair")


def test_an_excluded_pattern_wins_over_its_value() -> None:
    rules = {"values": {"10.2": 100}, "exclude": ["10.2"]}
    result = score_hand(*PAIRS_OR_SEQUENCES, rules=rules)
    check(result, {"1.1": 5, "1.2": 5, "1.3": 5, "2.1.2": 80, "5.1.2": 60}, 155)


def test_excluding_the_best_of_a_series_counts_the_next() -> None:
    check(score_hand(**MELDED_SEQUENCES), {"1.1": 5, "1.3": 5, "2.1.2": 80, "5.1.2": 60}, 150)
    # Without 5.1.2 the doubled sequences count as Two Identical Sequences (10): 100.
    result = score_hand(**MELDED_SEQUENCES, rules={"exclude": ["5.1.2"]})
    check(result, {"1.1": 5, "1.3": 5, "2.1.2": 80, "5.1.1": 10}, 100)


def test_excluding_a_pattern_makes_freedom_of_count_pick_another_reading() -> None:
    # The sequences without 5.1.2 hold 5.1.1 instead: 105, below Seven Pairs' 115.
    result = score_hand(*PAIRS_OR_SEQUENCES, rules={"exclude": ["5.1.2"]})
    assert result["hand"]["form"] == "seven_pairs"
    check(result, {"1.3": 5, "2.1.2": 80, "10.2": 30}, 115)


def test_the_echo_lists_each_excluded_id_once_in_catalogue_order() -> None:
    result = engine.score(with_rules({"exclude": ["10.2", "1.1", "10.2", "2.2"]}))
    assert result["rules"]["exclude"] == ["1.1", "2.2", "10.2"]


# ---- chicken ----------------------------------------------------------------------------------


def test_chicken_default_and_other_values() -> None:
    check(score_hand(**CHICKEN), {"0": 1}, 1)
    five = score_hand(**CHICKEN, rules={"chicken": 5})
    check(five, {"0": 5}, 5)
    assert five["payments"] == {"E": 15, "S": -5, "W": -5, "N": -5}


def test_chicken_zero_wins_for_nothing() -> None:
    result = score_hand(**CHICKEN, rules={"chicken": 0})
    assert result["patterns"] == [
        {"id": "0", "name": "Chicken Hand", "chinese": "雞糊", "value": 0, "count": 1,
         "points": 0, "reason": "no pattern"}
    ]  # fmt: skip
    assert (result["points"], result["limit"], result["score"]) == (0, "none", 0)
    assert result["payments"] == {"E": 0, "S": 0, "W": 0, "N": 0}


def test_chicken_zero_with_a_minimum_cannot_win() -> None:
    prob = problem(request(**CHICKEN, rules={"chicken": 0, "minimum": 5}))
    assert prob.code == "below_minimum"
    assert prob.errors == [{"path": "rules.minimum", "message": "the hand scores 0 < 5"}]
    assert prob.breakdown is not None and prob.breakdown["score"] == 0
    # A minimum of 1 stops it too; a chicken of 5 meets a minimum of 5.
    assert problem(request(**CHICKEN, rules={"chicken": 0, "minimum": 1})).code == "below_minimum"
    check(score_hand(**CHICKEN, rules={"chicken": 5, "minimum": 5}), {"0": 5}, 5)


# ---- limit ------------------------------------------------------------------------------------


def test_the_default_limit_does_not_touch_270() -> None:
    check(score_hand(**CONSECUTIVE), {"2.1.1": 40, "4.1": 30, "7.2.2": 200}, 270)


def test_a_limit_of_200_makes_the_200_point_pattern_score_alone() -> None:
    result = score_hand(**CONSECUTIVE, rules={"limit": 200})
    check(result, {"7.2.2": 200}, 200, "single_pattern", not_counted=("2.1.1", "4.1"))
    assert [p["id"] for p in result["not_counted"]] == ["2.1.1", "4.1"]


def test_a_pattern_above_the_limit_scores_its_own_value() -> None:
    result = score_hand(**CONSECUTIVE, rules={"limit": 150})
    check(result, {"7.2.2": 200}, 200, "single_pattern", not_counted=("2.1.1", "4.1"))


def test_a_limit_above_every_pattern_caps_the_sum() -> None:
    result = score_hand(**CONSECUTIVE, rules={"limit": 250})
    check(result, {"2.1.1": 40, "4.1": 30, "7.2.2": 200}, 250, "capped")


def test_a_higher_limit_lets_a_capped_hand_score_its_sum() -> None:
    # 111222333444s 55s on a discard of 3s: 5 + 80 + 30 + 30 + 200 = 345, capped at 320 by
    # default; with a limit of 400 it scores all 345.
    hand = ("11122233344455s", "3s", "discard")
    patterns = {"1.2": 5, "2.1.2": 80, "4.1": 30, "4.2.2": 30, "7.2.2": 200}
    check(score_hand(*hand), patterns, 320, "capped")
    check(score_hand(*hand, rules={"limit": 400}), patterns, 345)


def test_a_per_set_pattern_at_the_limit_scores_its_points() -> None:
    # Pungs of Red and White held, Value Honor at 200 with a limit of 200: 2 x 200 alone. Not
    # counted: Concealed Hand, Mixed One-Suit, Small Three Dragons (the pair of Green) and Two
    # Concealed Triplets.
    result = score_hand("555z777z123m456m66z", "6z", rules={"values": {"3.1": 200}, "limit": 200})
    check(result, {"3.1": 400}, 400, "single_pattern")
    assert result["patterns"][0]["count"] == 2
    assert [p["id"] for p in result["not_counted"]] == ["1.2", "2.1.1", "3.2.1", "4.2.1"]


# ---- formal_double (RULES.md §5) ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "by", "expected"),
    [
        # B = min(value, 25), E = max(0, value - 25); the winner (S) gets 3B + 12E.
        (10, "discard", {"E": -10, "S": 30, "W": -10, "N": -10}),
        (10, "self_draw", {"E": -10, "S": 30, "W": -10, "N": -10}),
        (25, "discard", {"E": -25, "S": 75, "W": -25, "N": -25}),
        # 40: B 25, E 15: discarder W 25 + 90 = 115, the others 25 + 45 = 70; S 255.
        (40, "discard", {"E": -70, "S": 255, "W": -115, "N": -70}),
        # 40 self-drawn: each 25 + 60 = 85.
        (40, "self_draw", {"E": -85, "S": 255, "W": -85, "N": -85}),
        (0, "discard", {"E": 0, "S": 0, "W": 0, "N": 0}),
    ],
)
def test_formal_double_payments(value: int, by: str, expected: dict[str, int]) -> None:
    win = Win(by, "S", "W" if by == "discard" else None)  # type: ignore[arg-type]
    assert payments(value, win, Rules(payoff="formal_double")) == expected


def test_formal_double_other_standard_value_responsible_and_paid_as_self_draw() -> None:
    rules = Rules(payoff="formal_double", standard_value=8)
    # 40 with S = 8: B 8, E 32; responsible N pays 8 + 192 = 200, E and W 8 + 96 = 104 each.
    by_north = Win("discard", "S", "W", responsible="N")
    assert payments(40, by_north, rules) == {"E": -104, "S": 408, "W": -104, "N": -200}
    # Paid as a self-draw: each 8 + 128 = 136.
    as_self_draw = Win("discard", "S", "W", pay_as_self_draw=True)
    assert payments(40, as_self_draw, rules) == {"E": -136, "S": 408, "W": -136, "N": -136}


@pytest.mark.parametrize(
    ("by", "rules", "expected"),
    [
        # Value Honor 10, below the standard value: as uniform.
        ("discard", {}, {"E": -10, "S": 30, "W": -10, "N": -10}),
        ("self_draw", {}, {"E": -10, "S": 30, "W": -10, "N": -10}),
        # Value Honor at 40, above it: B 25, E 15, as in the table above.
        ("discard", {"values": {"3.1": 40}}, {"E": -70, "S": 255, "W": -115, "N": -70}),
        ("self_draw", {"values": {"3.1": 40}}, {"E": -85, "S": 255, "W": -85, "N": -85}),
    ],
)
def test_formal_double_end_to_end(by: str, rules: dict[str, Any], expected: dict[str, int]) -> None:
    body = with_rules({**rules, "payoff": "formal_double"})
    if by == "self_draw":
        body["win"] = {"by": "self_draw", "seat": "S"}
    result = engine.score(body)
    assert result["payments"] == expected
    assert result["rules"]["payoff"] == "formal_double"


# ---- all together -------------------------------------------------------------------------------


def test_every_field_at_once() -> None:
    # v2.51 gives Seven Pairs Concealed Hand (5) and Pure One-Suit 100: as pairs, with Seven
    # Pairs at 160, 160 + 5 + 5 + 100 = 270, over the limit of 200 (and no pattern at 200):
    # capped, 200. The sequences without 5.1.2: 5 + 5 + 5 + 100 + 5.1.1's 10 = 125.
    rules = {
        "version": "2.51", "values": {"10.2": 160}, "exclude": ["5.1.2"], "chicken": 0,
        "limit": 200, "payoff": "formal_double", "minimum": 5,
    }  # fmt: skip
    result = score_hand(*PAIRS_OR_SEQUENCES, rules=rules)
    assert result["hand"]["form"] == "seven_pairs"
    check(result, {"1.2": 5, "1.3": 5, "2.1.2": 100, "10.2": 160}, 200, "capped")
    # Self-drawn by South: B 25, E 175: each pays 25 + 700 = 725.
    assert result["payments"] == {"E": -725, "S": 2175, "W": -725, "N": -725}
    assert result["rules"] == {
        "version": "2.51", "payoff": "formal_double", "standard_value": 25, "minimum": 5,
        "bonus_tiles": False, "values": {"10.2": 160}, "exclude": ["5.1.2"], "chicken": 0,
        "limit": 200,
    }  # fmt: skip


def test_the_echo_sent_back_scores_the_same() -> None:
    first = score_hand(*PAIRS_OR_SEQUENCES, rules={"values": {"10.2": 100, "1.1": 5},
                                                   "limit": 150, "exclude": ["1.3"]})  # fmt: skip
    again = score_hand(*PAIRS_OR_SEQUENCES, rules=first["rules"])
    assert again == first


def test_waits_follow_the_house_rules() -> None:
    body: dict[str, Any] = {"hand": {"tiles": "113355779m1122p"}, "win": {"seat": "S"}}
    (wait,) = engine.waits(body)["waits"]
    assert wait["tile"] == "9m" and wait["discard"]["score"] == 30
    (valued,) = engine.waits({**body, "rules": {"values": {"10.2": 50}}})["waits"]
    assert valued["discard"]["score"] == 50
    # Without Seven Pairs the hand waits on nothing: regular, no set and its pairs as four
    # blocks and the pair, 8 - 4 - 1 = 3 from ready.
    without = engine.waits({**body, "rules": {"exclude": ["10.2"]}})
    assert (without["waits"], without["shanten"]) == ([], 3)


def test_batch_items_take_their_own_house_rules() -> None:
    items = [with_rules({"values": {"3.1": 20}}), with_rules({"values": {"3.1": 20000}})]
    first, second = engine.batch({"items": items})["results"]
    assert first["status"] == 200 and first["body"]["score"] == 20
    assert second["status"] == 422
    assert second["body"]["errors"] == [
        {"path": "rules.values.3.1", "message": "must be from 0 to 10000"}
    ]


# ---- errors -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "errors"),
    [
        (
            {"values": {"2.1.9": 100}},
            [("rules.values.2.1.9", "'2.1.9' is not a pattern id: the ids are those of GET"
              " /v1/patterns, 1.1 to 11.2.2 (2.1.x: 2.1.1, 2.1.2)")],
        ),
        ({"values": {"2.1.2": 10_001}}, [("rules.values.2.1.2", "must be from 0 to 10000")]),
        ({"values": {"2.1.2": -1}}, [("rules.values.2.1.2", "must be from 0 to 10000")]),
        ({"values": {"2.1.2": 2.5}}, [("rules.values.2.1.2", "must be an integer")]),
        ({"values": {"2.1.2": None}}, [("rules.values.2.1.2", "must not be null")]),
        (
            {"values": ["2.1.2"]},
            [("rules.values", 'must be an object of pattern ids and points: {"2.1.2": 100}')],
        ),
        ({"values": {str(n): 1 for n in range(49)}},
         [("rules.values", "at most 48 entries, one per pattern")]),
        (
            {"exclude": ["10.2", "0"]},
            [("rules.exclude[1]", "'0' is not a pattern id: the ids are those of GET"
              " /v1/patterns, 1.1 to 11.2.2")],
        ),
        ({"exclude": "10.2"}, [("rules.exclude", "must be a list")]),
        ({"exclude": ["1.1"] * 49}, [("rules.exclude", "at most 48 items")]),
        ({"chicken": -1}, [("rules.chicken", "must be from 0 to 10000")]),
        ({"limit": 0}, [("rules.limit", "must be from 1 to 10000")]),
        ({"limit": True}, [("rules.limit", "must be an integer")]),
        ({"payoff": "formal_triple"}, [("rules.payoff", "must be one of: formal, uniform,"
          " discarder_pays_all, discarder_pays_double, formal_double")]),
        (
            {"profile": "club"},
            [("rules.profile", "not a profile of this server (it loaded none; GET /v1/rules"
              " lists them)")],
        ),
    ],
)  # fmt: skip
def test_a_bad_house_rule_is_invalid_request_at_its_path(
    rules: dict[str, Any], errors: list[tuple[str, str]]
) -> None:
    prob = problem(with_rules(rules))
    assert (prob.code, prob.status) == ("invalid_request", 422)
    assert [(e["path"], e["message"]) for e in prob.errors] == errors


def test_every_bad_field_is_listed() -> None:
    prob = problem(with_rules({"values": {"2.1.9": 1, "3.1": "x"}, "exclude": ["1.1", "x"]}))
    assert paths(prob) == ["rules.values.2.1.9", "rules.values.3.1", "rules.exclude[1]"]


# ---- profiles -----------------------------------------------------------------------------------


@pytest.fixture
def club() -> Iterator[None]:
    install_profiles(CLUB)
    yield
    install_profiles({})


@pytest.fixture
def club_client(tmp_path: Path) -> Iterator[FlaskClient]:
    path = tmp_path / "profiles.json"
    path.write_text(json.dumps(CLUB), encoding="utf-8")
    app: Flask = create_app({"TESTING": True, "PROFILES": str(path)})
    app.test_client_class = ContractClient
    with app.test_client() as client:
        yield client
    install_profiles({})


def test_a_profile_applies_its_fields(club: None) -> None:
    result = engine.score(with_rules({"profile": "club"}))
    check(result, {"3.1": 10}, 10)
    assert result["rules"] == {
        "version": "3.3", "payoff": "formal", "standard_value": 25, "minimum": 5,
        "bonus_tiles": False, "values": {"2.1.2": 100}, "exclude": ["10.1"], "chicken": 1,
        "limit": 320, "profile": "club",
    }  # fmt: skip


def test_a_profile_s_values_apply(club: None) -> None:
    # 22223344556677p under the club: Pure One-Suit 100, so 175.
    result = score_hand(*PAIRS_OR_SEQUENCES, rules={"profile": "club"})
    check(result, {"1.1": 5, "1.2": 5, "1.3": 5, "2.1.2": 100, "5.1.2": 60}, 175)


def test_the_request_s_values_add_to_the_profile_s(club: None) -> None:
    rules = {"profile": "club", "values": {"10.2": 100}}
    result = score_hand(*PAIRS_OR_SEQUENCES, rules=rules)
    # Pairs: 100 + 100 + 5 = 205 against the sequences' 175.
    check(result, {"1.3": 5, "2.1.2": 100, "10.2": 100}, 205)
    assert result["rules"]["values"] == {"2.1.2": 100, "10.2": 100}
    # The request's own value of a pattern wins over the profile's.
    mine = score_hand(*PAIRS_OR_SEQUENCES, rules={"profile": "club", "values": {"2.1.2": 90}})
    assert mine["score"] == 165


def test_the_request_s_other_fields_replace_the_profile_s(club: None) -> None:
    # The club's minimum 5 stops a chicken hand; the request's minimum 0 lets it win.
    assert problem(request(**CHICKEN, rules={"profile": "club"})).code == "below_minimum"
    check(score_hand(**CHICKEN, rules={"profile": "club", "minimum": 0}), {"0": 1}, 1)
    # The club plays no Thirteen Terminals; a request's own exclude list replaces its.
    thirteen = ("19m19p19s12345677z", "7z")
    assert problem(request(*thirteen, rules={"profile": "club"})).code == "not_a_winning_hand"
    check(score_hand(*thirteen, rules={"profile": "club", "exclude": []}), {"10.1": 160}, 160)


def test_a_profile_s_override_equal_to_the_version_s_value_is_dropped(club: None) -> None:
    # 2.51 values Pure One-Suit 100 already.
    result = engine.score(with_rules({"profile": "club", "version": "2.51"}))
    assert result["rules"]["values"] == {}


def test_a_profile_of_other_fields(club: None) -> None:
    result = score_hand(**CHICKEN, rules={"profile": "no-chicken"})
    check(result, {"0": 0}, 0)
    assert result["rules"]["payoff"] == "formal_double"


def test_a_profile_s_table_is_built_once(club: None) -> None:
    club_rules = profiles()["club"]
    pinned = table_for(club_rules)
    assert table_for(resolve({"profile": "club"})) is pinned
    # Clients' own rule sets cannot push it out: theirs are kept in a bounded cache.
    _HOUSE_TABLES.cache_clear()
    for value in range(2 * HOUSE_TABLES + 3):
        table_for(resolve({"values": {"1.1": 1000 + value}}))  # none the official value
    assert len(_HOUSE_TABLES) == 3  # emptied when full, twice
    assert table_for(club_rules) is pinned


def test_the_plans_of_house_rules_are_bounded_and_a_profile_s_kept(club: None) -> None:
    _HOUSE_PLANS.cache_clear()
    for value in range(HOUSE_PLANS + 10):  # a table, and so a plan, per value
        engine.score(with_rules({"values": {"3.1": 1000 + value}}))
    assert len(_HOUSE_PLANS) == 10  # emptied when full, then ten more
    assert table_for(resolve({"values": {"3.1": 7}})).plans == {}  # in the shared cache
    engine.score(with_rules({"profile": "club"}))
    assert len(table_for(profiles()["club"]).plans) == 1


def test_plain_rules_are_resolved_once_and_kept_within_bounds() -> None:
    _RESOLVED.cache_clear()
    uniform = resolve({"payoff": "uniform", "minimum": 5})
    assert resolve({"minimum": 5, "payoff": "uniform"}) is uniform
    assert uniform == Rules(payoff="uniform", minimum=5)
    # Kept by what they resolve to: a default given or left out is the same rules.
    assert resolve({"payoff": "uniform", "minimum": 5, "version": "3.3", "limit": 320}) is uniform
    # Rules with house rules of their own are kept apart, by what they resolve to.
    house = resolve({"values": {"1.1": 7}, "exclude": ["2.2", "1.3"]})
    assert resolve({"exclude": ["1.3", "2.2", "1.3"], "values": {"1.1": 7}}) is house
    assert resolve({"values": {"1.1": 8}, "exclude": ["2.2", "1.3"]}) is not house
    assert len(_RESOLVED) == 1
    _HOUSE_RULES.cache_clear()
    for value in range(2 * RESOLVED + 2):
        resolve({"values": {"1.1": 1 + value}})
    assert len(_HOUSE_RULES) == 2  # emptied when full, twice
    for value in range(2 * RESOLVED + 2):  # with the uniform rules, 2 x RESOLVED + 3
        resolve({"standard_value": 1 + value})
    assert len(_RESOLVED) == 3  # emptied when full, twice


def test_plain_rules_are_told_apart_by_every_field() -> None:
    # Plain rules are kept by what they resolve to, packed into one int: the extremes a
    # request may give, field by field and together, share a key only where they resolve
    # alike, and each resolves to its fields.
    choices: dict[str, tuple[Any, ...]] = {
        "version": (None, *VERSIONS),
        "payoff": (None, *SCHEMES),
        "standard_value": (None, 1, 1_000_000),
        "minimum": (None, 0, 1_000),
        "bonus_tiles": (None, False, True),
        "chicken": (None, 0, MAX_VALUE),
        "limit": (None, 1, MAX_VALUE),
    }
    _RESOLVED.cache_clear()
    seen: dict[int, dict[str, Any]] = {}
    for given in itertools.product(*choices.values()):
        named = zip(choices, given, strict=True)
        fields = {name: value for name, value in named if value is not None}
        whole = {**DEFAULT.as_dict(), **fields}
        assert seen.setdefault(_plain(*given, _DEFAULT_KEY), whole) == whole
        resolved = resolve(fields)
        assert resolved is resolve(dict(reversed(fields.items())))
        assert resolved == Rules(**whole)
    # A value no request may give does not spoil the table: it is resolved, not kept.
    assert _plain(None, None, -1, None, None, None, None, _DEFAULT_KEY) < 0
    assert resolve({"standard_value": 1 << 30}).standard_value == 1 << 30
    # The key is a machine word (memo.IntMemo): a limit past 1,022 does not fit it, and its
    # rules are kept as house rules are.
    assert 0 <= _plain(None, None, None, None, None, None, 1_022, _DEFAULT_KEY) < 1 << 63
    assert _plain(None, None, None, None, None, None, 1_023, _DEFAULT_KEY) < 0
    assert resolve({"limit": 5_000}) is resolve({"limit": 5_000})


def test_rules_resolved_from_a_profile_follow_its_reinstallation() -> None:
    try:
        install_profiles({"table": {"payoff": "uniform"}})
        assert resolve({"profile": "table"}).payoff == "uniform"
        install_profiles({"table": {"payoff": "discarder_pays_all"}})
        assert resolve({"profile": "table"}).payoff == "discarder_pays_all"
    finally:
        install_profiles({})


def test_the_same_house_rules_share_one_table() -> None:
    first = table_for(resolve({"values": {"1.1": 7}, "exclude": ["2.2", "1.3"]}))
    again = table_for(resolve({"exclude": ["1.3", "2.2", "1.3"], "values": {"1.1": 7}}))
    assert again is first


def test_get_rules_lists_the_profiles(club_client: FlaskClient) -> None:
    body = club_client.get("/v1/rules").get_json()
    assert [p["name"] for p in body["profiles"]] == ["club", "no-chicken"]
    assert body["profiles"][0]["rules"]["values"] == {"2.1.2": 100}
    assert body["profiles"][1]["rules"]["chicken"] == 0


def test_get_rules_without_profiles(client: FlaskClient) -> None:
    assert client.get("/v1/rules").get_json()["profiles"] == []


def test_the_catalogue_of_a_profile(club_client: FlaskClient) -> None:
    body = club_client.get("/v1/patterns?profile=club").get_json()
    assert body["rules"]["profile"] == "club" and body["version"] == "3.3"
    by_id = {p["id"]: p for p in body["patterns"]}
    assert len(by_id) == 48
    assert by_id["2.1.2"]["value"] == 100 and by_id["2.1.2"]["excluded"] is False
    assert by_id["10.1"]["value"] == 160 and by_id["10.1"]["excluded"] is True
    assert [p["id"] for p in body["patterns"] if p["excluded"]] == ["10.1"]
    # The version given too overrides the profile's, as in a score request.
    other = club_client.get("/v1/patterns?profile=club&version=2.51").get_json()
    assert other["version"] == "2.51"
    assert {p["id"]: p["value"] for p in other["patterns"]}["10.1"] == 320


def test_a_profile_over_http(club_client: FlaskClient) -> None:
    response = club_client.post("/v1/score", json=with_rules({"profile": "club"}))
    assert response.status_code == 200
    assert response.get_json()["rules"]["profile"] == "club"


def test_an_unknown_profile_is_invalid_request(club_client: FlaskClient) -> None:
    response = club_client.get("/v1/patterns?profile=pub")
    assert response.status_code == 422
    assert response.get_json()["errors"] == [
        {"path": "profile", "message": "not a profile of this server (one of: club, no-chicken;"
         " GET /v1/rules lists them)"}
    ]  # fmt: skip
    scored = club_client.post("/v1/score", json=with_rules({"profile": "pub"}))
    assert scored.status_code == 422
    assert [e["path"] for e in scored.get_json()["errors"]] == ["rules.profile"]


def test_a_profile_cannot_be_given_a_non_string(club: None) -> None:
    with pytest.raises(Problem) as info:
        engine.score(with_rules({"profile": ["club"]}))
    assert paths(info.value) == ["rules.profile"]


# ---- Rules as data: one entry per version, read by every part ----------------------------------


def test_the_contract_s_enums_are_the_data() -> None:
    schemas = SPEC["components"]["schemas"]
    assert schemas["RuleVersion"]["enum"] == list(VERSIONS)
    assert schemas["RuleVersion"]["default"] == DEFAULT.version == next(iter(VERSIONS))
    assert schemas["Payoff"]["enum"] == list(SCHEMES)
    assert schemas["Payoff"]["default"] == DEFAULT.payoff == next(iter(SCHEMES))
    assert schemas["CataloguePatternId"]["enum"] == [p.id for p in CATALOGUE]
    assert schemas["PatternValues"]["maxProperties"] == len(CATALOGUE)
    assert schemas["ExcludedPatterns"]["maxItems"] == len(CATALOGUE)
    for name, default in (("ChickenValue", DEFAULT.chicken), ("ScoreLimit", DEFAULT.limit)):
        assert schemas[name]["default"] == default
        assert schemas[name]["maximum"] == MAX_VALUE


def test_the_schema_and_the_cli_offer_the_data() -> None:
    fields = RulesSchema().fields
    assert list(fields["version"].validate.choices) == list(VERSIONS)  # type: ignore[union-attr]
    assert list(fields["payoff"].validate.choices) == list(SCHEMES)  # type: ignore[union-attr]
    score = next(
        action.choices["score"] for action in _parser()._actions if action.dest == "command"
    )  # type: ignore[index]
    choices = {action.dest: action.choices for action in score._actions}
    assert choices["version"] == list(VERSIONS) and choices["payoff"] == list(SCHEMES)


def test_every_version_values_only_catalogue_patterns() -> None:
    assert set(VERSIONS[DEFAULT.version].values) == set(BY_ID)
    for version in VERSIONS.values():
        assert set(version.values) <= set(BY_ID)
        assert set(version.forms) <= set(BY_ID)


# The profiles the README's and openapi.yaml's examples were run with.
README_CLUB = {
    "club": {"minimum": 5, "values": {"2.1.2": 100, "10.2": 50}, "exclude": ["4.3.1"]},
    "family": {"payoff": "uniform", "chicken": 0},
}
