"""Hand-record reviews (API.md "Hand records", ``review``), in process, one core:
/v1/replay with ``review`` on self-played records the service has not seen
(``selfplay.generate``), at the default state budget and the default question (no discard
wins, expected score).

Method: the caches are warmed on records of another seed; then each record is reviewed for
one seat (South: about 17 discards and its claim chances) and for all four, each timed alone.
Printed: median and p99 seconds of each, of the process's CPU time (a review runs on one
core: on a machine shared with other work, the wall clock also counts waits for the core),
and the decisions reviewed and not assessed.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from typing import Any

from tests.support import selfplay


@dataclass
class ReviewFigures:
    seats: str
    records: int
    median_s: float
    p99_s: float
    decisions: float  # the median decisions of a record
    not_assessed: int  # over every record


def _reviewed(played: selfplay.Played, seats: list[str] | None) -> tuple[float, dict[str, Any]]:
    from service import engine

    body = {**played.payload(), "review": {} if seats is None else {"seats": seats}}
    start = time.process_time()
    answer = engine.replay(body)
    return time.process_time() - start, answer


def measure(records: int = 12, seed: int = 20_261_128) -> list[ReviewFigures]:
    for played in selfplay.generate(2, seed + 1):  # warm on other records
        _reviewed(played, ["S"])
    hands = selfplay.generate(records, seed)
    figures = []
    for label, seats in (("one seat (S)", ["S"]), ("four seats", None)):
        times, decisions, not_assessed = [], [], 0
        for played in hands:
            took, answer = _reviewed(played, seats)
            times.append(took)
            summaries = [s["summary"] for s in answer["review"]["seats"].values()]
            decisions.append(sum(s["decisions"] for s in summaries))
            not_assessed += sum(s["grades"]["not_assessed"] for s in summaries)
        figures.append(
            ReviewFigures(
                label,
                len(hands),
                statistics.median(times),
                statistics.quantiles(times, n=100)[98] if len(times) > 1 else times[0],
                statistics.median(decisions),
                not_assessed,
            )
        )
    return figures


if __name__ == "__main__":
    for row in measure(4):
        print(row)
