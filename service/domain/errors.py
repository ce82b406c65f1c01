"""The domain's errors: one exception carrying a stable code, as the API reports it."""

from __future__ import annotations

from typing import Any

TITLES = {
    "malformed_json": "Body is not JSON",
    "payload_too_large": "Body too large",
    "unsupported_media_type": "Unsupported media type",
    "invalid_request": "Request does not match the schema",
    "invalid_hand": "Impossible hand",
    "invalid_context": "Inconsistent win context",
    "not_a_winning_hand": "Not a winning hand",
    "below_minimum": "Hand below the minimum",
    "not_found": "Not found",
    "method_not_allowed": "Method not allowed",
    "not_ready": "Not ready",
    "bad_request": "Malformed HTTP request",
    "request_timeout": "Request not received in time",
    "overloaded": "Service overloaded",
    "internal_error": "Internal error",
}


class Problem(Exception):
    """A client error with a stable ``code``; ``errors`` point at the offending fields."""

    def __init__(
        self,
        code: str,
        detail: str,
        errors: list[dict[str, str]] | None = None,
        status: int = 422,
        breakdown: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.errors = errors or []
        self.status = status
        self.breakdown = breakdown

    @classmethod
    def at(cls, code: str, path: str, message: str) -> Problem:
        """A problem with one offending field: the message is also the detail."""
        return cls(code, f"{path}: {message}", [{"path": path, "message": message}])

    @property
    def title(self) -> str:
        return TITLES[self.code]

    def body(self) -> dict[str, Any]:
        """The application/problem+json body (RFC 9457)."""
        body: dict[str, Any] = {
            "type": f"urn:zj-service:problem:{self.code}",
            "title": self.title,
            "status": self.status,
            "detail": self.detail,
            "code": self.code,
            "errors": self.errors,
        }
        if self.breakdown is not None:
            body["breakdown"] = self.breakdown
        return body
