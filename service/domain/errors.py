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

    def within(self, prefix: str) -> Self:
        """This error moved into a request nested at ``prefix`` (a score sheet's hand): each
        is raised for one request, so it is changed in place. Paths in ``rules``, which a
        sheet gives once for all its hands, name the hand and say which rule."""
        self.errors = [
            {"path": prefix, "message": f"{error['message']} ({error['path']})"}
            if error["path"].startswith("rules.")
            else {"path": f"{prefix}.{error['path']}", "message": error["message"]}
            for error in self.errors
        ]
        self.detail = "; ".join(f"{e['path']}: {e['message']}" for e in self.errors[:5])
        self.args = (self.detail,)
        return self

    def moved(self, path: str, whose: str) -> Self:
        """This error moved to ``path``, the one field that stands for what it was raised on
        (a hand record's win event, for the score request it amounts to): each message says
        ``whose`` and which field of that request. Changed in place, as ``within``."""
        self.errors = [
            {"path": path, "message": f"{whose}: {error['message']} ({error['path']})"}
            for error in self.errors
        ]
        self.detail = "; ".join(f"{e['path']}: {e['message']}" for e in self.errors[:5])
        self.args = (self.detail,)
        return self


class InvalidHand(ScoringError):
    """Tiles and melds that cannot be a hand: a bad meld, a wrong count, a fifth copy."""

    code = "invalid_hand"


class InvalidContext(ScoringError):
    """A win that cannot happen as described (RULES.md §4 items 11-13, 15)."""

    code = "invalid_context"


class InconsistentRequest(ScoringError):
    """Fields that do not go together (two that say the same thing, a name that is not among
    the players): the request's fault, not the game's, answered as a schema error."""

    code = "invalid_request"


class NotAWinningHand(ScoringError):
    """Tiles that form no winning hand under the rules in force."""

    code = "not_a_winning_hand"


class InvalidRecord(ScoringError):
    """A hand record that breaks a rule of play (RULES.md §9), at the first event at fault."""

    code = "invalid_record"
