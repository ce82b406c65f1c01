"""Score sheet figures, in process, one core: a 200-hand POST /v1/settle body -> its answer.

The sheet's hands are the engine bench's generated hands (scored), each second one claimed
from what its score counted, and a draw every tenth; the seats rotate every four hands. A
sheet is background work (it pauses as a batch does), so its time is a figure of capacity,
not of how long a probe waits beside it.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from tests.support import handgen

from .engine_bench import service_caches

PLAYERS = ["Ann", "Bob", "Cat", "Dan"]


def sheet(hands: int = 200, seed: int = 11) -> dict[str, Any]:
    from service import engine

    rows: list[dict[str, Any]] = []
    for request in handgen.generate(3 * hands, seed):
        index = len(rows)
        if index == hands:
            break
        try:  # the sheet's rules are the defaults: a hand drawn for others is left out
            answer = engine.score({**request, "rules": {}})
        except engine.Problem:
            continue
        names = PLAYERS[index // 4 % 4 :] + PLAYERS[: index // 4 % 4]
        row: dict[str, Any] = {"seats": dict(zip("ESWN", names, strict=True))}
        if index % 10 == 9:
            row["draw"] = True
        elif index % 2:
            counted = answer["patterns"] + answer["not_counted"]
            keep = ("by", "seat", "discarder")
            row["claim"] = {
                "patterns": [{"id": p["id"], "count": p["count"]} if p["id"] == "3.1"
                             else {"id": p["id"]} for p in counted if p["id"] != "0"],
                "win": {key: value for key, value in request["win"].items() if key in keep},
            }  # fmt: skip
        else:
            row["score"] = {"hand": request["hand"], "win": request["win"]}
        rows.append(row)
    return {"players": PLAYERS, "hands": rows}


def measure(runs: int = 20) -> tuple[int, float, float]:
    """Hands in the sheet, then the median and the slowest ms to settle it (caches warm)."""
    from service import engine

    body = sheet()
    for _, cached in service_caches():
        cached.cache_clear()
    engine.settle(body)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        engine.settle(body)
        times.append((time.perf_counter() - start) * 1e3)
    return len(body["hands"]), statistics.median(times), max(times)
