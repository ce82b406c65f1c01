"""The request model: what a request may hold, and loading one into the domain's objects.

- ``limits``: every limit on a request (the schemas check them, GET /v1/rules reports them);
- ``schemas``: the marshmallow schemas, the authority (strict: unknown fields rejected);
- ``models``: tiles read from JSON, and the domain objects a loaded request is made of;
- ``fast``: the schemas' fast path, as small converters (compiled with ``models``, ``limits``);
- ``loading``: ``load``, the fast path first and marshmallow for what it alone can say.
"""

from __future__ import annotations

from .limits import (
    MAX_ALTERNATIVES,
    MAX_BATCH,
    MAX_BODY,
    MAX_ERRORS,
    MAX_EVENTS,
    MAX_MELDS,
    MAX_NAME,
    MAX_SEEN_LIST,
    MAX_SEEN_STRING,
    MAX_SHEET_HANDS,
    MAX_TILE_LIST,
    MAX_TILE_STRING,
    MAX_VALUE,
)
from .loading import load, loader
from .models import ScoreRequest
from .schemas import (
    BatchRequestSchema,
    ClaimRequestSchema,
    PatternsQuerySchema,
    ProfileSchema,
    ReplayRequestSchema,
    RulesSchema,
    ScoreRequestSchema,
    SettleRequestSchema,
    WaitsRequestSchema,
)

__all__ = [
    "MAX_ALTERNATIVES",
    "MAX_BATCH",
    "MAX_BODY",
    "MAX_ERRORS",
    "MAX_EVENTS",
    "MAX_MELDS",
    "MAX_NAME",
    "MAX_SEEN_LIST",
    "MAX_SEEN_STRING",
    "MAX_SHEET_HANDS",
    "MAX_TILE_LIST",
    "MAX_TILE_STRING",
    "MAX_VALUE",
    "BatchRequestSchema",
    "ClaimRequestSchema",
    "PatternsQuerySchema",
    "ProfileSchema",
    "ReplayRequestSchema",
    "RulesSchema",
    "ScoreRequest",
    "ScoreRequestSchema",
    "SettleRequestSchema",
    "WaitsRequestSchema",
    "load",
    "loader",
]
