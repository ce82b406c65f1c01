"""Waits: for a hand one tile short, every tile that completes it and what it would score."""

from __future__ import annotations

from dataclasses import dataclass

from . import tiles as t
from .decompose import is_winning
from .errors import ScoringError
from .hand import Hand, Meld, Rules, Win, check_robbed_tile, check_win, declared_melds, visible
from .patterns import table_for
from .scoring import Score, best_score


@dataclass(frozen=True, slots=True)
class Wait:
    tile: int
    remaining: int
    self_draw: Score | None
    discard: Score | None


def waits(hand: Hand, win: Win, rules: Rules) -> list[Wait]:
    """Each completing tile, in canonical order, scored by self-draw and by discard.

    A way of winning the context rules out (``kong_replacement`` forbids a discard,
    ``robbing_kong`` a self-draw) or one below the minimum is ``None``; a context that rules
    out both is an error. A tile whose four copies are all in the hand is no wait.
    """
    melds = declared_melds(hand, size=13)
    ways: dict[str, Win] = {}
    refusals: list[ScoringError] = []
    for by in ("self_draw", "discard"):
        # The discarder only matters for these checks: East when a first-turn win needs it.
        discarder = None if by == "self_draw" else ("E" if win.seat != "E" else "S")
        candidate = win.replace(by=by, discarder=discarder)
        try:
            check_win(hand, melds, candidate, rules)
        except ScoringError as error:
            refusals.append(error)
        else:
            ways[by] = candidate
    if not ways:
        raise refusals[0]
    seen = visible(hand.tiles, melds)
    held = t.counts(hand.tiles)
    wins = table_for(rules).wins  # an excluded irregular hand is no way to win
    found = []
    for tile in range(t.KINDS):
        if seen[tile] == 4:
            continue
        held[tile] = held[tile] + 1
        completes = is_winning(held, len(melds), wins)
        held[tile] = held[tile] - 1
        if not completes:
            continue
        won = hand.replace(tiles=(*hand.tiles, tile), winning_tile=tile)
        scores = {by: _score_or_none(won, melds, way, rules) for by, way in ways.items()}
        found.append(Wait(tile, 4 - seen[tile], scores.get("self_draw"), scores.get("discard")))
    return found


def _score_or_none(hand: Hand, melds: tuple[Meld, ...], win: Win, rules: Rules) -> Score | None:
    try:
        check_robbed_tile(hand, melds, win)
        return best_score(hand, melds, win, rules)
    except ScoringError:
        return None
