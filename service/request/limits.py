"""Every limit on what a request may hold, in one place: the schemas and the fast path check
them, ``GET /v1/rules`` reports them, the HTTP layer enforces the body's."""

from __future__ import annotations

from typing import Final

MAX_BODY: Final = 2 * 1024 * 1024  # bytes, by default (ZJ_MAX_CONTENT_LENGTH)
MAX_BATCH: Final = 1000  # items in a batch
MAX_MELDS: Final = 4  # declared melds in a hand
MAX_GO_AROUND: Final = 4  # discards in a go-around (win.go_around)
MAX_CLAIMED: Final = 48  # patterns in a claim (there are 48)
MAX_PATTERN_ID: Final = 16  # characters of a claimed pattern id
MAX_EVENTS: Final = 400  # events in a hand record (POST /v1/replay)
# A hand record's ordinary draws (record.wall): 144 tiles with the bonus tiles, less the 53 dealt.
MAX_WALL: Final = 91
MAX_SHEET_HANDS: Final = 200  # hands in a score sheet (POST /v1/settle)
MAX_NAME: Final = 40  # characters of a player's name
MAX_COUNT: Final = 99  # a claimed pattern's count (a hand holds far fewer: claims.MOST)
MAX_TILE_STRING: Final = 64  # characters of a tile string
MAX_TILE_LIST: Final = 18  # tiles in a tile list
# Tiles seen on the table (``visible``, hand analysis): at most 123 can be, beside 13 held.
MAX_SEEN_STRING: Final = 400  # characters
MAX_DRAWS_LEFT: Final = 40  # expect.draws_left: more than any wall gives one player
MAX_SEEN_LIST: Final = 136  # tiles
MAX_VALUE: Final = 10_000  # the most a house rule may make a pattern, a chicken hand or the limit
MAX_ERRORS: Final = 20  # errors a problem lists at most
MAX_ALTERNATIVES: Final = 5  # other readings an explained score lists at most (API.md)
