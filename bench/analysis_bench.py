"""Hand analysis figures, in process, one core: a /v1/discards request dict -> response dict.

Method: ``handgen.generate_analysis(n, seed)`` (random deals, near-ready hands and hands with
melds, a third each). First as a live server meets them: the caches warmed on ``warm`` other
hands (another seed), each hand timed once. Then the caches are cleared and a first pass is
the cold one; then each request is timed alone (``perf_counter_ns``) with the caches warm, for
the median and the p99, overall and by kind: the same hands again. A single score request
(``engine.score``, the engine bench's hands) is timed in the same run, so that the ratio of
the two does not depend on the machine.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tests.support import handgen

from .engine_bench import service_caches


@dataclass
class AnalysisFigures:
    analyses: int
    cold_ms: float  # the whole cold pass, per analysis
    median_ms: float
    p99_ms: float
    by_kind: dict[str, tuple[float, float]]  # kind -> (median, p99) in ms
    score_median_us: float
    new_median_ms: float  # hands not seen before, the caches warmed on others
    new_p99_ms: float
    new_score_median_us: float  # a single score of a hand not seen before, likewise

    @property
    def in_scores(self) -> float:
        """A median analysis, counted in median single score requests."""
        return self.median_ms * 1e3 / self.score_median_us

    @property
    def new_in_scores(self) -> float:
        """A median analysis of a new hand, counted in single scores of new hands."""
        return self.new_median_ms * 1e3 / self.new_score_median_us


def _timed(function: Callable[[Any], Any], items: list[Any]) -> list[float]:
    times = []
    for item in items:
        start = time.perf_counter_ns()
        function(item)
        times.append((time.perf_counter_ns() - start) / 1e6)
    return times


def measure(n: int = 1000, seed: int = 20_261_124, warm: int = 2300) -> AnalysisFigures:
    from service import engine

    requests = handgen.generate_analysis(n, seed)
    payloads = [payload for _, payload in requests]
    scores = handgen.generate(n, seed)
    others = [payload for _, payload in handgen.generate_analysis(warm, seed + 1)]
    other_scores = handgen.generate(warm, seed + 1)
    gc.freeze()
    try:
        # Hands not seen before: the caches warmed on other hands, each new one timed once.
        for _, cached in service_caches():
            cached.cache_clear()
        _timed(engine.discards, others)
        new_times = _timed(engine.discards, payloads)
        _timed(engine.score, other_scores)
        new_score_times = _timed(engine.score, scores)
        for _, cached in service_caches():
            cached.cache_clear()
        start = time.perf_counter()
        for payload in payloads:
            engine.discards(payload)
        cold = (time.perf_counter() - start) / n * 1e3
        times = _timed(engine.discards, payloads)
        _timed(engine.score, scores)  # warm
        score_times = _timed(engine.score, scores)
    finally:
        gc.unfreeze()
    by_kind = {}
    for kind in handgen.ANALYSIS_KINDS:
        mine = [ms for (k, _), ms in zip(requests, times, strict=True) if k == kind]
        by_kind[kind] = (statistics.median(mine), statistics.quantiles(mine, n=100)[98])
    return AnalysisFigures(
        analyses=n,
        cold_ms=cold,
        median_ms=statistics.median(times),
        p99_ms=statistics.quantiles(times, n=100)[98],
        by_kind=by_kind,
        score_median_us=statistics.median(score_times) * 1e3,
        new_median_ms=statistics.median(new_times),
        new_p99_ms=statistics.quantiles(new_times, n=100)[98],
        new_score_median_us=statistics.median(new_score_times) * 1e3,
    )
