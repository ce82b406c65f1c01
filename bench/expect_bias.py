"""How far the solo model (RULES.md §8) is from the game it stands for: a seeded Monte Carlo.

Each game deals the rest of a real wall (136 tiles less the hand, its melds and the tiles
seen), shuffled; in each turn the three others draw from it and discard what they drew (a
discard stays out: it does not go back, as it does in the model), then the player draws. The
player plays the service's own choices: wins when the service's figures say the win is worth
more than playing on, and otherwise discards the tile ``/v1/discards`` ranks first, with
everything seen so far in ``visible``. The model's figures for the starting hand are then set
against the games' win rate and mean score: the difference is the model's bias on that hand.

A figure, not a verdict (docs/PERFORMANCE.md, "Expected score: the model against the game").
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from service import engine
from service.domain.rules import tiles as t

# The hands measured: 13 tiles each (with their melds), ready or one from ready.
HANDS: tuple[dict[str, Any], ...] = (
    {"tiles": "4m", "melds": [{"kind": "pung", "tiles": "777z"},
                               {"kind": "chow", "tiles": "234s"},
                               {"kind": "pung", "tiles": "999p"},
                               {"kind": "chow", "tiles": "678m"}]},
    {"tiles": "1m5p67s", "melds": [{"kind": "pung", "tiles": "777z"},
                                   {"kind": "chow", "tiles": "234s"},
                                   {"kind": "pung", "tiles": "999m"}]},
    {"tiles": "2355p", "melds": [{"kind": "pung", "tiles": "111z"},
                                    {"kind": "chow", "tiles": "789m"},
                                    {"kind": "chow", "tiles": "345s"}]},
)  # fmt: skip
SEAT = "S"


@dataclass
class Bias:
    hand: str
    games: int
    model_win: float
    game_win: float
    model_score: float
    game_score: float


def _expect(draws_left: int) -> dict[str, Any]:
    return {"draws_left": draws_left, "discard_rate": 1.0}


def _base(hand: dict[str, Any], seen: list[int]) -> dict[str, Any]:
    return {"hand": hand, "win": {"seat": SEAT}, "visible": t.compact(sorted(seen))}


def _score(hand: dict[str, Any], tiles: list[int], tile: int, by: str) -> float | None:
    win: dict[str, Any] = {"by": by, "seat": SEAT}
    if by == "discard":
        win["discarder"] = "E"
    body = {"hand": {**hand, "tiles": t.compact(sorted(tiles)), "winning_tile": t.compact([tile])},
            "win": win}  # fmt: skip
    try:
        return float(engine.score(body)["score"])
    except engine.Problem:
        return None


def play(hand: dict[str, Any], draws_left: int, rng: random.Random) -> float | None:
    """One game: the score won, or None."""
    melds = [meld for meld in hand.get("melds", [])]
    held = t.parse(hand["tiles"])
    out = list(held)
    for meld in melds:
        out += t.parse(meld["tiles"])
    wall = [tile for tile in range(34) for _ in range(4)]
    for tile in out:
        wall.remove(tile)
    rng.shuffle(wall)
    seen: list[int] = []
    for left in range(draws_left, -1, -1):
        for _ in range(3):
            tile = wall.pop()
            won = _score(hand, [*held, tile], tile, "discard")
            if won is not None:
                on = engine.waits({**_base({**hand, "tiles": t.compact(held)}, [*seen, tile]),
                                   "expect": _expect(left)})["expected"]  # fmt: skip
                if on is None or won >= on["expected_score"]:
                    return won
            seen.append(tile)
        if left == 0:
            return None
        tile = wall.pop()
        held.append(tile)
        body = {
            **_base({**hand, "tiles": t.compact(sorted(held))}, seen),
            "expect": _expect(left - 1),
        }
        answer = engine.discards(body)
        best = answer["discards"][0]
        won = _score(hand, held, tile, "self_draw")
        if won is not None and (
            best["expected"] is None or won >= best["expected"]["expected_score"]
        ):
            return won
        discard = t.parse(best["tile"])[0]
        held.remove(discard)
        seen.append(discard)
    return None


def measure(games: int = 200, draws_left: int = 6, seed: int = 20_261_127) -> list[Bias]:
    found = []
    for hand in HANDS:
        model = engine.waits({**_base(hand, []), "expect": _expect(draws_left)})["expected"]
        rng = random.Random(seed)
        scores = [play(hand, draws_left, rng) for _ in range(games)]
        wins = [score for score in scores if score is not None]
        found.append(
            Bias(
                hand=hand["tiles"] + "".join(f" [{m['tiles']}]" for m in hand["melds"]),
                games=games,
                model_win=model["win_probability"],
                game_win=len(wins) / games,
                model_score=model["expected_score"],
                game_score=sum(wins) / games,
            )
        )
    return found


if __name__ == "__main__":
    import sys

    for row in measure(int(sys.argv[1]) if len(sys.argv) > 1 else 200):
        print(
            f"{row.hand}: {row.games} games; win {row.model_win:.3f} model, {row.game_win:.3f} "
            f"game; expected score {row.model_score:.2f} model, {row.game_score:.2f} game"
        )
