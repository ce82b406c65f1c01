"""A peer for scale: the ``mahjong`` PyPI package (Riichi scoring, pure Python).

It answers a similar question (decompose a 14-tile hand, find its yaku, count han/fu and the
payment) in the same language, so its hands/s on the same machine says whether our figure is
in the expected range for pure-Python scoring. It is optional: ``pip install mahjong``.

The hands are handgen's own shapes, made concealed (exposed chows and pungs folded back into
the hand; hands with kongs, and Seven Pairs with four alike, skipped) and won by self-draw,
which always gives Riichi's Menzen Tsumo yaku, so every hand is a valid Riichi win. The 34
tile kinds are in the same order in both (1-9m, 1-9p, 1-9s, E S W N White Green Red).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from tests.support import handgen


@dataclass
class PeerFigures:
    version: str
    hands: int
    rate: float
    errors: int  # hands the package rejected (should be 0)


def riichi_hands(n: int, seed: int = 0) -> list[tuple[list[int], int]]:
    """``n`` concealed winning hands as (136-tile ids, winning tile id)."""
    rng = random.Random(seed)
    hands: list[tuple[list[int], int]] = []
    for _ in range(50 * n):
        if len(hands) == n:
            break
        shape = handgen.draw_shape(rng)
        if any(kind == "kong" for kind, _, _ in shape.melds):
            continue
        if shape.family == "seven_pairs" and max(shape.counts()) == 4:
            continue  # four alike as two pairs is Zung Jung's, not Riichi's
        tiles34 = [*shape.concealed, *(x for _, tiles, _ in shape.melds for x in tiles)]
        copies: dict[int, int] = {}
        tiles136 = []
        win136 = -1
        for tile in sorted(tiles34):
            tile_id = tile * 4 + copies.get(tile, 0)
            copies[tile] = copies.get(tile, 0) + 1
            tiles136.append(tile_id)
            if tile == shape.winning_tile:
                win136 = tile_id
        hands.append((tiles136, win136))
    return hands


def measure(n: int = 2000, seed: int = 1) -> PeerFigures | str:
    """The package's hands/s (best of 3), or why it could not be measured."""
    try:
        from importlib.metadata import version

        from mahjong.hand_calculating.hand import HandCalculator
        from mahjong.hand_calculating.hand_config import HandConfig
    except ImportError:
        return "the mahjong package is not installed (pip install mahjong)"
    calculator = HandCalculator()
    config = HandConfig(is_tsumo=True)
    hands = riichi_hands(n, seed)

    def one_pass() -> tuple[float, int]:
        errors = 0
        start = time.perf_counter()
        for tiles, win in hands:
            result: Any = calculator.estimate_hand_value(tiles, win, config=config)
            errors += result.error is not None
        return time.perf_counter() - start, errors

    one_pass()  # warm-up
    runs = [one_pass() for _ in range(3)]
    return PeerFigures(
        version("mahjong"), len(hands), len(hands) / min(r[0] for r in runs), runs[0][1]
    )
