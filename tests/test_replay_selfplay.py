"""POST /v1/replay on self-played hands (tests/support/selfplay.py): each record, and each
seat's own view of it, answers the end, the wall left and the ``/v1/score`` body the generator's
own books say it amounts to, scored as ``/v1/score`` scores that body.

The requests are compared in a canonical form: tiles as multisets (the order of tiles and melds
is the replay's to choose), an absent flag as false, the go-around in order.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from typing import Any

import pytest

from service import engine
from service.domain.rules.tiles import parse
from tests.support import selfplay

HANDS = 200  # natural hands, plus one forced hand of each ending


@cache
def hands() -> tuple[selfplay.Played, ...]:
    return tuple(selfplay.corpus(HANDS, seed=1))


def canonical(request: dict[str, Any]) -> dict[str, Any]:
    """What a score request says, whatever order its tiles are written in."""
    hand, win = request["hand"], request["win"]
    melds = Counter(
        (meld["kind"], tuple(sorted(parse(meld["tiles"]))), bool(meld.get("concealed", False)))
        for meld in hand.get("melds", [])
    )
    go_around = [(entry["seat"], parse(entry["tile"])[0]) for entry in win.get("go_around", [])]
    return {
        "tiles": Counter(parse(hand["tiles"])),
        "melds": melds,
        "winning_tile": parse(hand["winning_tile"])[0],
        "flowers": sorted(hand.get("flowers", [])),
        "seasons": sorted(hand.get("seasons", [])),
        "by": win["by"],
        "seat": win["seat"],
        "discarder": win.get("discarder"),
        **{flag: bool(win.get(flag, False)) for flag in selfplay.FLAGS},
        "go_around": go_around,
        "paid_as": (win.get("responsible"), win.get("pay_as_self_draw", False)),
    }


def check_answer(played: selfplay.Played, answer: dict[str, Any]) -> None:
    assert answer["end"] == played.end
    assert answer["wall_left"] == played.wall_left
    assert answer["events"] == len(played.record["events"])
    if played.request is None:
        assert "score" not in answer
        assert answer.get("request") is None
        return
    assert canonical(answer["request"]) == canonical(played.request)
    expected = engine.score(played.request)
    assert answer["score"] == expected
    assert answer["rules"] == expected["rules"]


def test_every_ending_is_in_the_hands_replayed() -> None:
    seen = set().union(*(played.endings for played in hands()))
    assert set(selfplay.ENDINGS) <= seen


@pytest.mark.parametrize("part", range(4))
def test_replay_answers_what_was_played(part: int) -> None:
    for index, played in enumerate(hands()[part::4]):
        answer = engine.replay(played.payload())
        try:
            check_answer(played, answer)
        except AssertionError as error:
            raise AssertionError(f"hand {4 * index + part}: {played.endings}") from error


@pytest.mark.parametrize("seat", "ESWN")
def test_each_seat_s_view_answers_the_same(seat: str) -> None:
    for index, played in enumerate(hands()):
        answer = engine.replay(played.payload(seat))
        try:
            check_answer(played, answer)
        except AssertionError as error:
            raise AssertionError(f"hand {index} seen by {seat}: {played.endings}") from error


def test_a_record_cut_short_is_open() -> None:
    """A record that stops before its end answers ``open``, no score, the wall as far as it
    went; one that stops on a passed discard after the last tile is a washout."""
    rng = random.Random(5)
    for played in hands()[:60]:
        events = played.record["events"]
        cut = rng.randrange(1, len(events))
        record = {**played.record, "events": events[:cut]}
        answer = engine.replay({"record": record, "rules": played.rules})
        wall_left = played.record["wall"] - played.drawn[cut - 1]
        spent = wall_left == 0 and "discard" in events[cut - 1]
        assert answer["end"] == ("washout" if spent else "open")
        assert answer["wall_left"] == wall_left
        assert answer["events"] == cut
        assert "score" not in answer


def test_the_request_scores_again_as_the_replay_scored_it() -> None:
    """An app re-sends the ``request`` the replay answered: the same score."""
    for played in hands()[:50]:
        answer = engine.replay(played.payload())
        if played.request is not None:
            resent = {"rules": played.rules, **answer["request"]}
            assert engine.score(resent) == answer["score"]
