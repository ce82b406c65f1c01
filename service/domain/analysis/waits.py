"""Waits: what a tile completing a hand one short would score, by self-draw and by discard.

Which tiles complete the hand is the analysis's to say (``analysis.py``: a ready hand's useful
tiles are its waits); this module scores them.
"""

from __future__ import annotations

from typing import Final

from ..errors import ScoringError
from ..rules.hand import Hand, Meld, Rules, Value, Win, check_robbed_tile, check_win
from ..scoring.scoring import Score, best_score


class Wait(Value):
    """A wait and what it scores each way (``None``: a way the rules do not allow with it); a
    plain class, as ``analysis.Useful``."""

    FIELDS = ("tile", "remaining", "self_draw", "discard")

    def __init__(
        self, tile: int, remaining: int, self_draw: Score | None, discard: Score | None
    ) -> None:
        self.tile: Final = tile
        self.remaining: Final = remaining
        self.self_draw: Final = self_draw
        self.discard: Final = discard


def ways_to_win(hand: Hand, melds: tuple[Meld, ...], win: Win, rules: Rules) -> dict[str, Win]:
    """The wins the context allows, by way (``self_draw``, ``discard``).

    A way the context rules out (``kong_replacement`` forbids a discard, ``robbing_kong`` a
    self-draw) is left out; a context that rules out both is an error.
    """
    ways: dict[str, Win] = {}
    refusals: list[ScoringError] = []
    for by in ("self_draw", "discard"):
        # The discarder only matters for these checks: East when a first-turn win needs it.
        discarder = None if by == "self_draw" else ("E" if win.seat != "E" else "S")
        candidate = win.way(by, discarder)
        try:
            check_win(hand, melds, candidate, rules)
        except ScoringError as error:
            refusals.append(error)
        else:
            ways[by] = candidate
    if not ways:
        raise refusals[0]
    return ways


def scored_wait(
    hand: Hand,
    melds: tuple[Meld, ...],
    ways: dict[str, Win],
    rules: Rules,
    tile: int,
    remaining: int,
) -> Wait:
    """``tile`` completing ``hand`` (one short), scored each way; a way the rules do not allow
    with that tile (below the minimum, a robbed tile held) is ``None``."""
    # Built, not ``replace``d (as ``analysis._without``): a dict of keywords, a call by name.
    won = Hand((*hand.tiles, tile), hand.melds, tile, hand.flowers, hand.seasons)
    scores = {by: _score_or_none(won, melds, way, rules) for by, way in ways.items()}
    return Wait(tile, remaining, scores.get("self_draw"), scores.get("discard"))


def _score_or_none(hand: Hand, melds: tuple[Meld, ...], win: Win, rules: Rules) -> Score | None:
    try:
        check_robbed_tile(hand, melds, win)
        return best_score(hand, melds, win, rules)
    except ScoringError:
        return None
