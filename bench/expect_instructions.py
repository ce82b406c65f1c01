"""The expected score's instructions per shanten, counted by callgrind: ``expect_bench``'s hands
without the clock's noise (a VM's timings swing by a third; the instructions do not).

The bench's caches are warmed as it warms them, uninstrumented (valgrind runs the warm-up at
native speed, then ``callgrind_control -i on``), then each shanten's 20 hands are answered in
turn, from ready up, as the bench answers them: a dump each (``--dump-before`` a call nothing
else makes), so that a shanten's count is its own hands'. Printed per shanten: the instructions
in ``engine.discards`` (inclusive) and in all. Run from the tree whose ``service`` is counted
(build/compiled for the shipped build):

    python -m bench.expect_instructions [shanten]     (up to that shanten, 3 by default)
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

# The bench's hands (``counted``, by shanten), its caches warmed as it warms them (``warm``):
# what a script run under callgrind (``dumps``) starts with, its first argument a shanten.
WARMED = """
import gc, os, subprocess, sys
from bench import expect_bench
from service import engine
shanten, per, seed = int(sys.argv[1]), 20, 20_261_127
warm, counted = expect_bench.hands(per, seed + 1), expect_bench.hands(per, seed)
for bodies in warm.values():
    for body in bodies[: per // 2]:
        engine.discards({**body, "expect": expect_bench.EXPECT})
"""
COUNTING = """
gc.freeze()
subprocess.run(["callgrind_control", "-i", "on", str(os.getpid())], check=True,
               capture_output=True)
"""
SCRIPT = (
    WARMED
    + COUNTING
    + """
def run(bodies):
    for body in bodies:
        engine.discards({**body, "expect": expect_bench.EXPECT})
for top in range(shanten + 1):
    os.getppid()  # a dump: what came before is the warm-up's, or the shanten before
    run(counted[top])
os.getppid()
os._exit(0)
"""
)


def measure(top: int = 3) -> list[tuple[int, int, int]]:
    """(shanten, instructions in ``engine.discards``, instructions in all) for each shanten
    up to ``top``."""
    found = []
    with dumps(SCRIPT, str(top)) as (work, _):
        for shanten in range(top + 1):
            dump = f"{work}/out.{shanten + 2}"  # out.1: the warm-up's
            found.append((shanten, inclusive(dump, "engine___discards"), inclusive(dump, None)))
    return found


@contextmanager
def dumps(script: str, *args: str) -> Iterator[tuple[str, str]]:
    """``script`` run under callgrind, counting from its ``callgrind_control -i on``, a dump
    before each ``os.getppid()``: the folder of the dumps (``out.1`` and on), and what it
    printed."""
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(Path.cwd())}
    with tempfile.TemporaryDirectory() as work:
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", "--instr-atstart=no", "--dump-before=os_getppid",
             f"--callgrind-out-file={work}/out", sys.executable, "-c", script, *args],
            capture_output=True, text=True, env=env, check=True, timeout=3600,
        )  # fmt: skip
        yield work, run.stdout


def inclusive(dump: str, function: str | None) -> int:
    """The instructions a dump counts in a compiled function and what it calls (``None``: in
    all)."""
    annotated = subprocess.run(
        ["callgrind_annotate", "--inclusive=yes", "--threshold=100", dump],
        capture_output=True, text=True, check=True, timeout=300,
    ).stdout  # fmt: skip
    named = r"\S* *PROGRAM TOTALS" if function is None else rf".*CPyDef_{function} "
    found = re.search(r"([\d,]+) " + named, annotated)
    if found is None:
        raise RuntimeError(f"no count in {dump} (the pure build names no function)")
    return int(found[1].replace(",", ""))


if __name__ == "__main__":
    for shanten, discards, total in measure(int(sys.argv[1]) if len(sys.argv) > 1 else 3):
        print(f"shanten {shanten}: engine.discards {discards:,}, all {total:,}")
