"""What a loaded request is made of: tiles read from JSON, and the domain's objects made from
a record's fields. The schemas and the fast path both build with these (compiled)."""

from __future__ import annotations

from typing import Any, Final

from ..domain import tiles as t
from ..domain.claims import Entry
from ..domain.hand import Hand, MeldSpec, Rules, Win
from ..domain.rulesets import resolve
from ..domain.sheets import SheetHand
from .limits import MAX_TILE_LIST, MAX_TILE_STRING

HELD: Final = (MAX_TILE_STRING, MAX_TILE_LIST)  # the longest tiles of a hand or a meld


def read_tiles(value: object, single: bool, longest: tuple[int, int] = HELD) -> list[int]:
    """Tiles as JSON gives them: compact notation or a list of single tiles.

    Raises ``TileError`` saying what is wrong; ``single``: exactly one tile; ``longest``: the
    most characters of a string and tiles of a list.
    """
    if isinstance(value, str):
        if len(value) > longest[0]:
            raise t.TileError(f"at most {longest[0]} characters")
        tiles = t.parse(value)
    elif isinstance(value, list):
        if len(value) > longest[1]:
            raise t.TileError(f"at most {longest[1]} tiles")
        tiles = t.parse(value)
    else:
        raise t.TileError("tiles are a string like '123m55z' or a list like ['1m', '5z']")
    if single and len(tiles) != 1:
        raise t.TileError("exactly one tile, e.g. '4s'")
    return tiles


def make_meld(data: dict[str, Any]) -> MeldSpec:
    return MeldSpec(data["kind"], tuple(data["tiles"]), data["concealed"])


def make_hand(data: dict[str, Any]) -> Hand:
    winning = data.get("winning_tile")  # absent in a waits request
    return Hand(
        tuple(data["tiles"]),
        tuple(data["melds"]),
        winning[0] if winning else 0,
        tuple(data["flowers"]),
        tuple(data["seasons"]),
    )


def make_win(data: dict[str, Any]) -> Win:
    # A waits request has no ``by`` and no discarder.
    return Win(
        by=data.get("by", "self_draw"),
        seat=data["seat"],
        discarder=data.get("discarder"),
        last_tile=data["last_tile"],
        kong_replacement=data["kong_replacement"],
        robbing_kong=data["robbing_kong"],
        first_turn=data["first_turn"],
        responsible=data.get("responsible"),
        pay_as_self_draw=data.get("pay_as_self_draw", False),
        go_around=tuple(data.get("go_around", ())),
    )


def make_claimed_win(data: dict[str, Any]) -> Win:
    return Win(
        by=data["by"],
        seat=data["seat"],
        discarder=data.get("discarder"),
        responsible=data.get("responsible"),
        pay_as_self_draw=data["pay_as_self_draw"],
        go_around=tuple(data["go_around"]),
    )


def make_entry(data: dict[str, Any]) -> Entry:
    return Entry(data["id"], data.get("count"))


def make_sheet_hand(data: dict[str, Any]) -> SheetHand:
    score, claim = data.get("score"), data.get("claim")
    return SheetHand(
        data.get("seats"),
        None if score is None else (score["hand"], score["win"]),
        None if claim is None else (tuple(claim["patterns"]), claim["win"]),
        data.get("draw", False),
    )


def make_discard(data: dict[str, Any]) -> tuple[str, int]:
    return data["seat"], data["tile"][0]


def make_rules(data: dict[str, Any]) -> Rules:
    # No defaults are filled in before: a field left out must not hide a profile's.
    return resolve(data)
