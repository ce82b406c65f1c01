"""The domain's errors: what went wrong, as a stable code, and where in the request.

They know nothing of HTTP: service/problems.py answers them as problem documents.
"""

from __future__ import annotations

from typing import ClassVar, Self


class ScoringError(Exception):
    """A hand or win the rules cannot score; ``errors`` point at the offending fields."""

    code: ClassVar[str]

    def __init__(self, detail: str, errors: list[dict[str, str]]) -> None:
        super().__init__(detail)
        self.detail = detail
        self.errors = errors

    @classmethod
    def at(cls, path: str, message: str) -> Self:
        """The error of one field: the message is also the detail."""
        return cls(f"{path}: {message}", [{"path": path, "message": message}])


class InvalidHand(ScoringError):
    """Tiles and melds that cannot be a hand: a bad meld, a wrong count, a fifth copy."""

    code = "invalid_hand"


class InvalidContext(ScoringError):
    """A win that cannot happen as described (RULES.md §4 items 11-13, 15)."""

    code = "invalid_context"


class NotAWinningHand(ScoringError):
    """Tiles that form no winning hand under the rules in force."""

    code = "not_a_winning_hand"
