"""RULES.md §5 payments: every payoff scheme, responsible player, pay-as-self-draw, robbing a kong.

Hand values are worked out by hand from ../shared/RULES.md; payments from §5:
- formal (S = standard value, default 25): self-draw or value <= S: each other pays the value;
  discard above S: the two uninvolved pay S each, the responsible player 3 x value - 2 x S.
- uniform: each other pays the value.
- discarder_pays_all: discard: responsible 3 x value, others 0; self-draw: each pays the value.
- discarder_pays_double: discard: responsible 6 x, others 3 x; self-draw: each 4 x.
The winner sits South unless said otherwise; discards come from West.
"""

from __future__ import annotations

from typing import Any

import pytest

from .support.hands import check, paths, problem, request, score_hand

# value 1: chicken hand, 111z (East, not South's wind) 456p 789s 234p + 55s
WORTH_1: dict[str, Any] = {"tiles": "456p789s234p55s", "win": "5s", "melds": [("pung", "111z")]}
# value 25: 2222p 5555s (exposed kongs) 234m 678p + 88s: 4.3.2 20 + 1.3 5 = 25
WORTH_25: dict[str, Any] = {
    "tiles": "234m678p88s",
    "win": "8s",
    "melds": [("kong", "2222p"), ("kong", "5555s")],
}
# value 20: 2222p 5555s (exposed kongs) 123m 789p + 99s: 4.3.2 20
WORTH_20: dict[str, Any] = {
    "tiles": "123m789p99s",
    "win": "9s",
    "melds": [("kong", "2222p"), ("kong", "5555s")],
}
# value 26 (bonus tiles, winner South): 4.3.2 20 + flower 2 proper 4 + season 1 improper 2 = 26
WORTH_26: dict[str, Any] = {**WORTH_20, "flowers": [2], "seasons": [1]}
# value 320: 555z 666z 777z(exposed) 111m + 99m: 3.1 30 + 3.2.2 130 + 2.1.1 40 + 4.1 30
# + 8.1.3 100 = 330 -> capped 320
WORTH_320: dict[str, Any] = {
    "tiles": "111m99m",
    "win": "9m",
    "melds": [("pung", "555z"), ("pung", "666z"), ("pung", "777z")],
}
# value 480: Nine Gates 1112345678999m + 1m (discard) or + 5m (self-draw)
WORTH_480_DISCARD: dict[str, Any] = {"tiles": "11112345678999m", "win": "1m"}
WORTH_480_SELF: dict[str, Any] = {"tiles": "11123455678999m", "win": "5m"}
# value 40: 333z(exposed, West) 123m 456m 678m + 11z: 2.1.1 40 (same in v2.51)
WORTH_40: dict[str, Any] = {"tiles": "123m456m678m11z", "win": "1z", "melds": [("pung", "333z")]}
# value 15: 567s(exposed) 234p 234p 789m + 11z: 1.1 5 + 5.1.1 10 = 15 (same in v2.51)
WORTH_15: dict[str, Any] = {"tiles": "234p234p789m11z", "win": "1z", "melds": [("chow", "567s")]}


def pay(
    hand: dict[str, Any],
    by: str,
    payoff: str | None = None,
    standard_value: int | None = None,
    seat: str = "S",
    discarder: str | None = "W",
    version: str | None = None,
    **flags: Any,
) -> dict[str, Any]:
    rules: dict[str, Any] = {}
    if payoff is not None:
        rules["payoff"] = payoff
    if standard_value is not None:
        rules["standard_value"] = standard_value
    if version is not None:
        rules["version"] = version
    if "flowers" in hand:
        rules["bonus_tiles"] = True
    kw = {k: v for k, v in hand.items() if k not in ("tiles", "win")}
    if by == "self_draw":
        discarder = None
    result = score_hand(
        hand["tiles"],
        hand["win"],
        by,
        seat=seat,
        discarder=discarder,
        rules=rules or None,
        **kw,
        **flags,
    )
    payments = result["payments"]
    assert set(payments) == {"E", "S", "W", "N"}
    assert sum(payments.values()) == 0
    return result


def ESWN(e: int, s: int, w: int, n: int) -> dict[str, int]:
    return {"E": e, "S": s, "W": w, "N": n}


# ---- hand values (sanity: the values the payment cases rest on) ------------------------------


