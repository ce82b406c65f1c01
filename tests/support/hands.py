"""Score requests built tersely (``request``, the one builder), and checks of their results.

Every expected value in the tests that use these was worked out by hand from the rules
(docs/RULES.md), never by running the engine.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from service.engine import score
from service.problems import Problem

SEATS = ("E", "S", "W", "N")

_AUTO: Any = object()  # "pick a discarder": the seat after the winner


def meld(kind: str, tiles: str, concealed: bool = False) -> dict[str, Any]:
    return {"kind": kind, "tiles": tiles, "concealed": concealed}


def _meld(spec: Any) -> dict[str, Any]:
    if isinstance(spec, Mapping):
        return dict(spec)
    return meld(*spec)


def request(
    tiles: str,
    win: str,
    by: str = "self_draw",
    seat: str = "S",
    melds: Iterable[Any] = (),
    discarder: Any = _AUTO,
    *,
    flowers: list[int] | None = None,
    seasons: list[int] | None = None,
    rules: Mapping[str, Any] | None = None,
    **flags: Any,
) -> dict[str, Any]:
    """An API.md score request.

    ``tiles`` includes the winning tile ``win``; ``melds`` are ``(kind, tiles[, concealed])``
    tuples or meld dicts. With ``by="discard"`` the discarder defaults to the seat after the
    winner (pass ``discarder=None`` to leave it out); with ``self_draw`` it is left out unless
    given. ``flags`` go into ``win`` (``last_tile``, ``robbing_kong``, ``responsible`` ...).
    """
    hand: dict[str, Any] = {
        "tiles": tiles,
        "melds": [_meld(m) for m in melds],
        "winning_tile": win,
    }
    if flowers is not None:
        hand["flowers"] = flowers
    if seasons is not None:
        hand["seasons"] = seasons
    win_ctx: dict[str, Any] = {"by": by, "seat": seat}
    if discarder is _AUTO:
        if by == "discard":
            win_ctx["discarder"] = SEATS[(SEATS.index(seat) + 1) % 4]
    elif discarder is not None:
        win_ctx["discarder"] = discarder
    win_ctx.update(flags)
    payload: dict[str, Any] = {"hand": hand, "win": win_ctx}
    if rules is not None:
        payload["rules"] = dict(rules)
    return payload


def score_hand(*args: Any, **kwargs: Any) -> dict[str, Any]:
    return score(request(*args, **kwargs))


def pattern_points(result: Mapping[str, Any]) -> dict[str, int]:
    """{pattern id: points} of the counted patterns."""
    ids = [p["id"] for p in result["patterns"]]
    assert len(ids) == len(set(ids)), f"a pattern listed twice: {ids}"
    return {p["id"]: p["points"] for p in result["patterns"]}


def ids(entries: Iterable[Mapping[str, Any]]) -> set[str]:
    return {p["id"] for p in entries}


def check(
    result: Mapping[str, Any],
    expected: Mapping[str, int],
    total: int,
    limit: str = "none",
    not_counted: Iterable[str] = (),
) -> None:
    """The counted patterns are exactly ``expected`` ({id: points}); score and limit as given."""
    assert pattern_points(result) == dict(expected)
    for p in result["patterns"]:
        assert p["points"] == p["value"] * p["count"], p
    assert result["points"] == sum(expected.values())
    assert result["score"] == total
    assert result["limit"] == limit
    if limit == "single_pattern":
        assert set(not_counted) <= ids(result["not_counted"])
        assert not ids(result["patterns"]) & ids(result["not_counted"])
    else:
        assert result["not_counted"] == []


def problem(payload: Mapping[str, Any]) -> Problem:
    """The Problem that scoring ``payload`` raises."""
    with pytest.raises(Problem) as info:
        score(dict(payload))
    return info.value


def paths(prob: Problem) -> list[str]:
    return [e["path"] for e in prob.errors]


# API.md's example hand with its winning tile among the tiles, as the API's own rule wants
# (API.md prints "123m789p2355s", 13 tiles with the meld). Value Honor 10, payments -10/+30.
EXAMPLE = request(
    "123m789p23455s",
    "4s",
    by="discard",
    seat="S",
    discarder="W",
    melds=[{"kind": "pung", "tiles": "777z"}],
)
