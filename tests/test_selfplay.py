"""The self-play generator's own invariants (tests/support/selfplay.py): every tile where it
should be, every win it reports a hand that scores, every ending on demand, and each seat's
view showing only what API.md "Hand records" lets that seat see.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings

from service import engine
from service.domain.rules.tiles import parse
from tests.support import selfplay
from tests.support.strategies import shapes

ACTIONS = {
    "draw",
    "discard",
    "chow",
    "pung",
    "kong",
    "concealed_kong",
    "added_kong",
    "flower",
    "season",
    "win",
}


@cache
def hands() -> tuple[selfplay.Played, ...]:
    return tuple(selfplay.corpus(120, seed=7))


def test_every_tile_is_somewhere_once() -> None:
    """4 copies of each kind across the wall, the table, the hands and the melds; each bonus
    tile once with the mod, none without."""
    for played in hands():
        counted = Counter(tile for tiles in played.census.values() for tile in tiles)
        bonus = played.rules.get("bonus_tiles", False)
        expected = {tile: 4 for tile in range(34)} | {tile: 1 for tile in selfplay.BONUS if bonus}
        assert counted == expected


def test_every_win_scores_as_its_request_says() -> None:
    wins = [played for played in hands() if played.end == "win"]
    assert len(wins) > 100
    for played in wins:
        assert played.request is not None
        assert played.request["rules"] == played.rules
        answer = engine.score(played.request)
        assert answer["score"] >= played.rules.get("minimum", 0)


def test_washouts_have_no_request_and_spend_the_wall() -> None:
    washouts = [played for played in hands() if played.end == "washout"]
    assert washouts
    for played in washouts:
        assert played.request is None
        assert played.wall_left == 0
        assert "win" not in played.record["events"][-1]


@pytest.mark.parametrize("ending", selfplay.ENDINGS)
def test_every_ending_on_demand(ending: str) -> None:
    assert ending in selfplay.forced(ending, seed=3).endings


def test_every_ending_in_the_corpus() -> None:
    seen = set().union(*(played.endings for played in hands()))
    assert set(selfplay.ENDINGS) <= seen


def test_records_are_written_as_the_contract_says() -> None:
    for played in hands():
        record = played.record
        assert set(record) == {"deal", "wall", "events"}
        sizes = {seat: len(parse(tiles)) for seat, tiles in record["deal"].items()}
        assert sizes == {"E": 14, "S": 13, "W": 13, "N": 13}
        assert 0 < record["wall"] <= (77 if played.rules.get("bonus_tiles") else 69)
        assert len(record["events"]) <= 400
        for event in record["events"]:
            assert event["seat"] in "ESWN"
            assert len(event) == 2 and set(event) - {"seat"} <= ACTIONS
        last = record["events"][-1]
        assert ("win" in last) == (played.end == "win")


def test_each_view_hides_only_what_the_seat_cannot_see() -> None:
    for played in hands():
        winner = played.request["win"]["seat"] if played.request else None
        for seat, view in played.views.items():
            assert view["wall"] == played.record["wall"]
            assert view["deal"] == {
                other: tiles if other == seat else None
                for other, tiles in played.record["deal"].items()
            }
            for shown, event in zip(view["events"], played.record["events"], strict=True):
                assert shown == _seen_by(seat, event, winner, played.request)


def _seen_by(
    seat: str, event: dict[str, Any], winner: str | None, request: dict[str, Any] | None
) -> dict[str, Any]:
    if event["seat"] == seat:
        return event
    if "draw" in event:
        return {"seat": event["seat"], "draw": None}
    if "win" in event:
        assert request is not None and event["seat"] == winner
        return {**event, "tiles": request["hand"]["tiles"]}
    return event


def test_wins_carry_the_flags_of_their_ending() -> None:
    """Hand-checked: what each forced ending's request must say."""
    flags = {
        "heaven": ("self_draw", "first_turn"),
        "earth": ("discard", "first_turn"),
        "final_draw": ("self_draw", "last_tile"),
        "final_discard": ("discard", "last_tile"),
        "kong_replacement": ("self_draw", "kong_replacement"),
        "robbing_kong": ("discard", "robbing_kong"),
    }
    for ending, (by, flag) in flags.items():
        played = selfplay.forced(ending, seed=5)
        assert played.request is not None
        win = played.request["win"]
        assert win["by"] == by and win[flag] is True
        assert sum(win[f] for f in selfplay.FLAGS) == 1, (ending, win)
        if by == "discard":
            last = win["go_around"][-1]
            assert (last["seat"], last["tile"]) == (win["discarder"], _won_tile(played))
        else:
            assert "go_around" not in win and "discarder" not in win