@pytest.mark.parametrize(
    ("hand", "by", "value"),
    [
        pytest.param(WORTH_1, "discard", 1, id="v1"),
        pytest.param(WORTH_25, "discard", 25, id="v25"),
        pytest.param(WORTH_26, "discard", 26, id="v26"),
        pytest.param(WORTH_320, "discard", 320, id="v320"),
        pytest.param(WORTH_480_DISCARD, "discard", 480, id="v480-discard"),
        pytest.param(WORTH_480_SELF, "self_draw", 480, id="v480-self"),
        pytest.param(WORTH_40, "discard", 40, id="v40"),
        pytest.param(WORTH_15, "discard", 15, id="v15"),
    ],
)
def test_hand_value(hand: dict[str, Any], by: str, value: int) -> None:
    assert pay(hand, by)["score"] == value


def test_v26_breakdown() -> None:
    # 4.3.2 20 + 11.1.2 (flower 2) 4 + 11.1.1 (season 1) 2 = 26
    check(pay(WORTH_26, "discard"), {"4.3.2": 20, "11.1.2": 4, "11.1.1": 2}, 26)


# ---- formal, standard value 25 (the default) -------------------------------------------------

FORMAL = [
    # value 1, self-draw: each pays 1, South +3
    pytest.param(WORTH_1, "self_draw", ESWN(-1, 3, -1, -1), id="1-self"),
    # value 1, discard (<= 25): each pays 1
    pytest.param(WORTH_1, "discard", ESWN(-1, 3, -1, -1), id="1-discard"),
    # value 25, discard (= S): each pays 25, South +75
    pytest.param(WORTH_25, "discard", ESWN(-25, 75, -25, -25), id="25-discard-at-standard"),
    pytest.param(WORTH_25, "self_draw", ESWN(-25, 75, -25, -25), id="25-self"),
    # value 26, discard: E, N 25 each; West 3 x 26 - 2 x 25 = 28; South +78
    pytest.param(WORTH_26, "discard", ESWN(-25, 78, -28, -25), id="26-discard-above-standard"),
    # value 26, self-draw: each 26
    pytest.param(WORTH_26, "self_draw", ESWN(-26, 78, -26, -26), id="26-self"),
    # value 320, discard: West 960 - 50 = 910, E, N 25; South +960
    pytest.param(WORTH_320, "discard", ESWN(-25, 960, -910, -25), id="320-discard"),
    pytest.param(WORTH_320, "self_draw", ESWN(-320, 960, -320, -320), id="320-self"),
    # value 480, discard: West 1440 - 50 = 1390, E, N 25; South +1440
    pytest.param(WORTH_480_DISCARD, "discard", ESWN(-25, 1440, -1390, -25), id="480-discard"),
    pytest.param(WORTH_480_SELF, "self_draw", ESWN(-480, 1440, -480, -480), id="480-self"),
]


@pytest.mark.parametrize(("hand", "by", "payments"), FORMAL)
def test_formal_default(hand: dict[str, Any], by: str, payments: dict[str, int]) -> None:
    assert pay(hand, by)["payments"] == payments
    assert pay(hand, by, payoff="formal", standard_value=25)["payments"] == payments


def test_formal_rules_echoed_with_defaults() -> None:
    rules = pay(WORTH_1, "discard")["rules"]
    assert rules["payoff"] == "formal"
    assert rules["standard_value"] == 25


@pytest.mark.parametrize(
    ("hand", "by", "standard", "payments"),
    [
        # S = 10, value 25 discard: E, N 10; West 75 - 20 = 55
        pytest.param(WORTH_25, "discard", 10, ESWN(-10, 75, -55, -10), id="25-over-10"),
        # S = 10, value 25 self-draw: each 25
        pytest.param(WORTH_25, "self_draw", 10, ESWN(-25, 75, -25, -25), id="25-self-over-10"),
        # S = 26, value 26 discard (at S): each 26
        pytest.param(WORTH_26, "discard", 26, ESWN(-26, 78, -26, -26), id="26-at-26"),
        # S = 100, value 26 discard (below S): each 26
        pytest.param(WORTH_26, "discard", 100, ESWN(-26, 78, -26, -26), id="26-under-100"),
        # S = 1, value 26 discard: E, N 1; West 78 - 2 = 76
        pytest.param(WORTH_26, "discard", 1, ESWN(-1, 78, -76, -1), id="26-over-1"),
        # S = 1, value 1 discard (at S): each 1
        pytest.param(WORTH_1, "discard", 1, ESWN(-1, 3, -1, -1), id="1-at-1"),
    ],
)
def test_formal_other_standard_values(
    hand: dict[str, Any], by: str, standard: int, payments: dict[str, int]
) -> None:
    assert pay(hand, by, payoff="formal", standard_value=standard)["payments"] == payments


