"""Every error the service answers, as a problem document (RFC 9457), described here only.

Flask's error handlers (service/api/errors.py), the worker's own answers to what never reaches
Flask (service/reading.py, whose writer gunicorn.conf.py installs), the batch endpoint's failed
items and the CLI all build their bodies with ``Problem``. The domain's errors
(service/domain/errors.py) become one with ``Problem.of``.
"""

from __future__ import annotations

from typing import Any, Final

from . import render
from .domain.errors import ScoringError
from .domain.scoring.scoring import BelowMinimum
from .domain.sheets.claims import ClaimBelowMinimum

# code -> (HTTP status, title); API.md lists the codes, openapi.yaml's ProblemCode too.
KINDS: Final = {
    "malformed_json": (400, "Body is not JSON"),
    "payload_too_large": (413, "Body too large"),
    "unsupported_media_type": (415, "Unsupported media type"),
    "invalid_request": (422, "Request does not match the schema"),
    "invalid_hand": (422, "Impossible hand"),
    "invalid_context": (422, "Inconsistent win context"),
    "not_a_winning_hand": (422, "Not a winning hand"),
    "invalid_claim": (422, "No hand holds these patterns"),
    "invalid_record": (422, "The record breaks a rule of play"),
    "below_minimum": (422, "Hand below the minimum"),
    "not_found": (404, "Not found"),
    "method_not_allowed": (405, "Method not allowed"),
    "not_ready": (503, "Not ready"),
    "bad_request": (400, "Malformed HTTP request"),
    "request_timeout": (408, "Request not received in time"),
    "rate_limited": (429, "Too many requests"),
    "overloaded": (503, "Service overloaded"),
    "internal_error": (500, "Internal error"),
}
TYPE_PREFIX: Final = "urn:zj-service:problem:"


class Problem(Exception):
    """An error answered to the client: a stable ``code``, ``errors`` at the offending fields.

    ``status`` is the code's own unless given: one code can stand for several HTTP statuses
    (a ``bad_request`` may be a 400 or a 431).
    """

    def __init__(
        self,
        code: str,
        detail: str,
        errors: list[dict[str, str]] | None = None,
        status: int | None = None,
        breakdown: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.errors = errors or []
        self.status = KINDS[code][0] if status is None else status
        self.breakdown = breakdown

    @classmethod
    def at(cls, code: str, path: str, message: str) -> Problem:
        """A problem with one offending field: the message is also the detail."""
        return cls(code, f"{path}: {message}", [{"path": path, "message": message}])

    @classmethod
    def of(cls, error: ScoringError) -> Problem:
        """The answer to a domain error; below the minimum, it shows the hand's breakdown."""
        breakdown = None
        if isinstance(error, BelowMinimum):
            breakdown = render.breakdown(error.score)
        elif isinstance(error, ClaimBelowMinimum):
            breakdown = render.claim_breakdown(error.claimed)
        return cls(error.code, error.detail, error.errors, breakdown=breakdown)

    @property
    def title(self) -> str:
        return KINDS[self.code][1]

    def body(self) -> dict[str, Any]:
        """The application/problem+json body."""
        body: dict[str, Any] = {
            "type": TYPE_PREFIX + self.code,
            "title": self.title,
            "status": self.status,
            "detail": self.detail,
            "code": self.code,
            "errors": self.errors,
        }
        if self.breakdown is not None:
            body["breakdown"] = self.breakdown
        return body
