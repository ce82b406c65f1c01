"""The expected score against its C++ peer, on the same hands, one core, in the same minutes:
mahjong-cpp's expected-score calculator (Riichi; ``bench/peer_expect``, built by its
``build.sh`` into build/peer), the tool issue #54 measures the service against.

The hands are the peer's kind: random 14-tile concealed deals (seeded), kept by the service's
shanten (0-3; a deal that wins is dealt again) until each has its share. In each round the
peer answers every hand (a process of its own, warmed on another hand), then the service does,
in process, its caches warmed on ``expect_bench``'s other hands; a hand's figure is the median
of its rounds, by the CPU clock. The two answer different games (Riichi's scores and its
model, Zung Jung's) over the same moves: every discard, its draws and discards, a step off the
shortest ways, 17 draws. Printed per shanten: each side's median and slowest hand (the p99 of
20), its states, and the service's time over the peer's, hand by hand. Run from build/compiled:

    python -m bench.expect_peer [rounds] [hands a shanten]     (5 and 20 by default)
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench import expect_bench
from service.domain.rules import tiles as t

PEER = Path(__file__).resolve().parent.parent / "build" / "peer" / "expect_peer"
SEED = 20_261_127


def deals(per_shanten: int, seed: int = SEED) -> dict[int, list[str]]:
    """Random 14-tile concealed hands by the service's shanten, ``per_shanten`` each."""
    from service import engine

    wall = [tile for tile in range(t.KINDS) for _ in range(4)]
    draw = random.Random(seed)
    found: dict[int, list[str]] = {shanten: [] for shanten in expect_bench.SHANTEN}
    while any(len(hands) < per_shanten for hands in found.values()):
        tiles = t.compact(draw.sample(wall, 14))
        shanten = engine.discards(_body(tiles))["shanten"]
        if shanten in found and len(found[shanten]) < per_shanten:
            found[shanten].append(tiles)
    return found


# A hand answered before each side's run, not timed: the peer's (its library's sample hand).
WARM_UP = {"hand": {"tiles": "222567m345p33667s"}, "win": {"seat": "E"}}


def _body(tiles: str) -> dict[str, object]:
    return {"hand": {"tiles": tiles}, "win": {"seat": "E"}}


Timed = list[tuple[float, int]]  # each hand's CPU milliseconds and states, in order


def peer(hands: list[str]) -> Timed:
    """The peer's figures for each hand, one run."""
    asked = "".join(f"0 {tiles}\n" for tiles in hands)
    answer = subprocess.run(
        [str(PEER)], input=asked, capture_output=True, text=True, check=True, timeout=3600
    ).stdout
    timed = []
    for line in answer.splitlines():
        fields = line.split()
        if len(fields) == 4 and fields[0] == "0":  # (the library logs its tables' loading)
            timed.append((float(fields[2]), int(fields[3])))
    assert len(timed) == len(hands), answer
    return timed


def service(hands: list[str]) -> Timed:
    """The service's figures for each hand, one run (as ``expect_bench`` times them)."""
    from service import engine

    engine.discards({**WARM_UP, "expect": expect_bench.EXPECT})  # (the peer's run left the caches)
    timed = []
    for tiles in hands:
        start = time.process_time()
        answer = engine.discards({**_body(tiles), "expect": expect_bench.EXPECT})
        timed.append(((time.process_time() - start) * 1e3, answer["expectation"]["states"]))
    return timed


def main(rounds: int = 5, per_shanten: int = 20) -> None:
    from service import engine

    if not PEER.exists():
        sys.exit(f"no peer at {PEER}: bash bench/peer_expect/build.sh builds it")
    os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})  # one core, the peer's too
    for bodies in expect_bench.hands(per_shanten, SEED + 1).values():  # as expect_bench warms
        for body in bodies[: per_shanten // 2]:
            engine.discards({**body, "expect": expect_bench.EXPECT})
    dealt = deals(per_shanten)
    hands = [tiles for shanten in dealt for tiles in dealt[shanten]]
    runs: dict[str, list[Timed]] = {"peer": [], "service": []}
    for _ in range(rounds):
        runs["peer"].append(peer(hands))
        runs["service"].append(service(hands))
    ms = {side: [statistics.median(run[i][0] for run in all) for i in range(len(hands))]
          for side, all in runs.items()}  # fmt: skip
    print(f"{rounds} rounds, {per_shanten} hands a shanten, CPU ms (a hand's median round)")
    first = 0
    for shanten, some in dealt.items():
        rows = range(first, first + len(some))
        first += len(some)
        for side, all in runs.items():
            times = [ms[side][i] for i in rows]
            states = statistics.median(all[0][i][1] for i in rows)
            print(f"shanten {shanten}, {side}: median {statistics.median(times):.3f},"
                  f" slowest {max(times):.3f}, states {states:,.0f}")  # fmt: skip
        ratios = {hands[i]: ms["service"][i] / ms["peer"][i] for i in rows}
        ordered = sorted(ratios.values())
        medians = statistics.median(ms["service"][i] for i in rows) / statistics.median(
            ms["peer"][i] for i in rows
        )
        over = [f"{tiles} {ratio:.2f}" for tiles, ratio in ratios.items() if ratio > 3]
        print(
            f"shanten {shanten}, service / peer: medians {medians:.2f}; hand by hand"
            f" {ordered[0]:.2f} to {ordered[-1]:.2f}, median {statistics.median(ordered):.2f};"
            f" over 3x: {', '.join(over) or 'none'}"
        )


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:]))