def test_formal_v251_standard_30_example() -> None:
    # v2.51 §0.1: S = 30, a 40-point hand on a discard: discarder 30 + 10 x 3 = 60,
    # the two others 30 each (3 x 40 - 2 x 30 = 60)
    result = pay(WORTH_40, "discard", payoff="formal", standard_value=30, version="2.51")
    assert result["score"] == 40
    assert result["payments"] == ESWN(-30, 120, -60, -30)
    # a 15-point hand: everyone pays 15 regardless of who discarded
    result = pay(WORTH_15, "discard", payoff="formal", standard_value=30, version="2.51")
    assert result["score"] == 15
    assert result["payments"] == ESWN(-15, 45, -15, -15)


def test_formal_other_winner_and_discarder() -> None:
    # East wins the 26 hand on North's discard: flower 2 improper 2 + season 1 proper to East 4
    # + 4.3.2 20 = 26; N 3 x 26 - 50 = 28, S and W 25 each, East +78
    result = pay(WORTH_26, "discard", seat="E", discarder="N")
    assert result["score"] == 26
    assert result["payments"] == ESWN(78, -25, -25, -28)


# ---- uniform ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "by", "payments"),
    [
        pytest.param(WORTH_1, "discard", ESWN(-1, 3, -1, -1), id="1-discard"),
        pytest.param(WORTH_26, "discard", ESWN(-26, 78, -26, -26), id="26-discard"),
        pytest.param(WORTH_26, "self_draw", ESWN(-26, 78, -26, -26), id="26-self"),
        pytest.param(WORTH_320, "discard", ESWN(-320, 960, -320, -320), id="320-discard"),
        pytest.param(WORTH_480_DISCARD, "discard", ESWN(-480, 1440, -480, -480), id="480-discard"),
    ],
)
def test_uniform(hand: dict[str, Any], by: str, payments: dict[str, int]) -> None:
    assert pay(hand, by, payoff="uniform")["payments"] == payments


# ---- discarder pays all ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "by", "payments"),
    [
        # discard: West 3 x value, others 0
        pytest.param(WORTH_1, "discard", ESWN(0, 3, -3, 0), id="1-discard"),
        pytest.param(WORTH_25, "discard", ESWN(0, 75, -75, 0), id="25-discard"),
        pytest.param(WORTH_26, "discard", ESWN(0, 78, -78, 0), id="26-discard"),
        pytest.param(WORTH_320, "discard", ESWN(0, 960, -960, 0), id="320-discard"),
        pytest.param(WORTH_480_DISCARD, "discard", ESWN(0, 1440, -1440, 0), id="480-discard"),
        # self-draw: each pays the value
        pytest.param(WORTH_26, "self_draw", ESWN(-26, 78, -26, -26), id="26-self"),
        pytest.param(WORTH_480_SELF, "self_draw", ESWN(-480, 1440, -480, -480), id="480-self"),
    ],
)
def test_discarder_pays_all(hand: dict[str, Any], by: str, payments: dict[str, int]) -> None:
    assert pay(hand, by, payoff="discarder_pays_all")["payments"] == payments


# ---- discarder pays double -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "by", "payments"),
    [
        # discard: West 6 x, others 3 x; the winner gets 12 x
        pytest.param(WORTH_1, "discard", ESWN(-3, 12, -6, -3), id="1-discard"),
        pytest.param(WORTH_25, "discard", ESWN(-75, 300, -150, -75), id="25-discard"),
        pytest.param(WORTH_26, "discard", ESWN(-78, 312, -156, -78), id="26-discard"),
        pytest.param(WORTH_320, "discard", ESWN(-960, 3840, -1920, -960), id="320-discard"),
        pytest.param(
            WORTH_480_DISCARD, "discard", ESWN(-1440, 5760, -2880, -1440), id="480-discard"
        ),
        # self-draw: each 4 x
        pytest.param(WORTH_1, "self_draw", ESWN(-4, 12, -4, -4), id="1-self"),
        pytest.param(WORTH_26, "self_draw", ESWN(-104, 312, -104, -104), id="26-self"),
    ],
)
def test_discarder_pays_double(hand: dict[str, Any], by: str, payments: dict[str, int]) -> None:
    assert pay(hand, by, payoff="discarder_pays_double")["payments"] == payments


# ---- responsible player ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("payoff", "payments"),
    [
        # formal, value 26, West discarded but North is responsible: N 78 - 50 = 28,
        # E and W 25 each
        pytest.param("formal", ESWN(-25, 78, -25, -28), id="formal"),
        pytest.param("uniform", ESWN(-26, 78, -26, -26), id="uniform"),
        pytest.param("discarder_pays_all", ESWN(0, 78, 0, -78), id="discarder-pays-all"),
        pytest.param("discarder_pays_double", ESWN(-78, 312, -78, -156), id="pays-double"),
    ],
)
def test_responsible_other_than_discarder(payoff: str, payments: dict[str, int]) -> None:
    result = pay(WORTH_26, "discard", payoff=payoff, responsible="N")
    assert result["score"] == 26
    assert result["payments"] == payments


