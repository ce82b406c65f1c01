"""The expected score against its C++ peer, on the same hands, one core, in the same minutes:
mahjong-cpp's expected-score calculator (Riichi; ``bench/peer_expect``, built by its
``build.sh`` into build/peer), the tool issue #54 measures the service against.

Each round deals new 14-tile hands, 20 a shanten (0-3) by the service's count, in two sets:
``expect_bench``'s (made from winning hands, half with melds; the peer takes a kong as a pung;
the first round's are the bench's own) and the peer's kind, random concealed deals (a deal that
wins is dealt again). The peer answers every hand (a process of its own, warmed on its sample
hand), then the service does, in process (warmed as ``expect_bench`` warms it, and on that hand
again after the peer's run): each hand is timed once on each side, by the CPU clock, as a live
server meets hands it has not seen. The two answer different games (Riichi's scores, Zung
Jung's) over the same moves: every discard, its draws and discards, a step off the shortest
ways, 17 draws. Printed per set and shanten: each side's median and p99 and median states, and
the service's time over the peer's, hand by hand, naming hands over ``OVER`` times (issue #54:
within 5x on every hand). Run from build/compiled:

    python -m bench.expect_peer [rounds]     (3 by default)
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench import expect_bench
from service.domain.rules import tiles as t

PEER = Path(__file__).resolve().parent.parent / "build" / "peer" / "expect_peer"
SEED = 20_261_127
PER_SHANTEN = 20
# Answered before each side's run, not timed: the peer's warm-up (its library's sample hand).
WARM_UP = {"hand": {"tiles": "222567m345p33667s"}, "win": {"seat": "E"}}

Body = dict[str, Any]
Timed = list[tuple[float, int]]  # each hand's CPU milliseconds and states, in order
Compared = tuple[Body, tuple[float, int], tuple[float, int]]  # the service's figures, the peer's


def deals(per_shanten: int, seed: int = SEED) -> dict[int, list[Body]]:
    """Random 14-tile concealed hands by the service's shanten, ``per_shanten`` each."""
    from service import engine

    wall = [tile for tile in range(t.KINDS) for _ in range(4)]
    draw = random.Random(seed)
    found: dict[int, list[Body]] = {shanten: [] for shanten in expect_bench.SHANTEN}
    while any(len(bodies) < per_shanten for bodies in found.values()):
        body = {"hand": {"tiles": t.compact(draw.sample(wall, 14))}, "win": {"seat": "E"}}
        shanten = engine.discards(body)["shanten"]
        if shanten in found and len(found[shanten]) < per_shanten:
            found[shanten].append(body)
    return found


def written(body: Body) -> str:
    """A hand as the peer reads it: its tiles, then each meld (a kong as a pung)."""
    melds = [
        f"pung:{meld['tiles'][:3]}{meld['tiles'][-1]}"  # (four digits and the suit)
        if meld["kind"] == "kong"
        else f"{meld['kind']}:{meld['tiles']}"
        for meld in body["hand"].get("melds", [])
    ]
    return " ".join([body["hand"]["tiles"], *melds])


def peer(bodies: list[Body]) -> Timed:
    """The peer's figures for each hand, one run."""
    asked = "".join(f"{written(body)}\n" for body in bodies)
    answer = subprocess.run(
        [str(PEER)], input=asked, capture_output=True, text=True, check=True, timeout=3600
    ).stdout
    timed = []
    for line in answer.splitlines():
        fields = line.split()
        if len(fields) == 2 and fields[1].isdigit():  # (the library logs its tables' loading)
            timed.append((float(fields[0]), int(fields[1])))
    assert len(timed) == len(bodies), answer
    return timed


def service(bodies: list[Body]) -> Timed:
    """The service's figures for each hand, one run (as ``expect_bench`` times them)."""
    from service import engine

    engine.discards({**WARM_UP, "expect": expect_bench.EXPECT})  # (the peer's run left the caches)
    timed = []
    for body in bodies:
        start = time.process_time()
        answer = engine.discards({**body, "expect": expect_bench.EXPECT})
        timed.append(((time.process_time() - start) * 1e3, answer["expectation"]["states"]))
    return timed


