"""Instructions per hand, counted by valgrind's callgrind: the engine's cost without the noise.

Timings on a shared VM swing by a third from one minute to the next; the number of machine
instructions the engine executes for the same hands does not. Two runs of the same script
under callgrind differ only in how many passes over hands they score, so the difference of
their totals, divided by the hands scored, is the engine's cost per hand, warm (the script
scores a pass of hands before counting). The passes score the same hands again, or hands not
seen before: both figures are printed. Hash randomisation is fixed so that both runs do the
same work.

On the compiled build, the cost is also split by stage: the instructions spent inside each
stage's compiled entry point (its inclusive cost, from callgrind_annotate), the rest being the
glue between them (engine.py) and freeing the response.

    python -m bench.instructions [hands]      (valgrind from Debian: apt-get install valgrind)
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import service

PASSES = 2
TARGET = 40_000  # the engine issue's (#27): a third of what it cost before

# Each stage of engine.score by its compiled function (mypyc's native entry point, CPyDef_*,
# which its Python-callable wrapper calls too, and which compiled callers call directly).
STAGES = {
    "schema load": ("CPyDef_fast___Record___load",),
    "domain (score + payments)": ("CPyDef_scoring___scoring___score", "CPyDef_payments___payments"),
    "render": ("CPyDef_render___score_response",),
}

# Before hands not seen before, the tables a server fills from its clients' hands warmed by
# this many others: the decompositions of suits then hit ~90% of the time (~94% after 30,000).
WARM_HANDS = 20_000

# Scores ``hands`` generated hands once (warm-up), then ``passes`` more times, the same hands
# again; or (``new``) scores ``WARM_HANDS`` other hands, then ``passes`` of hands not seen
# before. Every pass is generated first, so that both runs generate alike; the loop is a
# function's, so that what it costs beside the engine is next to nothing (at module level,
# each hand's name is stored in and read from the module's dict: ~550 instructions a hand).
# The hands are then moved out of the garbage collector's sight (``gc.freeze``), as
# engine_bench does: 24,000 requests are ~250,000 objects a server never holds, and a full
# collection falling in the counted passes walked them all, ~11,700 instructions a hand. The
# service's own objects from its start are frozen with them, as the server's are before it
# forks its workers (gunicorn.conf.py). The script ends without the interpreter's
# finalisation: its full collections walk every table, so a run that filled them with 4,000
# more hands paid ~830 instructions a hand more to exit. That is a cost per process, not per
# hand (a server's full collections come once in tens of thousands of hands).
SCRIPT = """
import gc, os, sys
from tests.support import handgen
from service import engine
hands, passes, new = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "new"
warm = max(1, WARM_HANDS // hands) if new else 1
sets = [handgen.generate(hands, seed) for seed in range(1, 1 + warm + (PASSES if new else 0))]
gc.freeze()
def run(score):
    for index in range(warm + passes):
        for hand in sets[index if new else 0]:
            score(hand)
run(engine.score)
os._exit(0)
""".replace("WARM_HANDS", str(WARM_HANDS)).replace("PASSES", str(PASSES))


# The same hands as ``SCRIPT``'s new ones, scored outside valgrind, counting the objects the
# cyclic garbage collector walks while the counted passes are scored: each collection walks
# its generation and the younger ones. Its share of the instructions comes in lumps (a
# collection of the older generation walks thousands of objects, and falls in the counted
# passes or not), so the objects walked are the steadier measure of what the tables cost it.
WALKS = """
import gc, sys
from tests.support import handgen
from service import engine
hands = int(sys.argv[1])
warm = max(1, WARM_HANDS // hands)
sets = [handgen.generate(hands, seed) for seed in range(1, 1 + warm + PASSES)]
gc.freeze()
walked = [0, 0]
def walk(phase, info):
    if phase == "start":
        walked[0] += sum([len(gc.get_objects(g)) for g in range(info["generation"] + 1)])
        walked[1] += 1
def run(chosen):
    for hands_set in chosen:
        for hand in hands_set:
            engine.score(hand)
run(sets[:warm])
gc.callbacks.append(walk)
run(sets[warm:])
gc.callbacks.remove(walk)
print(walked[0], walked[1])
""".replace("WARM_HANDS", str(WARM_HANDS)).replace("PASSES", str(PASSES))


def available() -> str | None:
    return shutil.which("valgrind")


def _run(hands: int, passes: int, new: bool) -> tuple[int, dict[str, int]]:
    """Instructions callgrind counted for the whole script, and inclusive by function."""
    root = Path(service.__file__).parent.parent  # the tree whose service is measured
    bench_root = Path(__file__).resolve().parent.parent
    env = {
        **os.environ,
        "PYTHONHASHSEED": "0",
        "PYTHONPATH": os.pathsep.join([str(root), str(bench_root)]),
    }
    with tempfile.TemporaryDirectory() as work:
        result = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={work}/out",
             sys.executable, "-c", SCRIPT, str(hands), str(passes), "new" if new else "same"],
            capture_output=True, text=True, env=env, check=True, timeout=900,
        )  # fmt: skip
        found = re.search(r"refs:\s+([\d,]+)", result.stderr)
        if found is None:
            raise RuntimeError(
                f"no instruction count in valgrind's output:\n{result.stderr[-500:]}"
            )
        annotated = subprocess.run(
            ["callgrind_annotate", "--inclusive=yes", "--threshold=100", f"{work}/out"],
            capture_output=True, text=True, check=True, timeout=300,
        ).stdout  # fmt: skip
    return int(found[1].replace(",", "")), _inclusive(annotated)


def _inclusive(annotated: str) -> dict[str, int]:
    """The entry points' inclusive counts from callgrind_annotate's listing."""
    counts: dict[str, int] = {}
    for line in annotated.splitlines():
        match = re.match(r"\s*([\d,]+) .*?(CPyDef_\w+) ", line)
        if match:
            counts[match[2]] = max(counts.get(match[2], 0), int(match[1].replace(",", "")))
    return counts


def walked(hands: int = 2000) -> tuple[float, int]:
    """Objects the cyclic collector walked per hand not seen before, and its collections,
    over the passes ``measure(hands, new=True)`` counts (``WALKS``)."""
    root = Path(service.__file__).parent.parent
    bench_root = Path(__file__).resolve().parent.parent
    env = {
        **os.environ,
        "PYTHONHASHSEED": "0",
        "PYTHONPATH": os.pathsep.join([str(root), str(bench_root)]),
    }
    result = subprocess.run(
        [sys.executable, "-c", WALKS, str(hands)],
        capture_output=True, text=True, env=env, check=True, timeout=900,
    )  # fmt: skip
    objects, collections = map(int, result.stdout.split())
    return objects / (hands * PASSES), collections


def measure(hands: int = 2000, new: bool = False) -> tuple[float, dict[str, float]]:
    """Instructions per hand (request dict to response dict), warm, and per stage (empty on
    the pure build, whose stages are not functions callgrind can name).

    Warm: the hands were scored before, and the tables filled as clients' hands fill them
    (``memo.Memo``) hold what they need. ``new``: hands not seen before, the tables warm from
    others: what a stream of distinct hands costs, where a table holding whole answers
    (pattern lines, payments) hits only on what recurs.
    """
    total_0, by_function_0 = _run(hands, 0, new)
    total, by_function = _run(hands, PASSES, new)
    scored = hands * PASSES

    def stage(names: tuple[str, ...]) -> float:
        return sum(by_function.get(n, 0) - by_function_0.get(n, 0) for n in names) / scored

    split = {name: stage(names) for name, names in STAGES.items()}
    per_hand = (total - total_0) / scored
    if not all(split.values()):
        return per_hand, {}
    split["glue (engine.py, freeing)"] = per_hand - sum(split.values())
    return per_hand, split


def main() -> int:
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    if available() is None:
        print("valgrind is not installed (apt-get install valgrind)")
        return 1
    for new in (False, True):
        count, split = measure(hands, new)
        hands_were = "hands not seen before" if new else "the same hands again"
        print(f"{count:,.0f} instructions per hand ({hands:,} {hands_were}); target {TARGET:,}")
        for stage, value in split.items():
            print(f"  {stage}: {value:,.0f}")
    objects, collections = walked(hands)
    print(f"  the cyclic collector walked {objects:,.1f} objects a new hand"
          f" ({collections} collections)")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
