"""The API's operations with a body, one entry each.

The Flask routes, the scoring lane (api/lane.py), the worker's turns (turns.py) and the
metrics all read this table: a new endpoint is one entry here and its function of the same
name in engine.py.
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
    """``name`` is the engine's function that answers it (response JSON from request JSON)
    and its name in the metrics; ``hands`` counts the hands it answered with a score
    (``zj_hands_scored_total``); a ``background`` operation is long work that takes its turns
    after the single requests and is given the server's pause."""

    path: str
    name: str
    hands: Callable[[dict[str, Any]], int]
    background: bool = False

    def answer(self, payload: Any, pause: Pause | None) -> dict[str, Any]:
        # Looked up when it runs, so that what replaces it (a test's fault) is what runs.
        function = getattr(engine, self.name)
        answered: dict[str, Any] = (
            function(payload, pause) if self.background else function(payload)
        )
        return answered


def _one(answer: dict[str, Any]) -> int:
    return 1


def _each_scored(answer: dict[str, Any]) -> int:
    return sum(1 for result in answer["results"] if result["status"] == 200)


def _each_won(answer: dict[str, Any]) -> int:
    return sum(1 for hand in answer["hands"] if "winner" in hand)


OPERATIONS: Final = {
    operation.path: operation
    for operation in (
        Operation("/v1/score", "score", _one),
        Operation("/v1/waits", "waits", _one),
        Operation("/v1/discards", "discards", _one),
        Operation("/v1/claim", "claim", _one),
        Operation("/v1/score/batch", "batch", _each_scored, background=True),
        Operation("/v1/settle", "settle", _each_won, background=True),
    )
}
BACKGROUND: Final = frozenset(path for path, op in OPERATIONS.items() if op.background)
