"""Engine figures, in process, one core: request dict -> response dict via ``service.engine``.

Method (so that figures from different days compare):
- the hands are ``handgen.generate(n, seed)``, scored in one fixed shuffled order;
- every ``functools`` cache found in the service's modules is cleared first, and the first
  pass is reported as the *cold* pass; five more passes follow with the caches *warm* (each
  cache holds what the first pass put there) and the best of them is the throughput figure;
- a separate pass times each hand alone (``perf_counter_ns``) for p50/p99/max; the slowest
  hands are then re-timed many times, so that a garbage-collector pause or a scheduler hiccup
  is not mistaken for a slow hand;
- the split re-runs the three stages ``service.engine.score`` chains (schema load, domain,
  render) separately, each over all hands, best of three;
- the inputs are moved out of the garbage collector's sight (``gc.freeze``) once built: they
  are hundreds of thousands of objects a server never holds, and every full collection would
  walk them, a cost of the benchmark and not of the engine.
"""

from __future__ import annotations

import functools
import gc
import importlib
import pkgutil
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.support import handgen


@dataclass
class Slow:
    family: str
    payload: dict[str, Any]
    single_us: float  # its time in the per-hand pass
    retimed_us: float  # median of many re-runs


@dataclass
class EngineFigures:
    hands: int
    cold_rate: float
    warm_rates: list[float]
    p50_us: float
    p99_us: float
    max_us: float
    slowest: list[Slow]
    split_us: dict[str, float] = field(default_factory=dict)  # stage -> µs per hand
    split_error: str = ""
    caches: list[str] = field(default_factory=list)

    @property
    def best_rate(self) -> float:
        return max(self.warm_rates)


def service_caches() -> list[tuple[str, Any]]:
    """Every cache at module level in the ``service`` package: functools caches and memos."""
    import service

    found = []
    seen = set()
    for info in pkgutil.walk_packages(service.__path__, "service."):
        if info.name.startswith(("service.api", "service.worker")) or info.name.endswith(
            "__main__"
        ):
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            clearable = callable(getattr(value, "cache_clear", None))
            if clearable and not isinstance(value, type) and id(value) not in seen:
                seen.add(id(value))  # a cache imported elsewhere is the same cache
                found.append((f"{info.name}.{name}", value))
    return found


def _entries(cached: Any) -> int:
    info = getattr(cached, "cache_info", None)
    return int(info().currsize) if info is not None else len(cached)


WARM_PASSES = 5


def _pass(function: Callable[[Any], Any], items: list[Any]) -> float:
    """Seconds for one call of ``function`` per item, in order."""
    start = time.perf_counter()
    for item in items:
        function(item)
    return time.perf_counter() - start


def _best(function: Callable[[Any], Any], items: list[Any], passes: int = 3) -> float:
    return min(_pass(function, items) for _ in range(passes))


def measure(n: int = 10_000, seed: int = 20_240_601, retime: int = 200) -> EngineFigures:
    drawn = handgen.generate_labelled(n, seed)
    random.Random(seed).shuffle(drawn)
    payloads = [item.payload for item in drawn]
    gc.freeze()
    try:
        return _measure(drawn, payloads, retime)
    finally:
        gc.unfreeze()


def _measure(drawn: list[handgen.Drawn], payloads: list[Any], retime: int) -> EngineFigures:
    from service import engine

    n = len(payloads)

    caches = service_caches()
    for _, cached in caches:
        cached.cache_clear()
    cold = _pass(engine.score, payloads)  # also the warm-up
    # Five: on a shared VM one pass in three can be slowed by a neighbour.
    warm = [_pass(engine.score, payloads) for _ in range(WARM_PASSES)]
    cache_notes = [f"{name}: {_entries(cached)} entries" for name, cached in caches]

    times = []
    for payload in payloads:
        start = time.perf_counter_ns()
        engine.score(payload)
        times.append(time.perf_counter_ns() - start)
    ordered = sorted(range(n), key=times.__getitem__, reverse=True)
    slowest = []
    for index in ordered[:5]:
        runs = []
        for _ in range(retime):
            start = time.perf_counter_ns()
            engine.score(payloads[index])
            runs.append(time.perf_counter_ns() - start)
        slowest.append(
            Slow(
                drawn[index].family,
                payloads[index],
                times[index] / 1e3,
                statistics.median(runs) / 1e3,
            )
        )
    slowest.sort(key=lambda slow: -slow.retimed_us)
    cuts = statistics.quantiles(times, n=100)
    figures = EngineFigures(
        hands=n,
        cold_rate=n / cold,
        warm_rates=[n / seconds for seconds in warm],
        p50_us=cuts[49] / 1e3,
        p99_us=cuts[98] / 1e3,
        max_us=max(times) / 1e3,
        slowest=slowest,
        caches=cache_notes,
    )
    try:
        figures.split_us = split(payloads)
    except Exception as error:
        figures.split_error = f"{type(error).__name__}: {error}"
    return figures


def split(payloads: list[dict[str, Any]]) -> dict[str, float]:
    """µs per hand in each stage of ``engine.score``, each stage timed on its own.

    Mirrors engine.score: ``load`` -> ``scoring.score`` + ``payments.payments`` ->
    ``render.score_response``. If engine.py changes how it chains them, the 'sum' row stops
    matching the end-to-end time, which the report shows.
    """
    from service import render
    from service.domain.scoring import payments, scoring
    from service.request import ScoreRequestSchema, load

    schema = ScoreRequestSchema()
    n = len(payloads)
    loaded = [load(schema, payload) for payload in payloads]

    def domain(request: Any) -> tuple[Any, dict[str, int]]:
        best = scoring.score(request.hand, request.win, request.rules)
        return best, payments.payments(best.score, request.win, request.rules)

    scored = [domain(request) for request in loaded]
    gc.freeze()  # the stages' inputs, as the payloads in measure()
    seconds = {
        "schema load": _best(functools.partial(load, schema), payloads),
        "domain (score + payments)": _best(domain, loaded),
        "render": _best(lambda pair: render.score_response(*pair), scored),
    }
    return {stage: value / n * 1e6 for stage, value in seconds.items()}
