"""The requests the compiled build is profiled on (gcc's profile-guided optimisation, run by
scripts/wheel.sh): what the service spends its time on, on seeded hands that no benchmark
measures (the figures in docs/PERFORMANCE.md are for other hands).

Winning hands built from four sets and a pair, some sets declared as melds, scored by both
ways of winning (20,000 hands, then 300 more); those 300 with tiles swapped, analysed
(``/v1/discards``) with and without the expected score, which searches most where a hand is
farther from ready; random deals analysed. Every request must be answered: a problem raised
stops the build (a profile of error paths would lay out the wrong code). Self-contained (the
image's build stage has no tests or bench): it imports the compiled package that PYTHONPATH
points at. About 5 s on the plain compiled build, 12 s instrumented.
"""

from __future__ import annotations

import random
from typing import Any

from service import engine
from service.domain.rules import tiles as t

SEED = 1_128  # not a benchmark's
HANDS = 300
SCORES = 20_000
EXPECT = {"draws_left": 17, "discard_rate": 0.0}
WALL = [tile for tile in range(t.KINDS) for _ in range(4)]
# Every set by its kind and lowest tile: pungs of any kind, chows of the number suits.
SETS = [("pung", tile) for tile in range(t.KINDS)] + [
    ("chow", 9 * suit + rank) for suit in range(3) for rank in range(7)
]


def winning(rng: random.Random) -> tuple[list[int], list[dict[str, Any]], list[int]]:
    """A winning hand's concealed tiles, its declared melds and their tiles (at most four
    copies of a kind in all)."""
    while True:
        held: list[int] = []
        melds: list[dict[str, Any]] = []
        melded: list[int] = []
        for kind, low in rng.sample(SETS, 4):
            tiles = [low] * 3 if kind == "pung" else [low, low + 1, low + 2]
            if rng.random() < 0.2:
                melds.append({"kind": kind, "tiles": t.compact(tiles), "concealed": False})
                melded += tiles
            else:
                held += tiles
        pair = rng.randrange(t.KINDS)
        held += [pair, pair]
        if _legal(held + melded):
            return sorted(held), melds, melded


def _legal(tiles: list[int]) -> bool:
    return all(tiles.count(tile) <= 4 for tile in tiles)


def body(held: list[int], melds: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    return {
        "hand": {"tiles": t.compact(sorted(held)), "melds": melds},
        "win": {"seat": rng.choice("ESWN")},
    }


def scored(held: list[int], melds: list[dict[str, Any]]) -> None:
    """A winning hand scored by both ways of winning."""
    for by in ("self_draw", "discard"):
        win = {"by": by, "seat": "S", **({"discarder": "E"} if by == "discard" else {})}
        hand = {"tiles": t.compact(held), "melds": melds, "winning_tile": t.compact([held[-1]])}
        engine.score({"hand": hand, "win": win})


def main() -> None:
    rng = random.Random(SEED)
    # Scores, the service's most common request, weighed against the searches' long work:
    # with only the 300, gcc took the scoring path for cold (new hands scored no faster than by
    # a plain build, in 1.6% more instructions; with these, 0.82 of its time: PERFORMANCE.md).
    for _ in range(SCORES):
        scored(*winning(rng)[:2])
    for _ in range(HANDS):
        held, melds, melded = winning(rng)
        scored(held, melds)
        near = list(held)
        for _ in range(rng.randrange(6)):
            near[rng.randrange(len(near))] = rng.randrange(t.KINDS)
        if _legal(near + melded):
            engine.discards(body(near, melds, rng))
            engine.discards({**body(near, melds, rng), "expect": EXPECT})
        deal = body(rng.sample(WALL, 14), [], rng)
        engine.discards({**deal, "expect": EXPECT} if rng.random() < 0.05 else deal)


if __name__ == "__main__":
    main()
