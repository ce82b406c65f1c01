"""Features of a won hand that patterns need, as bit flags.

Each pattern names the features without which it cannot hold (``Pattern.needs``); scoring
skips a pattern whose needs the hand lacks without calling its predicate. They are necessary
conditions only: every predicate still checks its pattern in full, so a feature may be
coarse but must never be missing when its pattern holds.
"""

from __future__ import annotations

# Of an arrangement (decompose.Arrangement.features).
CHOWS_2 = 1 << 0  # at least two chows
CHOWS_3 = 1 << 1
CHOWS_4 = 1 << 2
TRIPLETS_2 = 1 << 3  # at least two pungs or kongs
TRIPLETS_3 = 1 << 4
TRIPLETS_4 = 1 << 5
CONCEALED_2 = 1 << 6  # at least two concealed pungs or kongs
HONOUR_TRIPLET = 1 << 7  # a pung or kong of an honour
ORPHAN_PAIR = 1 << 8  # the pair is a terminal or an honour

# Of the hand whatever its arrangement (patterns.Situation.features).
HAS_KONG = 1 << 9
WIN_FLAG = 1 << 10  # last tile, kong replacement, robbing a kong or first turn
CONCEALED = 1 << 11  # no exposed meld
ONE_SUIT = 1 << 12  # number tiles of one suit only, honours aside
ONLY_MIDDLE = 1 << 13  # only number tiles 2-8
ONLY_ORPHANS = 1 << 14  # only terminals and honours
ONLY_TERMINALS = 1 << 15
ONLY_HONOURS = 1 << 16

EVERY = (1 << 17) - 1
