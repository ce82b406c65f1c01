"""Expected-score figures (API.md ``expect``), in process, one core: /v1/discards with
``expect`` (17 draws left, no discard wins), on seeded 14-tile hands the service has not seen.

Method: winning hands from ``handgen`` with up to five tiles swapped for others, kept by the
hand's shanten (0-3; a hand that already wins, -1, counts with the ready ones) until each
shanten has its share; the caches are warmed on another seed's hands (as a live server's are by
the hands before), then each hand is timed alone. Printed per shanten: median and p99
milliseconds of the process's CPU time (the search runs on one core: on a machine shared with
other work, the wall clock also counts waits for the core; its median is printed beside), the
median of the hands searched (``expectation.states``), how many answers had
a discard without figures for the budget, and how many were searched exhaustively (every
discard with figures by the whole search: ``expectation.search``).
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass
from typing import Any

from tests.support import handgen

SHANTEN = (0, 1, 2, 3)
EXPECT = {"draws_left": 17, "discard_rate": 0.0}


@dataclass
class ExpectFigures:
    shanten: int
    hands: int
    median_ms: float  # the process's CPU time: one core's work, whatever else the machine runs
    p99_ms: float
    wall_median_ms: float
    median_states: float
    over_budget: int
    exhaustive: int


def hands(per_shanten: int, seed: int) -> dict[int, list[dict[str, Any]]]:
    """``per_shanten`` /v1/discards bodies (without ``expect``) for each shanten 0-3 (a hand
    that wins, -1, is one of the ready hands: its best play is to go on from ready)."""
    from service import engine
    from service.domain.rules import tiles as t

    rng = random.Random(seed)
    found: dict[int, list[dict[str, Any]]] = {s: [] for s in SHANTEN}
    for _ in range(500 * per_shanten):
        if all(len(bodies) >= per_shanten for bodies in found.values()):
            break
        body = handgen.draw_analysis(rng, "near_ready")
        held = t.parse(body["hand"]["tiles"])
        for _ in range(rng.randrange(5)):
            held[rng.randrange(len(held))] = rng.randrange(34)
        body["hand"]["tiles"] = t.compact(sorted(held))
        try:
            shanten = max(0, engine.discards(body)["shanten"])
        except engine.Problem:
            continue  # a fifth copy
        if shanten in found and len(found[shanten]) < per_shanten:
            found[shanten].append(body)
    return found


def measure(per_shanten: int = 20, seed: int = 20_261_127) -> list[ExpectFigures]:
    from service import engine

    for bodies in hands(per_shanten, seed + 1).values():  # warm on other hands
        for body in bodies[: per_shanten // 2]:
            engine.discards({**body, "expect": EXPECT})
    figures = []
    for shanten, bodies in hands(per_shanten, seed).items():
        times = []
        walls = []
        states = []
        over = exhaustive = 0
        for body in bodies:
            start, wall = time.process_time(), time.perf_counter()
            answer = engine.discards({**body, "expect": EXPECT})
            times.append((time.process_time() - start) * 1e3)
            walls.append((time.perf_counter() - wall) * 1e3)
            states.append(answer["expectation"]["states"])
            over += answer["expectation"]["limited"] == "budget"
            exhaustive += answer["expectation"]["search"] == "exhaustive"
        figures.append(
            ExpectFigures(
                shanten,
                len(bodies),
                statistics.median(times),
                statistics.quantiles(times, n=100)[98] if len(times) > 1 else times[0],
                statistics.median(walls),
                statistics.median(states),
                over,
                exhaustive,
            )
        )
    return figures


if __name__ == "__main__":
    for row in measure(5):
        print(row)