def test_responsible_same_as_discarder() -> None:
    # naming the discarder changes nothing: formal 26: W 28, E and N 25
    result = pay(WORTH_26, "discard", responsible="W")
    assert result["payments"] == ESWN(-25, 78, -28, -25)


def test_responsible_on_a_small_hand() -> None:
    # formal, value 25 <= S: each pays 25 whoever is responsible
    assert pay(WORTH_25, "discard", responsible="N")["payments"] == ESWN(-25, 75, -25, -25)


# ---- pay as self-draw ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("payoff", "payments"),
    [
        # the 26 hand won on West's discard, paid as a self-draw
        pytest.param("formal", ESWN(-26, 78, -26, -26), id="formal"),
        pytest.param("uniform", ESWN(-26, 78, -26, -26), id="uniform"),
        pytest.param("discarder_pays_all", ESWN(-26, 78, -26, -26), id="discarder-pays-all"),
        pytest.param("discarder_pays_double", ESWN(-104, 312, -104, -104), id="pays-double"),
    ],
)
def test_pay_as_self_draw(payoff: str, payments: dict[str, int]) -> None:
    result = pay(WORTH_26, "discard", payoff=payoff, pay_as_self_draw=True)
    assert result["score"] == 26
    assert result["payments"] == payments


def test_pay_as_self_draw_false_is_the_default() -> None:
    result = pay(WORTH_26, "discard", pay_as_self_draw=False)
    assert result["payments"] == ESWN(-25, 78, -28, -25)


# ---- robbing a kong --------------------------------------------------------------------------


def test_robbing_a_kong_owner_pays() -> None:
    # West adds a kong of 2m; South's 2m completes 123m (South holds no other 2m):
    # 4.3.2 20 + 9.3 10 = 30; formal: W 90 - 50 = 40, E and N 25, South +90
    hand = {**WORTH_20, "win": "2m"}
    result = pay(hand, "discard", robbing_kong=True)
    check(result, {"4.3.2": 20, "9.3": 10}, 30)
    assert result["payments"] == ESWN(-25, 90, -40, -25)


def test_robbing_a_kong_owner_pays_all() -> None:
    hand = {**WORTH_20, "win": "2m"}
    result = pay(hand, "discard", payoff="discarder_pays_all", discarder="N", robbing_kong=True)
    assert result["payments"] == ESWN(0, 90, 0, -90)


# ---- contradictions --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("by", "win"),
    [
        pytest.param("self_draw", {"responsible": "W"}, id="on-a-self-draw"),
        pytest.param("discard", {"discarder": "W", "responsible": "S"}, id="the-winner"),
    ],
)
def test_responsible_is_invalid(by: str, win: dict[str, Any]) -> None:
    hand = WORTH_26
    prob = problem(request(hand["tiles"], hand["win"], by, melds=hand["melds"], **win))
    assert prob.code == "invalid_context"
    assert paths(prob) == ["win.responsible"]


# ---- minimum and bonus-tile mod --------------------------------------------------------------


def test_minimum_5_rejects_a_chicken_hand_with_breakdown() -> None:
    payload = request(
        WORTH_1["tiles"], WORTH_1["win"], "discard", melds=WORTH_1["melds"], rules={"minimum": 5}
    )
    prob = problem(payload)
    assert prob.code == "below_minimum"
    assert prob.status == 422
    assert prob.breakdown is not None
    assert prob.breakdown["score"] == 1
    assert prob.breakdown["points"] == 1
    assert [p["id"] for p in prob.breakdown["patterns"]] == ["0"]
    assert "payments" not in prob.breakdown


def test_minimum_5_accepts_a_5_point_hand() -> None:
    # 2222p(exposed) 123m 456s 789p + 99s: 4.3.1 5; formal discard: each pays 5
    result = score_hand(
        "123m456s789p99s", "9s", "discard", melds=[("kong", "2222p")], rules={"minimum": 5}
    )
    assert result["score"] == 5
    assert result["payments"] == ESWN(-5, 15, -5, -5)


@pytest.mark.parametrize(
    "rules",
    [
        pytest.param(None, id="default-rules"),
        pytest.param({"bonus_tiles": False}, id="bonus-tiles-false"),
    ],
)
@pytest.mark.parametrize("field", ["flowers", "seasons"])
def test_bonus_tiles_without_the_mod_is_invalid(rules: dict | None, field: str) -> None:
    bonus = {field: [1]}
    prob = problem(
        request(
            WORTH_20["tiles"],
            WORTH_20["win"],
            "discard",
            melds=WORTH_20["melds"],
            rules=rules,
            **bonus,
        )
    )
    assert prob.code == "invalid_context"
