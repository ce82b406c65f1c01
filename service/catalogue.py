"""GET /v1/patterns and GET /v1/rules: the catalogue and the rule options as JSON."""

from __future__ import annotations

from typing import Any

from .domain.errors import Problem
from .domain.hand import Rules
from .domain.patterns import CATALOGUE
from .domain.versions import VERSIONS
from .render import rules as render_rules
from .schemas import MAX_BATCH, MAX_BODY, MAX_MELDS, MAX_TILE_LIST, MAX_TILE_STRING

PAYOFFS = {
    "formal": "Each other player pays the value for a self-draw or a hand up to the standard"
    " value; above it, on a discard, the two others pay the standard value and the responsible"
    " player 3 x value - 2 x standard value.",
    "uniform": "Each other player pays the value.",
    "discarder_pays_all": "Discard: the responsible player pays 3 x value; self-draw: each"
    " other player pays the value.",
    "discarder_pays_double": "Discard: the responsible player pays 6 x value, the others"
    " 3 x each; self-draw: each other player pays 4 x value.",
}


def patterns(version: str) -> dict[str, Any]:
    if version not in VERSIONS:
        raise Problem.at("invalid_request", "version", f"must be one of {', '.join(VERSIONS)}")
    return {
        "version": version,
        "patterns": [
            {
                "id": pattern.id,
                "name": pattern.name,
                "chinese": pattern.chinese,
                "category": pattern.category,
                "series": pattern.series,
                "value": VERSIONS[version].values[pattern.id],
                "description": pattern.description,
            }
            for pattern in CATALOGUE
        ],
    }


def rules() -> dict[str, Any]:
    return {
        "versions": list(VERSIONS),
        "payoffs": [{"id": name, "description": text} for name, text in PAYOFFS.items()],
        "mods": [
            {
                "id": "bonus_tiles",
                "field": "rules.bonus_tiles",
                "description": "Flowers and seasons: proper 4 each, improper 2 each, a complete"
                " set of four flowers or of four seasons 10.",
            },
            {
                "id": "minimum",
                "field": "rules.minimum",
                "description": "A hand scoring less than the minimum cannot win (5 is the usual"
                " mod; 0 turns it off).",
            },
        ],
        "defaults": render_rules(Rules()),
        "limits": {
            "score_limit": Rules().limit,
            "body_bytes": MAX_BODY,
            "batch_items": MAX_BATCH,
            "tile_string_characters": MAX_TILE_STRING,
            "tile_list_items": MAX_TILE_LIST,
            "melds": MAX_MELDS,
        },
    }
