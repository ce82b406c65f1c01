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
    (``zj_hands_scored_total``). Long work takes its turns after the single requests and is
    given the server's pause: every request of a ``background`` operation, and those whose
    body has the key ``long_with`` (an expected score: ``expect``)."""

    path: str
    name: str
    hands: Callable[[dict[str, Any]], int]
    background: bool = False
    long_with: str | None = None

    def long(self, payload: Any) -> bool:
        """Whether the request (its body as JSON) is long work."""
        if self.background or self.long_with is None:
            return self.background
        return isinstance(payload, dict) and self.long_with in payload

    def long_body(self, body: bytes) -> bool:
        """Whether the request is long work, from its body's bytes before they are parsed (the
        turns, turns.py). The key is looked for anywhere in the body: unknown fields are
        refused and only a house-rule profile's name could spell it as a value, so a body
        holding it asks for long work, or is refused, or names such a profile: then it has
        waited like a batch, no harm done. A key spelt with JSON escapes is missed: that
        request waits with the single ones, and its pauses still let them go first
        (``long`` gives it the pause)."""
        if self.background or self.long_with is None:
            return self.background
        return f'"{self.long_with}"'.encode() in body

    def answer(self, payload: Any, pause: Pause | None) -> dict[str, Any]:
        """The response JSON; ``pause`` only for long work (else None)."""
        # Looked up when it runs, so that what replaces it (a test's fault) is what runs.
        function = getattr(engine, self.name)
        answered: dict[str, Any] = function(payload) if pause is None else function(payload, pause)
        return answered


def _one(answer: dict[str, Any]) -> int:
    return 1


def _each_scored(answer: dict[str, Any]) -> int:
    return sum(1 for result in answer["results"] if result["status"] == 200)


def _won(answer: dict[str, Any]) -> int:
    return 1 if "score" in answer else 0


def _each_won(answer: dict[str, Any]) -> int:
    return sum(1 for hand in answer["hands"] if "winner" in hand)


OPERATIONS: Final = {
    operation.path: operation
    for operation in (
        Operation("/v1/score", "score", _one),
        Operation("/v1/waits", "waits", _one, long_with="expect"),
        Operation("/v1/discards", "discards", _one, long_with="expect"),
        Operation("/v1/claim", "claim", _one),
        Operation("/v1/score/batch", "batch", _each_scored, background=True),
        Operation("/v1/settle", "settle", _each_won, background=True),
        # Replaying is short work; a review of its decisions (`review`) is long.
        Operation("/v1/replay", "replay", _won, long_with="review"),
    )
}
