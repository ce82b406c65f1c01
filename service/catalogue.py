"""GET /v1/patterns and GET /v1/rules: the catalogue and the rule options as JSON."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from . import __version__
from .domain.rules.hand import Rules
from .domain.rules.patterns import CATALOGUE, Pattern, table_for
from .domain.rules.rulesets import DEFAULT, profiles
from .domain.rules.schemes import SCHEMES
from .domain.rules.versions import VERSIONS
from .render import rules as render_rules
from .request import (
    MAX_BATCH,
    MAX_BODY,
    MAX_EVENTS,
    MAX_MELDS,
    MAX_NAME,
    MAX_SEEN_LIST,
    MAX_SEEN_STRING,
    MAX_SHEET_HANDS,
    MAX_TILE_LIST,
    MAX_TILE_STRING,
    MAX_VALUE,
    PatternsQuerySchema,
    load,
)
from .settings import EXPECT_STATES, setting

_QUERY = PatternsQuerySchema()


def patterns(query: Mapping[str, str]) -> dict[str, Any]:
    """The catalogue as the rules of ``query`` (``version``, ``profile``) read it: the values
    after the profile's overrides, its excluded patterns marked."""
    applied = cast(Rules, load(_QUERY, dict(query)))
    table = table_for(applied)
    return {
        "version": applied.version,
        "rules": render_rules(applied),
        "patterns": [
            {
                "id": pattern.id,
                "name": pattern.name,
                "chinese": pattern.chinese,
                "category": pattern.category,
                "series": pattern.series,
                "value": table.values[pattern.id],
                "excluded": pattern.id in table.excluded,
                "description": pattern.description,
                "example": example(pattern, applied.version),
            }
            for pattern in CATALOGUE
            if pattern.id in table.values
        ],
    }


def example(pattern: Pattern, version: str) -> dict[str, Any]:
    """The pattern's worked example as a score request under ``version``: its ``rules`` name
    the version (and turn the bonus-tile mod on for the mod's patterns), so that it scores
    as shown whatever a client's defaults; a profile's house rules are left out, since they
    may drop or outvalue the pattern."""
    shown = pattern.example
    hand: dict[str, Any] = {"tiles": shown.tiles, "winning_tile": shown.winning_tile}
    if shown.melds:
        hand["melds"] = [{"kind": kind, "tiles": tiles} for kind, tiles in shown.melds]
    if shown.flowers:
        hand["flowers"] = list(shown.flowers)
    if shown.seasons:
        hand["seasons"] = list(shown.seasons)
    win: dict[str, Any] = {"by": "self_draw" if shown.discarder is None else "discard"}
    win["seat"] = shown.seat
    if shown.discarder is not None:
        win["discarder"] = shown.discarder
    win.update({flag: True for flag in shown.flags})
    rules: dict[str, Any] = {"version": version}
    if pattern.bonus:
        rules["bonus_tiles"] = True
    return {"hand": hand, "win": win, "rules": rules}


def rules(
    body_bytes: int = MAX_BODY, client_rate: tuple[float, int] | None = None
) -> dict[str, Any]:
    """GET /v1/rules; ``body_bytes``: the body limit in force (ZJ_MAX_CONTENT_LENGTH),
    ``client_rate``: the per-client rate and burst (ZJ_CLIENT_RATE, ZJ_CLIENT_BURST)."""
    return {
        "service_version": __version__,
        "versions": list(VERSIONS),
        "payoffs": [{"id": name, "description": s.description} for name, s in SCHEMES.items()],
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
        "profiles": [
            {"name": name, "rules": render_rules(applied)} for name, applied in profiles().items()
        ],
        "defaults": render_rules(DEFAULT),
        "limits": {
            "score_limit": DEFAULT.limit,
            "body_bytes": body_bytes,
            "batch_items": MAX_BATCH,
            "tile_string_characters": MAX_TILE_STRING,
            "tile_list_items": MAX_TILE_LIST,
            "visible_string_characters": MAX_SEEN_STRING,
            "visible_list_items": MAX_SEEN_LIST,
            "melds": MAX_MELDS,
            "house_rule_value": MAX_VALUE,
            "sheet_hands": MAX_SHEET_HANDS,
            "player_name_characters": MAX_NAME,
            "record_events": MAX_EVENTS,
            "expect_states": setting(EXPECT_STATES),
            "client_rate": None
            if client_rate is None
            else {"per_second": client_rate[0], "burst": client_rate[1]},
        },
    }