def _won_tile(played: selfplay.Played) -> str:
    tile: str = played.record["events"][-1]["win"]
    return tile


def test_earth_is_east_first_discard_and_heaven_the_deal() -> None:
    earth = selfplay.forced("earth", seed=1)
    assert earth.request is not None
    first = earth.record["events"][0]
    assert first["seat"] == "E" and "discard" in first
    assert earth.request["win"]["go_around"] == [{"seat": "E", "tile": first["discard"]}]
    assert earth.request["hand"]["melds"] == []
    heaven = selfplay.forced("heaven", seed=1)
    assert heaven.request is not None
    assert heaven.record["events"] == [{"seat": "E", "win": heaven.request["hand"]["winning_tile"]}]
    assert Counter(parse(heaven.request["hand"]["tiles"])) == Counter(
        parse(heaven.record["deal"]["E"])
    )


def test_a_robbed_kong_stays_a_pung() -> None:
    played = selfplay.forced("robbing_kong", seed=2)
    events = played.record["events"]
    robbed = events[-2]
    assert "added_kong" in robbed and events[-1]["win"] == robbed["added_kong"]
    assert played.request is not None
    assert played.request["win"]["discarder"] == robbed["seat"]


def test_a_contested_discard_goes_to_the_first_in_turn() -> None:
    played = selfplay.forced("contested", seed=4)
    events = played.record["events"]
    discarder = events[-2]["seat"]
    assert events[-1]["seat"] == selfplay.after(discarder)  # N before S, after W


@pytest.mark.parametrize(
    ("discards", "winner", "expected"),
    [
        # Back to the winner's own discard, inclusive.
        ("E1m S2m W3m N4m E5m", "W", "W3m N4m E5m"),
        # A claim skipped N: E would appear twice.
        ("E1m S2m E3m", "N", "S2m E3m"),
        # Never more than four.
        ("E1m S2m W3m N4m E5m", "S", "S2m W3m N4m E5m"),
        ("E1m", "S", "E1m"),
    ],
)
def test_go_around(discards: str, winner: str, expected: str) -> None:
    def entries(text: str) -> list[tuple[str, int]]:
        return [(item[0], parse(item[1:])[0]) for item in text.split()]

    wanted = [{"seat": seat, "tile": item[1:]} for item in expected.split() for seat in item[0]]
    assert selfplay.go_around(entries(discards), winner) == wanted


def test_positions_are_the_seat_s_own_view() -> None:
    for played in hands()[:40]:
        for position in played.positions:
            event = played.record["events"][position.event]
            assert event == {"seat": position.seat, "discard": event["discard"]}
            held = Counter(position.tiles)
            assert len(position.tiles) + 3 * len(position.melds) == 14
            assert held[parse(event["discard"])[0]] >= 1
            seen = held + Counter(position.visible)
            seen += Counter(tile for meld in position.melds for tile in meld.tiles)
            assert max(seen.values()) <= 4
            assert 0 <= position.draws_left <= played.record["wall"] // 4


def test_positions_are_discards_bodies() -> None:
    rng = random.Random(11)
    positions = [(p, played.rules) for played in hands()[:60] for p in played.positions]
    for position, rules in rng.sample(positions, 25):
        body = position.body(rules)
        del body["expect"]  # the analysis alone: expect is long work
        assert engine.discards(body)["discards"]


@settings(max_examples=200, deadline=None)
@given(shapes())
def test_the_quick_check_never_refuses_a_winning_hand(shape: Any) -> None:
    held = [0] * 34
    for tile in shape.concealed:
        held[tile] += 1
    assert selfplay.may_win(held)


def test_the_same_seed_plays_the_same_hands() -> None:
    first, again = selfplay.generate(6, seed=9), selfplay.generate(6, seed=9)
    assert [p.record for p in first] == [p.record for p in again]
    assert [p.record for p in first] != [p.record for p in selfplay.generate(6, seed=10)]
