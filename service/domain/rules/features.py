"""Features of a won hand that patterns need, as bit flags.

Each pattern names the features without which it cannot hold (``Pattern.needs``); scoring
skips a pattern whose needs the hand lacks without calling its predicate. They are necessary
conditions only: every predicate still checks its pattern in full, so a feature may be
coarse but must never be missing when its pattern holds.
"""

from __future__ import annotations

from typing import Final

# Of an arrangement (decompose.Arrangement.features).
CHOWS_2: Final = 1 << 0  # at least two chows
CHOWS_3: Final = 1 << 1
CHOWS_4: Final = 1 << 2
TRIPLETS_2: Final = 1 << 3  # at least two pungs or kongs
TRIPLETS_3: Final = 1 << 4
TRIPLETS_4: Final = 1 << 5
CONCEALED_2: Final = 1 << 6  # at least two concealed pungs or kongs
HONOUR_TRIPLET: Final = 1 << 7  # a pung or kong of an honour
ORPHAN_PAIR: Final = 1 << 8  # the pair is a terminal or an honour
CHOWS_TWICE: Final = 1 << 17  # a chow held twice (or more)

# Of the hand whatever its arrangement (patterns.Situation.features).
HAS_KONG: Final = 1 << 9
WIN_FLAG: Final = 1 << 10  # last tile, kong replacement, robbing a kong or first turn
CONCEALED: Final = 1 << 11  # no exposed meld
ONE_SUIT: Final = 1 << 12  # number tiles of one suit only, honours aside
ONLY_MIDDLE: Final = 1 << 13  # only number tiles 2-8
ONLY_ORPHANS: Final = 1 << 14  # only terminals and honours
ONLY_TERMINALS: Final = 1 << 15
ONLY_HONOURS: Final = 1 << 16
# Under the bonus-tile mod only (without it, its patterns are not asked).
BONUS_HELD: Final = 1 << 18  # a flower or a season
FOUR_BONUS: Final = 1 << 19  # four flowers or four seasons


# Not features but the rest of what picks a plan (``patterns.Table.plan``), so that its key
# is one int: the reading's form (standard is neither) and the bonus-tile mod.
SEVEN_PAIRS: Final = 1 << 20
THIRTEEN_TERMINALS: Final = 1 << 21
BONUS_TILES: Final = 1 << 22

# Asked before each predicate is called rather than keying plans (``patterns.Step.checks``):
# each is its pattern's own test or close to it, and plans keyed by them would multiply for
# patterns that seldom hold; a check costs an AND where a call costs a few hundred
# instructions.
# Of an arrangement:
SIMILAR_CHOWS: Final = 1 << 23  # one chow in all three suits
STRAIGHT: Final = 1 << 24  # 123, 456 and 789 of one suit
SIMILAR_TRIPLETS: Final = 1 << 25  # triplets of one number in two suits or three
TRIPLET_RUN: Final = 1 << 26  # triplets of three consecutive numbers of one suit
TERMINAL_SETS: Final = 1 << 27  # every set holds a terminal or an honour
# Of the hand: the win's flags one by one.
LAST_TILE: Final = 1 << 28
KONG_REPLACEMENT: Final = 1 << 29
ROBBING_KONG: Final = 1 << 30
FIRST_TURN: Final = 1 << 31

PLANNED: Final = (1 << 23) - 1  # what keys a plan
EVERY: Final = (1 << 20) - 1 | (1 << 32) - (1 << 23)  # every feature, no plan bit