@dataclass
class Side:
    """One side's figures over a shanten's hands: CPU milliseconds and hands searched."""

    median_ms: float
    p99_ms: float
    median_states: float

    @staticmethod
    def of(figures: Timed) -> Side:
        times = sorted(ms for ms, _ in figures)
        return Side(
            statistics.median(times),
            statistics.quantiles(times, n=100)[98],
            statistics.median(states for _, states in figures),
        )


@dataclass
class PeerFigures:
    hands: str  # which set
    shanten: int
    service: Side
    peer: Side
    ratios: list[tuple[float, str]]  # the service's time over the peer's, hand by hand, sorted

    @property
    def over(self) -> list[tuple[float, str]]:
        """The hands over ``OVER`` times the peer's time (issue #54: within 5x on every hand)."""
        return [(ratio, hand) for ratio, hand in self.ratios if ratio > OVER]


OVER = 5.0


def measure(rounds: int = 3, seed: int = SEED) -> list[PeerFigures]:
    """``rounds`` of new hands, the first from ``seed`` (the bench's own by default), on one
    core (the peer's too; the process's cores given back after)."""
    from service import engine

    cores = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {max(cores)})
    try:
        for warm in expect_bench.hands(PER_SHANTEN, SEED + 1).values():  # as expect_bench warms
            for body in warm[: PER_SHANTEN // 2]:
                engine.discards({**body, "expect": expect_bench.EXPECT})
        found: dict[tuple[str, int], list[Compared]] = {}
        for round_ in range(rounds):
            dealt_by = seed + 2 * round_  # (SEED + 1: the warm-up's)
            sets = {"the bench's hands": expect_bench.hands(PER_SHANTEN, dealt_by),
                    "random deals": deals(PER_SHANTEN, dealt_by)}  # fmt: skip
            keys = [(name, shanten) for name, dealt in sets.items() for shanten in dealt]
            bodies = [body for dealt in sets.values() for some in dealt.values() for body in some]
            timed = zip(bodies, peer(bodies), service(bodies), strict=True)
            for key in keys:
                for _ in range(PER_SHANTEN):
                    body, by_peer, by_service = next(timed)
                    found.setdefault(key, []).append((body, by_service, by_peer))
    finally:
        os.sched_setaffinity(0, cores)
    return [
        PeerFigures(
            name,
            shanten,
            Side.of([mine for _, mine, _ in hands]),
            Side.of([theirs for _, _, theirs in hands]),
            sorted((mine[0] / theirs[0], written(body)) for body, mine, theirs in hands),
        )
        for (name, shanten), hands in found.items()
    ]


def main(rounds: int = 3) -> None:
    if not PEER.exists():
        sys.exit(f"no peer at {PEER}: bash bench/peer_expect/build.sh builds it")
    print(f"{rounds} rounds of {PER_SHANTEN} new hands a shanten, CPU ms, each hand timed once")
    for row in measure(rounds):
        name = f"{row.hands}, shanten {row.shanten}"
        for side, figures in (("service", row.service), ("peer", row.peer)):
            print(f"{name}, {side}: median {figures.median_ms:.3f}, p99 {figures.p99_ms:.3f},"
                  f" states {figures.median_states:,.0f}")  # fmt: skip
        ratios = [ratio for ratio, _ in row.ratios]
        over = [f"{hand} {ratio:.2f}" for ratio, hand in row.over]
        print(
            f"{name}, service / peer: medians"
            f" {row.service.median_ms / row.peer.median_ms:.2f}; hand by hand {ratios[0]:.2f} to"
            f" {ratios[-1]:.2f}, median {statistics.median(ratios):.2f}; over {OVER:g}x:"
            f" {len(over)} of {len(ratios)} ({', '.join(over[-3:]) or 'none'})"
        )


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:]))
