"""The API's operations with a body, one entry each.

The Flask routes, the scoring lane (api/lane.py), the worker's turns (turns.py) and the
metrics all read this table: a new endpoint is one entry here and its function in engine.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from . import engine

# A server's pause: lets it answer others in the middle of a long computation (turns.py).
Pause = Callable[[], None]


@dataclass(frozen=True, slots=True)
class Operation:
    """``answer`` computes the response JSON of a request's JSON; ``hands`` counts the hands
    it answered with a score (``zj_hands_scored_total``, labelled ``name``); a ``background``
    operation is long work that takes its turns after the single requests and is given the
    server's pause."""

    path: str
    name: str
    answer: Callable[[Any, Pause | None], dict[str, Any]]
    hands: Callable[[dict[str, Any]], int]
    background: bool = False


def _one(answer: dict[str, Any]) -> int:
    return 1


def _each_scored(answer: dict[str, Any]) -> int:
    return sum(1 for result in answer["results"] if result["status"] == 200)


def _each_won(answer: dict[str, Any]) -> int:
    return sum(1 for hand in answer["hands"] if "winner" in hand)


# Each operation calls the engine's function by name when it runs (a lambda), so that what
# replaces it (a test's fault) is what runs.
OPERATIONS: Final = {
    operation.path: operation
    for operation in (
        Operation("/v1/score", "score", lambda payload, pause: engine.score(payload), _one),
        Operation("/v1/waits", "waits", lambda payload, pause: engine.waits(payload), _one),
        Operation(
            "/v1/discards", "discards", lambda payload, pause: engine.discards(payload), _one
        ),
        Operation("/v1/claim", "claim", lambda payload, pause: engine.claim(payload), _one),
        Operation(
            "/v1/score/batch",
            "batch",
            lambda payload, pause: engine.batch(payload, pause),
            _each_scored,
            background=True,
        ),
        Operation(
            "/v1/settle",
            "settle",
            lambda payload, pause: engine.settle(payload, pause),
            _each_won,
            background=True,
        ),
    )
}
BACKGROUND: Final = frozenset(path for path, op in OPERATIONS.items() if op.background)
