"""Instructions per hand, counted by valgrind's callgrind: the engine's cost without the noise.

Timings on a shared VM swing by a third from one minute to the next; the number of machine
instructions the engine executes for the same hands does not. Two runs of the same script
under callgrind differ only in how many times they score the hands, so the difference of
their totals, divided by the hands scored, is the engine's cost per hand, warm (the script
scores every hand once before counting). Hash randomisation is fixed so that both runs do
the same work.

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

# Scores ``hands`` generated hands once (warm-up), then ``passes`` more times.
SCRIPT = """
import sys
from tests.support import handgen
from service import engine
hands = handgen.generate(int(sys.argv[1]), 1)
for _ in range(1 + int(sys.argv[2])):
    for hand in hands:
        engine.score(hand)
"""


def available() -> str | None:
    return shutil.which("valgrind")


def _total(hands: int, passes: int) -> int:
    """Instructions callgrind counted for the whole script."""
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
             sys.executable, "-c", SCRIPT, str(hands), str(passes)],
            capture_output=True, text=True, env=env, check=True, timeout=900,
        )  # fmt: skip
    found = re.search(r"refs:\s+([\d,]+)", result.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count in valgrind's output:\n{result.stderr[-500:]}")
    return int(found[1].replace(",", ""))


def per_hand(hands: int = 2000) -> float:
    """Instructions the engine executes per hand (request dict to response dict), warm."""
    return (_total(hands, PASSES) - _total(hands, 0)) / (hands * PASSES)


def main() -> int:
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    if available() is None:
        print("valgrind is not installed (apt-get install valgrind)")
        return 1
    print(f"{per_hand(hands):,.0f} instructions per hand ({hands:,} hands)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
