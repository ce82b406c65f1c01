"""What one position, one answer costs the expected score's slowest requests, counted by
callgrind: for each of ``expect_bench``'s 20 hands of one shanten (the caches warmed as it warms
them, and on the shanten before), the instructions of its ``/v1/discards`` request and of
``/v1/waits`` on the 13 tiles its best discard leaves, that discard seen. The request must give
that discard the figures ``/v1/waits`` gives (API.md), so where the best discard is farther
from ready than the nearest, the second search is a floor under the request's time, whatever
its first searches cost. Run from build/compiled, as ``expect_instructions``:

    python -m bench.expect_alone [shanten]     (1 by default)
"""

from __future__ import annotations

import statistics
import sys

from bench.expect_instructions import COUNTING, WARMED, dumps, inclusive

SCRIPT = (
    WARMED
    + """
from service.domain.rules import tiles as t
for body in [body for s in range(shanten) for body in counted[s]]:
    engine.discards({**body, "expect": expect_bench.EXPECT})
"""
    + COUNTING
    + """
for body in counted[shanten]:
    os.getppid()
    answer = engine.discards({**body, "expect": expect_bench.EXPECT})
    best = answer["discards"][0]
    left = t.parse(body["hand"]["tiles"])
    left.remove(t.parse(best["tile"])[0])
    alone = {**body, "hand": {**body["hand"], "tiles": t.compact(left)},
             "visible": best["tile"], "expect": expect_bench.EXPECT}
    os.getppid()
    waits = engine.waits(alone)
    assert waits["expected"] == best["expected"], "one position, two answers"
    print(best["shanten"], answer["expectation"]["states"], waits["expectation"]["states"])
os.getppid()
os._exit(0)
"""
)


def measure(shanten: int = 1) -> list[tuple[int, int, int, int, int]]:
    """For each hand: its best discard's shanten, the states and instructions of its request
    (``engine.discards``), and those of the best discard's 13 tiles alone (``engine.waits``)."""
    found = []
    with dumps(SCRIPT, str(shanten)) as (work, printed):
        for i, line in enumerate(printed.splitlines()):
            best, states, alone_states = (int(word) for word in line.split())
            request = inclusive(f"{work}/out.{2 + 2 * i}", "engine___discards")
            alone = inclusive(f"{work}/out.{3 + 2 * i}", "engine___waits")
            found.append((best, states, request, alone_states, alone))
    return found


if __name__ == "__main__":
    shanten = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    rows = measure(shanten)
    median = statistics.median(request for _, _, request, _, _ in rows)
    print(f"{shanten} from ready: the median request {median / 1e6:.2f}M instructions")
    for best, states, request, alone_states, alone in sorted(rows, key=lambda row: -row[2]):
        print(
            f"best discard {best} from ready: the request {request / median:.2f}x the median"
            f" ({states:,} hands), its best discard's 13 tiles alone {alone / median:.2f}x"
            f" ({alone_states:,} hands)"
        )
