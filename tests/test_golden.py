"""Every answer unchanged: the engine's whole responses to generated requests, held to digests
recorded before the engine was rebuilt for speed (issue #27).

The requests are deterministic (``tests.support.handgen``, fixed seeds): won hands under the
versions' own rules, under house rules (values, exclusions, chicken, limit, payoff), explained
ones, and hand analyses (``/v1/discards``: every wait of every discard scored). A response is
kept whole, keys in order, errors as their problem bodies; its digest is what is compared.
A change that means to change answers records them again, and says so in its commit:

    python -m tests.test_golden      (rewrites tests/golden/answers.txt)
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from service import engine
from service.problems import Problem

from .support.handgen import draw_house_rules, generate, generate_analysis

ANSWERS = Path(__file__).parent / "golden" / "answers.txt"


def cases() -> Iterator[tuple[str, Callable[[Any], dict[str, Any]], dict[str, Any]]]:
    """(name, operation, request) for every recorded answer."""
    rng = random.Random(27)
    for index, request in enumerate(generate(1200, seed=27)):
        if index % 3 == 1:
            request = {**request, "rules": draw_house_rules(rng)}
        if index % 5 == 2:
            request = {**request, "explain": True}
        yield f"score {index}", engine.score, request
    for index, (kind, request) in enumerate(generate_analysis(60, seed=27)):
        yield f"discards {index} ({kind})", engine.discards, request


def answer(operation: Callable[[Any], dict[str, Any]], request: dict[str, Any]) -> str:
    """The digest of the whole response (a problem's body for a refused request)."""
    try:
        body = operation(request)
    except Problem as problem:
        body = {"status": problem.status, **problem.body()}
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def recorded() -> dict[str, str]:
    lines = ANSWERS.read_text(encoding="utf-8").splitlines()
    return dict(line.rsplit(" ", 1) for line in lines)


def test_every_answer_is_the_recorded_one() -> None:
    expected = recorded()
    changed = [name for name, operation, request in cases()
               if answer(operation, request) != expected.pop(name, None)]  # fmt: skip
    assert not changed, f"{len(changed)} answers changed, first: {changed[:5]}"
    assert not expected, f"recorded answers no case gives: {sorted(expected)[:5]}"


if __name__ == "__main__":
    ANSWERS.write_text(
        "".join(f"{name} {answer(operation, request)}\n" for name, operation, request in cases()),
        encoding="utf-8",
    )
