"""Input as players write it: tiles as Unicode glyphs, and errors that say how to fix them.

The messages are checked word for word: they are what a client developer reads.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service import engine
from service.domain.rules import tiles as t

from .support.hands import EXAMPLE, problem, request
from .support.strategies import score_requests

# ---- Glyphs --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "tiles"),
    [
        ("🀇🀈🀉", "123m"),  # characters: U+1F007 ...
        ("🀙🀚🀛", "123p"),  # circles come last in the block
        ("🀐🀑🀒", "123s"),
        ("🀀🀁🀂🀃", "1234z"),  # East South West North
        ("🀆🀅🀄", "567z"),  # White Green Red: the block has Red first
        ("123m🀙🀚🀛 🀐🀑🀒55z", "123m123p123s55z"),
        ("🀄 777z", "7777z"),
    ],
)
def test_glyphs_read_as_tiles(text: str, tiles: str) -> None:
    assert t.compact(t.parse(text)) == tiles


def test_every_glyph_reads_back_as_its_tile() -> None:
    assert t.parse("".join(t.GLYPHS)) == list(range(t.KINDS))
    assert t.parse(list(t.GLYPHS)) == list(range(t.KINDS))


def test_the_api_hand_in_glyphs_scores_as_in_mpsz(client: FlaskClient) -> None:
    glyphs = copy.deepcopy(EXAMPLE)
    glyphs["hand"].update(
        tiles="🀇🀈🀉🀟🀠🀡🀑🀒🀓🀔🀔",
        winning_tile=["🀓"],
        melds=[{"kind": "pung", "tiles": ["🀄", "7z", "🀄"]}],
    )
    answer = client.post("/v1/score", json=glyphs)
    assert answer.status_code == 200
    assert answer.get_json() == engine.score(EXAMPLE)
    assert answer.get_json()["score"] == 10


@pytest.mark.parametrize(
    ("tiles", "where", "message"),
    [
        (
            "123m789p23455s🀢",
            "hand.tiles",
            "cannot read '🀢' at character 15: flower 1 (plum) is a bonus tile: list its number"
            " in hand.flowers, e.g. [1], with rules.bonus_tiles true",
        ),
        (
            ["1m", "🀤"],
            "hand.tiles",
            "item 1 ('🀤') is not a single tile: flower 4 (bamboo) is a bonus tile: list its"
            " number in hand.flowers, e.g. [4], with rules.bonus_tiles true",
        ),
        (
            "🀥🀇",
            "hand.tiles",
            "cannot read '🀥' at character 1: flower 3 (chrysanthemum) is a bonus tile: list its"
            " number in hand.flowers, e.g. [3], with rules.bonus_tiles true",
        ),
        (
            "123m 🀩",
            "hand.tiles",
            "cannot read '🀩' at character 6: season 4 (winter) is a bonus tile: list its number"
            " in hand.seasons, e.g. [4], with rules.bonus_tiles true",
        ),
    ],
)
def test_a_flower_or_season_glyph_points_to_its_field(tiles: Any, where: str, message: str) -> None:
    refused = problem(request(tiles, "1m"))
    assert refused.code == "invalid_request"
    assert refused.errors == [{"path": where, "message": message}]


def test_a_glyph_must_stand_between_groups() -> None:
    assert problem(request("12🀇m", "1m")).errors == [
        {
            "path": "hand.tiles",
            "message": "cannot read '12🀇m' at character 1: tiles are written as digits followed"
            " by a suit letter m, p, s or z, e.g. '123m456p1155z', or as glyphs, e.g. '🀇🀈🀉'",
        }
    ]


@st.composite
def respelled(draw: st.DrawFn, payload: dict[str, Any]) -> dict[str, Any]:
    """``payload`` with every tile field written again, each tile as a glyph or in mpsz, as
    one string or as a list."""

    def spell(tiles: Any) -> Any:
        parsed = t.parse(tiles)
        written = [t.GLYPHS[tile] if draw(st.booleans()) else t.repeated(tile) for tile in parsed]
        return written if draw(st.booleans()) else draw(st.sampled_from(["", " "])).join(written)

    copied = copy.deepcopy(payload)
    hand = copied["hand"]
    hand["tiles"] = spell(hand["tiles"])
    hand["winning_tile"] = spell(hand["winning_tile"])
    for meld in hand.get("melds", []):
        meld["tiles"] = spell(meld["tiles"])
    return copied


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_every_hand_scores_the_same_in_glyphs(data: st.DataObject) -> None:
    payload = data.draw(score_requests())
    assert engine.score(data.draw(respelled(payload))) == engine.score(payload)


# ---- Errors that say how to fix them -------------------------------------------------------


def test_an_uppercase_suit_letter() -> None:
    assert problem(request("123M789p23455s", "4s")).errors == [
        {
            "path": "hand.tiles",
            "message": "cannot read '123M' at character 1: suit letters are lowercase: write"
            " '123m'",
        }
    ]
    assert problem(request("123m 789P", "4s")).errors[0]["message"] == (
        "cannot read '789P' at character 6: suit letters are lowercase: write '789p'"
    )
    assert problem(request(["1m", "5Z"], "1m")).errors[0]["message"] == (
        "item 1 ('5Z') is not a single tile: suit letters are lowercase: write '5z'"
    )
    # 8Z would be no tile in lowercase either: the usual message, not a wrong fix.
    assert (
        problem(request("8Z", "1m"))
        .errors[0]["message"]
        .startswith("cannot read '8Z' at character 1: tiles are written as digits")
    )


def test_a_concealed_kong_written_as_a_kind() -> None:
    payload = request("123m789p23455s", "4s", melds=[("concealed_kong", "7777z")])
    refused = problem(payload)
    assert refused.code == "invalid_request"
    assert refused.errors == [
        {
            "path": "hand.melds[0].kind",
            "message": 'a concealed kong is written "kind": "kong", "concealed": true',
        }
    ]
    # Any other wrong kind gets the list of kinds.
    other = problem(request("123m789p23455s", "4s", melds=[("pong", "777z")]))
    assert other.errors == [
        {"path": "hand.melds[0].kind", "message": "must be one of: chow, pung, kong"}
    ]


def test_a_thirteen_tile_hand_without_its_winning_tile() -> None:
    # API.md's own request: 123m 789p 2355s + a pung, won on 4s, which tiles leave out.
    payload = request("123m789p2355s", "4s", by="discard", melds=[("pung", "777z")])
    refused = problem(payload)
    assert refused.code == "invalid_hand"
    assert refused.errors == [
        {
            "path": "hand.tiles",
            "message": "the hand has 10 tiles and 1 meld, which count as 13 tiles, one short of"
            " 14: the winning tile 4s is missing from hand.tiles (they include the winning"
            " tile): add it there",
        }
    ]


def test_a_thirteen_tile_hand_with_its_winning_tile() -> None:
    refused = problem(request("123m789p2345s", "4s", melds=[("pung", "777z")]))
    assert refused.errors == [
        {
            "path": "hand.tiles",
            "message": "the hand has 10 tiles and 1 meld, which count as 13 tiles, one short of"
            " 14: the winning tile 4s is in hand.tiles, so another tile is missing (if 4s"
            " completed the hand as one more copy, list that copy too; a meld counts 3, a kong"
            " too)",
        }
    ]
    # Other counts keep the plain account.
    assert problem(request("123m789p23455s", "4s")).errors[0]["message"] == (
        "the hand has 11 tiles and 0 melds, which count as 11 tiles; it needs 14 (the tiles"
        " held, winning tile included, + 3 per meld; a kong counts 3)"
    )


def test_a_discard_win_without_a_discarder() -> None:
    refused = problem(request("123m789p23455s", "4s", by="discard", discarder=None,
                              melds=[("pung", "777z")]))  # fmt: skip
    assert refused.code == "invalid_context"
    assert refused.errors == [
        {
            "path": "win.discarder",
            "message": "a win on a discard needs the discarder: the seat that discarded the"
            ' winning tile, e.g. "discarder": "W" (a self-drawn win is "by": "self_draw")',
        }
    ]
