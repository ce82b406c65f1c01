"""The Zung Jung pattern catalogue: data, plus one small predicate per pattern.

A predicate looks at one arrangement of a won hand and returns ``None`` when the pattern is
absent, or a ``Hit``: how many times it counts (1 but for the per-set and per-tile patterns)
and why, in the hand's own tiles. Values are not here: each rule version is an entry of
``versions.VERSIONS``, and a ``Table`` is how one rule set (a version with the table's house
rules on top, RULES.md §6) reads this catalogue. Descriptions from sources/002.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Final

from mypy_extensions import i64

from ..memo import IntMemo, Memo, SlotMemo
from . import tiles as t
from .decompose import ALL_FORMS, RUN_STARTS, SUIT_STARTS, TERMINAL_CHOWS, Arrangement, Form
from .features import (
    BONUS_HELD,
    BONUS_TILES,
    CHOWS_3,
    CHOWS_4,
    CHOWS_TWICE,
    CONCEALED,
    CONCEALED_2,
    FIRST_TURN,
    FOUR_BONUS,
    HAS_KONG,
    HONOUR_TRIPLET,
    KONG_REPLACEMENT,
    LAST_TILE,
    ONE_SUIT,
    ONLY_HONOURS,
    ONLY_MIDDLE,
    ONLY_ORPHANS,
    ONLY_TERMINALS,
    ORPHAN_PAIR,
    PLANNED,
    ROBBING_KONG,
    SEVEN_PAIRS,
    SIMILAR_CHOWS,
    SIMILAR_TRIPLETS,
    STRAIGHT,
    TERMINAL_SETS,
    THIRTEEN_TERMINALS,
    TRIPLET_RUN,
    TRIPLETS_2,
    TRIPLETS_3,
    TRIPLETS_4,
    WIN_FLAG,
)
from .hand import CHOW, KONG, PUNG, SET_KINDS, Hand, Meld, Rules, SetKind, Win, set_text
from .tiles import mask
from .versions import VERSIONS, Version


class Hit:
    """A pattern found: how many times it counts (1 but for the per-set and per-tile
    patterns), and why, in the hand's own tiles.

    Made once for each reason and shared by the hands that have it (a predicate's constant,
    or one of a ``Naming`` predicate's hits), but where the reason names a whole hand's sets,
    made for that hand (``Naming``, not ``kept``). What it counts for in a rule set is made
    once too, and kept on it (``counted``, the one field that changes: see ``count``).
    """

    __slots__ = ("counted", "reason", "times")

    def __init__(self, times: int, reason: str) -> None:
        self.times: Final = times
        self.reason: Final = reason
        self.counted: Counted | None = None


class Counted:
    """A pattern held by the hand: its value in the rules in force, ``times`` over.

    ``line``: its line in a response, written once by the service layer (render.py) and
    shared by every response that counts it, as the ``Counted`` is shared by every hand with
    its hit (``count``); it lives as long as they do.
    """

    __slots__ = ("line", "pattern", "points", "reason", "times", "value")

    def __init__(self, pattern: Pattern, value: int, times: int, reason: str) -> None:
        self.pattern: Final = pattern
        self.value: Final = value
        self.times: Final = times
        self.points: Final = value * times  # read for every hand that counts it: made once
        self.reason: Final = reason
        self.line: dict[str, object] | None = None


def count(hit: Hit, pattern: Pattern, value: int) -> Counted:
    """What ``hit`` counts for as ``pattern`` worth ``value``: made once and kept on the hit,
    since the next hand with the same hit is almost always scored by the same rules (a rule
    set that values the pattern otherwise makes it anew)."""
    last = hit.counted
    if last is not None and last.value == value and last.pattern is pattern:
        return last
    counted = Counted(pattern, value, hit.times, hit.reason)
    hit.counted = counted
    return counted


# Groups of tiles as masks (``tiles.mask``): "only terminals", "which suits", "a chow
# from 1 or 7" become one integer operation each on a hand's or a reading's masks.
SUIT_MASKS: Final = tuple(mask(tuple(range(base, base + 9))) for base in (0, 9, 18))
MIDDLE: Final = mask(tuple(tile for tile in range(t.EAST) if 2 <= t.number(tile) <= 8))
ORPHANS: Final = mask(t.ORPHANS)
TERMINALS: Final = mask(t.TERMINALS)
HONOURS: Final = mask(tuple(range(t.EAST, t.KINDS)))
DRAGONS: Final = mask(t.DRAGONS)
WINDS: Final = mask(t.WINDS)


def _lowest(bits: int) -> int:
    """The lowest tile of a non-empty mask."""
    return (bits & -bits).bit_length() - 1


def _tiles(bits: int) -> list[int]:
    """The tiles of a mask, in order (for a reason: only for a pattern found), its lowest
    bit taken off each time: a step per tile, not per kind."""
    tiles = []
    while bits:
        tiles.append(_lowest(bits))
        bits &= bits - 1
    return tiles


def _honours(bits: int) -> int:
    """How many honour tiles a mask of honours holds."""
    return _HONOUR_COUNTS[bits >> t.EAST]


_HONOUR_COUNTS: Final = tuple(bin(bits).count("1") for bits in range(1 << (t.KINDS - t.EAST)))


class Situation:
    """What is true of the won hand whatever its arrangement; built once per hand.

    ``mask`` has bit n set when tile kind n is in the hand: "only terminals" and "which
    suits" become one integer operation each.
    """

    __slots__ = ("concealed", "features", "hand", "kongs", "mask", "melds", "plan_bits", "rules",
                 "seat_wind", "suit", "table", "value_honours", "win")  # fmt: skip

    def __init__(self, hand: Hand, melds: tuple[Meld, ...], win: Win, rules: Rules) -> None:
        self.hand = hand
        self.melds = melds
        self.win = win
        self.rules = rules
        self.table = table_for(rules)
        self.seat_wind = win.wind
        self.value_honours = DRAGONS | 1 << self.seat_wind  # a mask
        held: i64 = hand.kinds  # native: compiled, no overflow checked in what is asked of it
        kongs: tuple[int, ...] = ()
        concealed = True
        for meld in melds:
            held |= meld.mask
            if meld.kind == KONG:  # seldom: a tuple grown, rather than a list made for all
                kongs = (*kongs, meld.tile)
            concealed = concealed and meld.concealed
        self.kongs = kongs
        self.concealed = concealed
        self.mask = held
        # The one suit of number tiles held, honours aside, or -1 (none, or more than one).
        suit = -1
        for index in range(3):
            if held & SUIT_MASKS[index]:
                suit = index if suit == -1 else 3
        self.suit = suit if suit < 3 else -1
        flagged = win.last_tile or win.kong_replacement or win.robbing_kong or win.first_turn
        self.features = (
            (HAS_KONG if kongs else 0)
            | (WIN_FLAG if flagged else 0)
            | (LAST_TILE if win.last_tile else 0)
            | (KONG_REPLACEMENT if win.kong_replacement else 0)
            | (ROBBING_KONG if win.robbing_kong else 0)
            | (FIRST_TURN if win.first_turn else 0)
            | (CONCEALED if concealed else 0)
            | (ONE_SUIT if self.suit >= 0 else 0)
            | (0 if held & ~MIDDLE else ONLY_MIDDLE)
            | (0 if held & ~ORPHANS else ONLY_ORPHANS)
            | (0 if held & ~TERMINALS else ONLY_TERMINALS)
            | (0 if held & ~HONOURS else ONLY_HONOURS)
        )
        self.plan_bits = 0
        if rules.bonus_tiles:
            flowers, seasons = len(hand.flowers), len(hand.seasons)
            if flowers or seasons:
                self.features |= BONUS_HELD
            if flowers == 4 or seasons == 4:
                self.features |= FOUR_BONUS
            self.plan_bits = BONUS_TILES

    def only(self, group: int) -> bool:
        """Whether every tile of the hand is in ``group`` (a mask)."""
        return not self.mask & ~group

    @property
    def honours(self) -> bool:
        return bool(self.mask & HONOURS)


class Predicate:
    """A pattern's test of one arrangement of a won hand: ``hit`` returns None when the
    pattern is absent, else a ``Hit``. An object with a method rather than a function: the
    scorer asks a hand ~10 of them, and compiled, a method is called natively where a
    function held as a value goes through Python's calling convention."""

    def hit(self, arrangement: Arrangement, hand: Situation) -> Hit | None:
        raise NotImplementedError


class Naming(Predicate):
    """A predicate whose reason names tiles of the hand ("pung of Red"): each of its hits is
    made once, for what it names, and kept for the next hand that names the same.

    ``hit`` packs what the reason names into an int (its signature: melds by ``_signature``,
    tiles, masks) and asks ``named`` for the hit; ``found`` makes the hit from the signature
    alone, so that the reason says no more than the signature. A hand pays a look-up where
    writing its reason cost it a thousand instructions or more. Bounded (``NAMED``), since
    hands are the client's.

    Not ``kept``: a reason naming three sets or more, which a hand not seen before rarely
    names again (4,000 of them after 20,000 others: All Sequences' hits 12% of the time, All
    Triplets' 3%). Its hits are made for each hand: a hit kept costs its place in the table,
    its share of the table's emptying and the cyclic collector's walks over it (with what it
    counts for), more than writing it.
    """

    def __init__(self, kept: bool = True) -> None:
        self.hits: Final[IntMemo[Hit] | None] = IntMemo(NAMED, NAMED_SLOTS) if kept else None

    def named(self, signature: int) -> Hit:
        hits = self.hits
        if hits is None:
            return self.found(signature)
        found = hits.get(signature)
        return hits.put(signature, self.found(signature)) if found is None else found

    def found(self, signature: int) -> Hit:
        raise NotImplementedError


# The most hits a Naming predicate keeps: ~300 bytes each, with what they count for; and
# its slots (a prime's worth, ~16 KB).
NAMED: Final = 1024
NAMED_SLOTS: Final = 1021


def _signature(melds: list[Meld] | tuple[Meld, ...]) -> int:
    """Melds in order, as a signature: each code (``Meld.code``, under 255) plus one, 8 bits."""
    signature = 0
    for meld in melds:
        signature = signature << 8 | meld.code + 1
    return signature


def _signed_sets(signature: int) -> list[tuple[SetKind, int]]:
    """The melds of a ``_signature`` as (kind, lowest tile), in order."""
    sets = []
    while signature:
        code = (signature & 255) - 1
        sets.append((SET_KINDS[code // 2 // t.KINDS], code // 2 % t.KINDS))
        signature >>= 8
    sets.reverse()
    return sets


def _written_sets(signature: int) -> str:
    """The melds of a ``_signature`` written, in order: read by code from a table, with no
    (kind, tile) pair made for each (a reason is written for every hit not seen before)."""
    texts = []
    while signature:
        texts.append(_CODE_TEXT[signature & 255])
        signature >>= 8
    texts.reverse()
    return " ".join(texts)


# Each meld's text by its code plus one (``_signature``'s bytes): 0 is no meld.
_CODE_TEXT: Final = ("", *[
    set_text(SET_KINDS[code // 2 // t.KINDS], code // 2 % t.KINDS)
    for code in range(2 * len(SET_KINDS) * t.KINDS)
])  # fmt: skip


STANDARD: frozenset[Form] = frozenset({"standard"})
ANY_FORM: frozenset[Form] = ALL_FORMS


@dataclass(frozen=True, slots=True)
class Example:
    """A worked example of a pattern: a won hand, written as a client writes it, whose best
    reading counts the pattern in every version (with the bonus-tile mod on for its own
    patterns). ``discarder`` None is a self-drawn win; ``melds`` are exposed (kind, tiles);
    ``flags`` the win's flags that are true (``last_tile`` ...)."""

    tiles: str
    winning_tile: str
    seat: str = "E"
    discarder: str | None = None
    melds: tuple[tuple[str, str], ...] = ()
    flags: tuple[str, ...] = ()
    flowers: tuple[int, ...] = ()
    seasons: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Pattern:
    """One entry of the catalogue.

    ``example`` is a hand that counts it (``GET /v1/patterns``). ``forms`` are the hand
    forms it can apply to (a version may say otherwise:
    ``Version.forms``). ``stacks``: counted alongside the other patterns of its series (bonus
    tiles). ``needs``: the features (``features.CHOWS_2`` ...) without which the predicate
    cannot hold, so that it is not even asked.
    """

    id: str
    name: str
    chinese: str
    category: str
    description: str
    predicate: Predicate
    example: Example
    forms: frozenset[Form] = STANDARD
    stacks: bool = False
    needs: int = 0

    @property
    def series(self) -> str:
        """The first two numbers of the id: one pattern per series is counted."""
        return ".".join(self.id.split(".")[:2])

    @property
    def bonus(self) -> bool:
        """Counted only under the bonus-tile mod."""
        return self.category == "Bonus Tiles"

    @property
    def irregular_hand(self) -> Form | None:
        """The irregular hand this pattern is (10.1, 10.2: the one form it applies to, where
        it always holds); without the pattern, that hand is no way to win."""
        if len(self.forms) != 1 or "standard" in self.forms:
            return None
        return next(iter(self.forms))


def _chow(tile: int) -> str:
    return set_text(CHOW, tile)


def _triplet(tile: int) -> str:
    return set_text(PUNG, tile)


# 1 Trivial patterns


class AllSequences(Naming):
    """平和 All Sequences: four chows; nothing asked of the pair, the wait or concealment."""

    def __init__(self) -> None:
        super().__init__(kept=False)

    def hit(self, arrangement: Arrangement, hand: Situation) -> Hit | None:
        if arrangement.triplet_count:
            return None
        return self.named(_signature(arrangement.sets))

    def found(self, signature: int) -> Hit:
        return Hit(1, f"four chows: {_written_sets(signature)}")


class ConcealedHand(Predicate):
    """門前清 Concealed Hand: no exposed meld; concealed kongs and a winning discard are fine."""

    def hit(self, arrangement: Arrangement, hand: Situation) -> Hit | None:
        return _NO_EXPOSED_MELD if hand.concealed else None


class NoTerminals(Predicate):
    """斷么九 No Terminals: only number tiles 2 to 8."""

    def hit(self, arrangement: Arrangement, hand: Situation) -> Hit | None:
        return _ONLY_MIDDLE if hand.only(MIDDLE) else None


# Hits whose reason is the same for every hand, made once: Hits are never changed.
_NO_EXPOSED_MELD: Final = Hit(1, "no exposed meld")
_ONLY_MIDDLE: Final = Hit(1, "only 2-8 number tiles")


# 2 One-suit patterns


class MixedOneSuit(Predicate):
    """混一色 Mixed One-Suit: number tiles of one suit, plus honours."""

    def hit(self, arrangement: Arrangement, hand: Situation) -> Hit | None:
        if hand.suit < 0 or not hand.honours:
            return None
        return _WITH_HONOURS[hand.suit]


class PureOneSuit(Predicate):
    """清一色 Pure One-Suit: number tiles of one suit only."""

    def hit(self, arrangement: Arrangement, hand: Situation) -> Hit | None:
        if hand.suit < 0 or hand.honours:
            return None
        return _ALL_OF_SUIT[hand.suit]


_WITH_HONOURS: Final = tuple(Hit(1, f"{name} with honours") for name in t.SUIT_NAMES)
_ALL_OF_SUIT: Final = tuple(Hit(1, f"all {name}") for name in t.SUIT_NAMES)


class NineGates(Naming):
    """九蓮寶燈 Nine Gates: 1112345678999 of one suit held, won on any tile of that suit.

    The 13 tiles before the winning one must be the gates themselves (RULES.md §4.3): the
    suit's key less the winning tile is the gates' key.
    """

    def hit(self, arrangement: Arrangement, hand: Situation) -> Hit | None:
        if hand.melds or hand.honours or hand.suit < 0:
            return None
        m, p, s, _ = hand.hand.keys
        held = m if hand.suit == 0 else p if hand.suit == 1 else s
        winning_tile = hand.hand.winning_tile
        if held - t.PLACE[winning_tile] != _GATE_KEYS[hand.suit]:
            return None
        return self.named(winning_tile)

    def found(self, signature: int) -> Hit:
        return Hit(1, f"{_GATE_TEXT[t.suit(signature)]} won on {t.repeated(signature)}")


_GATES: Final = (0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8)  # the faces of 1112345678999
_GATE_KEYS: Final = tuple(
    t.suit_keys(tuple(9 * suit + f for f in _GATES))[suit] for suit in range(3)
)
_GATE_TEXT: Final = tuple(t.compact(9 * suit + face for face in _GATES) for suit in range(3))


# 3 Honour tiles


def _named(tiles: list[int]) -> str:
    return ", ".join([t.name(tile) for tile in tiles])


class ValueHonor(Naming):
    """番牌 Value Honor: 10 for each pung or kong of a dragon or of the seat wind.

    Zung Jung has no prevailing wind, and a pair never scores.
    """

    def hit(self, arrangement: Arrangement, hand: Situation) -> Hit | None:
        honours = hand.value_honours
        if not arrangement.triplet_mask & honours:
            return None
        return self.named(
            _signature([m for m in arrangement.sets if honours >> m.tile & 1 and m.kind != CHOW])
        )

    def found(self, signature: int) -> Hit:
        sets = _signed_sets(signature)
        return Hit(len(sets), ", ".join([f"{kind} of {t.name(tile)}" for kind, tile in sets]))


class SmallThree(Naming):
    """小三元 / 小三風 / 小四喜 Small Three Dragons, Small Three Winds, Small Four Winds:
    pungs or kongs of all but one of ``size`` honours of a kind (a mask), and a pair of the
    last."""

    def __init__(self, honours: int, size: int) -> None:
        super().__init__()
        self.honours: Final = honours
        self.size: Final = size

    def hit(self, arrangement: Arrangement, hand: Situation) -> Hit | None:
        honours = self.honours
        held = arrangement.triplet_mask & honours
        pair = arrangement.pair
        if pair < 0 or not honours >> pair & 1 or _honours(held) != self.size - 1:
            return None
        return self.named(held << 6 | pair)

    def found(self, signature: int) -> Hit:
        held, pair = signature >> 6, signature & 63
        return Hit(1, f"{_named(_tiles(held))} triplets, pair of {t.name(pair)}")


class BigThree(Naming):
    """大三元 / 大三風 / 大四喜 Big Three Dragons, Big Three Winds, Big Four Winds: pungs or
    kongs of ``size`` honours of a kind (a mask)."""

    def __init__(self, honours: int, size: int) -> None:
        super().__init__()
        self.honours: Final = honours
        self.size: Final = size

    def hit(self, arrangement: Arrangement, hand: Situation) -> Hit | None:
        held = arrangement.triplet_mask & self.honours
        if _honours(held) < self.size:
            return None
        return self.named(held)

    def found(self, signature: int) -> Hit:
        return Hit(1, f"{_named(_tiles(signature))} triplets")


class AllHonors(Predicate):
    """字一色 All Honors: honour tiles only."""

    def hit(self, arrangement: Arrangement, hand: Situation) -> Hit | None:
        return _ONLY_HONOURS if hand.only(HONOURS) else None


_ONLY_HONOURS: Final = Hit(1, "honour tiles only")


# 4 Triplets and kong


class AllTriplets(Naming):
    """對對和 All Triplets: four pungs or kongs."""

    def __init__(self) -> None:
        super().__init__(kept=False)

    def hit(self, arrangement: Arrangement, hand: Situation) -> Hit | None:
        if arrangement.chow_count:
            return None
        return self.named(_signature(arrangement.sets))

    def found(self, signature: int) -> Hit:
        return Hit(1, f"four triplets: {_written_sets(signature)}")


class ConcealedTriplets(Naming):
    """二暗刻 / 三暗刻 / 四暗刻 Two, Three, Four Concealed Triplets: pungs or kongs whose
    tiles were all drawn by the winner (a pung the winning discard completed is exposed)."""

    def __init__(self, size: int) -> None:
        super().__init__(kept=size < 3)
        self.size: Final = size

    def hit(self, arrangement: Arrangement, hand: Situation) -> Hit | None:
        if arrangement.concealed_triplets < self.size:
            return None
        return self.named(
            _signature([m for m in arrangement.sets if m.kind != CHOW and m.concealed])
        )

    def found(self, signature: int) -> Hit:
        return Hit(1, f"concealed {_written_sets(signature)}")


class Kongs(Naming):
    """一槓 ... 四槓 One to Four Kong: declared kongs, exposed or concealed."""

    def __init__(self, size: int) -> None:
        super().__init__(kept=size < 3)
        self.size: Final = size

    def hit(self, arrangement: Arrangement, hand: Situation) -> Hit | None:
        kongs = hand.kongs
        if len(kongs) != self.size:
            return None
        signature = 0
        for tile in kongs:  # as declared: 6 bits a tile, plus one
            signature = signature << 6 | tile + 1
        return self.named(signature)

    def found(self, signature: int) -> Hit:
        kongs = []
        while signature:
            kongs.append(set_text(KONG, (signature & 63) - 1))
            signature >>= 6
        kongs.reverse()
        return Hit(1, " ".join(kongs))


# 5 Identical sets


class Identical(Naming):
    """一般高 / 兩般高 / 一色三同順 / 一色四同順 Identical Sequences: ``groups`` different
    chows each held ``size`` times."""

    def __init__(self, size: int, groups: int = 1) -> None:
        super().__init__()
        self.size: Final = size
        self.groups: Final = groups

    def hit(self, arrangement: Arrangement, hand: Situation) -> Hit | None:
        size, groups = self.size, self.groups
        if arrangement.chow_count < size * groups:
            return None
        sets = arrangement.sets
        held = 0  # the chows held ``size`` times or more, as a mask
        for meld in sets:  # at most four chows: counted in place, nothing sorted
            if meld.kind == CHOW and not held >> meld.tile & 1:
                times = 0
                for other in sets:
                    if other.kind == CHOW and other.tile == meld.tile:
                        times += 1
                if times >= size:
                    held |= 1 << meld.tile
        if not held or (groups == 2 and not held & held - 1):
            return None
        return self.named(held)

    def found(self, signature: int) -> Hit:
        return Hit(1, " ".join([f"{self.size} x {_chow(x)}" for x in _tiles(signature)]))


# 6 Similar sets


class ThreeSimilarSequences(Naming):
    """三色同順 Three Similar Sequences: the same chow in all three suits."""

    def hit(self, arrangement: Arrangement, hand: Situation) -> Hit | None:
        chows = arrangement.chow_mask
        found = chows & chows >> 9 & chows >> 18 & SUIT_MASKS[0]
        return self.named(_lowest(found)) if found else None

    def found(self, signature: int) -> Hit:
        return Hit(1, " ".join([_chow(x) for x in (signature, signature + 9, signature + 18)]))


class SmallThreeSimilarTriplets(Naming):
    """三色小同刻 Small Three Similar Triplets: two suits' triplets, the pair in the third."""

    def hit(self, arrangement: Arrangement, hand: Situation) -> Hit | None:
        pair = arrangement.pair
        if arrangement.triplet_count < 2 or t.is_honour(pair):
            return None
        number = t.number(pair)
        # The triplets of the pair's number: bit 0, 9 or 18 for the suit each is of.
        suits = arrangement.triplet_mask >> number - 1 & SUIT_STARTS
        if suits not in _TWO_SUITS or suits >> 9 * t.suit(pair) & 1:
            return None
        return self.named(pair)

    def found(self, signature: int) -> Hit:
        pair = t.repeated(signature, 2)
        return Hit(1, f"triplets of {t.number(signature)} in two suits, pair {pair}")


_TWO_SUITS: Final = frozenset({1 | 1 << 9, 1 | 1 << 18, 1 << 9 | 1 << 18})


class ThreeSimilarTriplets(Naming):
    """三色同刻 Three Similar Triplets: triplets of one number in all three suits."""

    def hit(self, arrangement: Arrangement, hand: Situation) -> Hit | None:
        triplets = arrangement.triplet_mask
        found = triplets & triplets >> 9 & triplets >> 18 & SUIT_MASKS[0]
        return self.named(_lowest(found)) if found else None

    def found(self, signature: int) -> Hit:
        return Hit(1, f"triplets of {t.number(signature)} in all three suits")


# 7 Consecutive sets


class NineTileStraight(Predicate):
    """一氣通貫 Nine-Tile Straight: the chows 123, 456 and 789 of one suit (exposed or not)."""

    def hit(self, arrangement: Arrangement, hand: Situation) -> Hit | None:
        chows = arrangement.chow_mask
        found = chows & chows >> 3 & chows >> 6 & SUIT_STARTS
        return _STRAIGHT[_lowest(found) // 9] if found else None


_STRAIGHT: Final = tuple(Hit(1, t.compact(range(base, base + 9))) for base in (0, 9, 18))


class ConsecutiveTriplets(Naming):
    """三連刻 / 四連刻 Three, Four Consecutive Triplets: pungs or kongs of ``size``
    consecutive numbers of one suit."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size: Final = size
        self.starts: Final = RUN_STARTS[size]

    def hit(self, arrangement: Arrangement, hand: Situation) -> Hit | None:
        size = self.size
        found = self.starts
        for offset in range(size):
            found &= arrangement.triplet_mask >> offset
        return self.named(_lowest(found)) if found else None

    def found(self, signature: int) -> Hit:
        return Hit(1, " ".join([_triplet(x) for x in range(signature, signature + self.size)]))


# 8 Terminals


class LesserTerminals(Naming):
    """混全帶么 / 純全帶么 Mixed, Pure Lesser Terminals: every set and the pair hold a tile
    of ``allowed`` (a mask: terminals and honours, or terminals only)."""

    def __init__(self, allowed: int) -> None:
        super().__init__(kept=False)
        self.allowed: Final = allowed

    def hit(self, arrangement: Arrangement, hand: Situation) -> Hit | None:
        allowed = self.allowed
        pair = arrangement.pair
        # A chow holds a terminal only as 123 or 789; a triplet is its one tile.
        if (
            pair < 0
            or not allowed >> pair & 1
            or arrangement.chow_mask & ~TERMINAL_CHOWS
            or arrangement.triplet_mask & ~allowed
        ):
            return None
        return self.named(_signature(arrangement.sets) << 6 | pair)

    def found(self, signature: int) -> Hit:
        sets, pair = _written_sets(signature >> 6), t.repeated(signature & 63, 2)
        return Hit(1, f"every set and the pair hold one: {sets} {pair}")


class MixedGreaterTerminals(Predicate):
    """混么九 Mixed Greater Terminals: All Triplets or Seven Pairs of terminals and honours.

    Never a Thirteen Terminals hand (RULES.md §4.7): the table's forms leave it out. In the
    standard form, tiles that are all terminals and honours can only make triplets.
    """

    def hit(self, arrangement: Arrangement, hand: Situation) -> Hit | None:
        return _ONLY_ORPHANS if hand.only(ORPHANS) else None


class PureGreaterTerminals(Predicate):
    """清么九 Pure Greater Terminals: terminal number tiles (1 and 9) only."""

    def hit(self, arrangement: Arrangement, hand: Situation) -> Hit | None:
        return _ONLY_TERMINALS if hand.only(TERMINALS) else None


_ONLY_ORPHANS: Final = Hit(1, "terminals and honours only")
_ONLY_TERMINALS: Final = Hit(1, "1s and 9s only")


# 9 Incidental bonuses


class Flag(Predicate):
    """海底撈月 ... 地和 Incidental bonuses: what the win context says (category 9)."""

    def __init__(self, test: Callable[[Win], bool], reason: str) -> None:
        self.test: Final = test
        self.found: Final = Hit(1, reason)

    def hit(self, arrangement: Arrangement, hand: Situation) -> Hit | None:
        return self.found if self.test(hand.win) else None


# 10 Irregular hands


class IrregularForm(Predicate):
    """十三么九 / 七對子 Thirteen Terminals, Seven Pairs: the hand's form itself (the table
    ties each to its form)."""

    def __init__(self, reason: str) -> None:
        self.found: Final = Hit(1, reason)

    def hit(self, arrangement: Arrangement, hand: Situation) -> Hit | None:
        return self.found


# 11 Bonus tiles (mod)


class Proper(Naming):
    """正花 / 偏花 Proper, Improper Flower/Season: each bonus tile numbered like the seat
    (1 East ... 4 North) or not."""

    def __init__(self, proper: bool) -> None:
        super().__init__()
        self.proper: Final = proper

    def hit(self, arrangement: Arrangement, hand: Situation) -> Hit | None:
        proper = self.proper
        seat = hand.seat_wind - t.EAST + 1
        signature = 0  # in the order given: 4 bits a tile, flowers 1-4 then seasons 5-8
        for n in hand.hand.flowers:
            if (n == seat) == proper:
                signature = signature << 4 | n
        for n in hand.hand.seasons:
            if (n == seat) == proper:
                signature = signature << 4 | n + 4
        return self.named(signature) if signature else None

    def found(self, signature: int) -> Hit:
        found = []
        while signature:
            found.append(_BONUS_NAMES[signature & 15])
            signature >>= 4
        found.reverse()
        return Hit(len(found), ", ".join(found))


# Each bonus tile's name in a reason: flowers 1-4, then seasons as 5-8.
_BONUS_NAMES: Final = (
    "",
    *(f"flower {n}" for n in range(1, 5)),
    *(f"season {n}" for n in range(1, 5)),
)


class Complete(Predicate):
    """齊四花 / 齊四季 Four Flowers, Four Seasons: a complete set of four."""

    def __init__(self, kind: str) -> None:
        self.flowers: Final = kind == "flowers"
        self.found: Final = Hit(1, f"all four {kind}")

    def hit(self, arrangement: Arrangement, hand: Situation) -> Hit | None:
        numbers = hand.hand.flowers if self.flowers else hand.hand.seasons
        return self.found if len(set(numbers)) == 4 else None


NOT_THIRTEEN: frozenset[Form] = frozenset({"standard", "seven_pairs"})

CATEGORIES = {
    "1": "Trivial Patterns",
    "2": "One-Suit Patterns",
    "3": "Honor Tiles",
    "4": "Triplets and Kong",
    "5": "Identical Sets",
    "6": "Similar Sets",
    "7": "Consecutive Sets",
    "8": "Terminals",
    "9": "Incidental Bonuses",
    "10": "Irregular Hands",
    "11": "Bonus Tiles",
}


def _p(
    id: str,
    name: str,
    chinese: str,
    description: str,
    predicate: Predicate,
    forms: frozenset[Form] = STANDARD,
    stacks: bool = False,
    needs: int = 0,
    *,
    example: Example,
) -> Pattern:
    category = CATEGORIES[id.split(".")[0]]
    return Pattern(
        id, name, chinese, category, description, predicate, example, forms, stacks, needs
    )


CATALOGUE: tuple[Pattern, ...] = (
    _p("1.1", "All Sequences", "平和", "Four chows and a pair; no condition on the pair, the wait or concealment.", AllSequences(), needs=CHOWS_4, example=Example("123m456p23478955s", "4s")),
    _p("1.2", "Concealed Hand", "門前清", "A regular hand with no exposed meld; winning on a discard and concealed kongs are fine. In v2.51 Seven Pairs and Thirteen Terminals are always concealed too.", ConcealedHand(), needs=CONCEALED, example=Example("123456m789p23499s", "9s", seat="S", discarder="W")),
    _p("1.3", "No Terminals", "斷么九", "Only number tiles 2 to 8: no terminals, no honours.", NoTerminals(), forms=ANY_FORM, needs=ONLY_MIDDLE, example=Example("234m345p45667888s", "8s")),
    _p("2.1.1", "Mixed One-Suit", "混一色", "Number tiles of one suit, plus honour tiles.", MixedOneSuit(), forms=ANY_FORM, needs=ONE_SUIT, example=Example("123345789m11155z", "5z")),
    _p("2.1.2", "Pure One-Suit", "清一色", "Number tiles of one suit only.", PureOneSuit(), forms=ANY_FORM, needs=ONE_SUIT, example=Example("12334555567789p", "9p")),
    _p("2.2", "Nine Gates", "九蓮寶燈", "1112345678999 of one suit held (the nine-sided wait), won on any tile of that suit.", NineGates(), needs=ONE_SUIT | CONCEALED, example=Example("11123455678999m", "5m")),
    _p("3.1", "Value Honor", "番牌", "Each pung or kong of a dragon or of the seat wind; there is no prevailing wind.", ValueHonor(), needs=HONOUR_TRIPLET, example=Example("123m789p23455s", "4s", seat="S", melds=(("pung", "777z"),), discarder="W")),
    _p("3.2.1", "Small Three Dragons", "小三元", "Two dragon pungs or kongs and a pair of the third dragon.", SmallThree(DRAGONS, 3), needs=HONOUR_TRIPLET | TRIPLETS_2, example=Example("123m456p55566677z", "4p", seat="S")),
    _p("3.2.2", "Big Three Dragons", "大三元", "Pungs or kongs of all three dragons.", BigThree(DRAGONS, 3), needs=HONOUR_TRIPLET | TRIPLETS_3, example=Example("123m55p555666777z", "3m", seat="S")),
    _p("3.3.1", "Small Three Winds", "小三風", "Two wind pungs or kongs and a pair of a third wind.", SmallThree(WINDS, 3), needs=HONOUR_TRIPLET | TRIPLETS_2, example=Example("123m456p11122233z", "3m", seat="S")),
    _p("3.3.2", "Big Three Winds", "大三風", "Pungs or kongs of three winds.", BigThree(WINDS, 3), needs=HONOUR_TRIPLET | TRIPLETS_3, example=Example("123m55p111222333z", "3m", seat="S")),
    _p("3.3.3", "Small Four Winds", "小四喜", "Three wind pungs or kongs and a pair of the fourth wind.", SmallThree(WINDS, 4), needs=HONOUR_TRIPLET | TRIPLETS_3, example=Example("123m11122233344z", "3m", seat="S")),
    _p("3.3.4", "Big Four Winds", "大四喜", "Pungs or kongs of all four winds.", BigThree(WINDS, 4), needs=HONOUR_TRIPLET | TRIPLETS_4, example=Example("55m111222333444z", "5m", seat="S")),
    _p("3.4", "All Honors", "字一色", "Honour tiles only.", AllHonors(), forms=ANY_FORM, needs=ONLY_HONOURS, example=Example("11122255566677z", "7z")),
    _p("4.1", "All Triplets", "對對和", "Four pungs or kongs.", AllTriplets(), needs=TRIPLETS_4, example=Example("111m22233399s", "9s", seat="S", melds=(("pung", "777p"),))),
    _p("4.2.1", "Two Concealed Triplets", "二暗刻", "Two concealed pungs or kongs: every tile drawn by the winner, none the winning discard.", ConcealedTriplets(2), needs=CONCEALED_2, example=Example("111m222p456789s55z", "6s")),
    _p("4.2.2", "Three Concealed Triplets", "三暗刻", "Three concealed pungs or kongs.", ConcealedTriplets(3), needs=CONCEALED_2, example=Example("111m222p333789s55z", "8s", seat="S")),
    _p("4.2.3", "Four Concealed Triplets", "四暗刻", "Four concealed pungs or kongs.", ConcealedTriplets(4), needs=CONCEALED_2, example=Example("111m222p333999s55z", "5z", seat="S")),
    _p("4.3.1", "One Kong", "一槓", "One kong, exposed or concealed.", Kongs(1), needs=HAS_KONG, example=Example("123m456p78955s", "5s", seat="S", melds=(("kong", "1111z"),))),
    _p("4.3.2", "Two Kong", "二槓", "Two kongs.", Kongs(2), needs=HAS_KONG, example=Example("123p45655s", "5s", seat="S", melds=(("kong", "1111z"), ("kong", "9999m")))),
    _p("4.3.3", "Three Kong", "三槓", "Three kongs.", Kongs(3), needs=HAS_KONG, example=Example("45655s", "5s", seat="S", melds=(("kong", "1111z"), ("kong", "9999m"), ("kong", "1111p")))),
    _p("4.3.4", "Four Kong", "四槓", "Four kongs.", Kongs(4), needs=HAS_KONG, example=Example("55s", "5s", seat="S", melds=(("kong", "1111z"), ("kong", "9999m"), ("kong", "1111p"), ("kong", "9999s")))),
    _p("5.1.1", "Two Identical Sequences", "一般高", "Two identical chows (same suit, same numbers).", Identical(2), needs=CHOWS_TWICE, example=Example("112233m456p78955s", "5s")),
    _p("5.1.2", "Two Identical Sequences Twice", "兩般高", "Two different pairs of identical chows.", Identical(2, groups=2), needs=CHOWS_4 | CHOWS_TWICE, example=Example("112233m445566p99s", "9s")),
    _p("5.1.3", "Three Identical Sequences", "一色三同順", "Three identical chows.", Identical(3), needs=CHOWS_3 | CHOWS_TWICE, example=Example("112233m456p55s", "5s", melds=(("chow", "123m"),))),
    _p("5.1.4", "Four Identical Sequences", "一色四同順", "Four identical chows.", Identical(4), needs=CHOWS_4 | CHOWS_TWICE, example=Example("112233m55s", "5s", melds=(("chow", "123m"), ("chow", "123m")))),
    _p("6.1", "Three Similar Sequences", "三色同順", "The same chow in all three suits.", ThreeSimilarSequences(), needs=CHOWS_3 | SIMILAR_CHOWS, example=Example("123m123p123789s55z", "5z")),
    _p("6.2.1", "Small Three Similar Triplets", "三色小同刻", "Pungs or kongs of one number in two suits, the pair of that number in the third.", SmallThreeSimilarTriplets(), needs=TRIPLETS_2 | SIMILAR_TRIPLETS, example=Example("222m222p22456789s", "9s")),
    _p("6.2.2", "Three Similar Triplets", "三色同刻", "Pungs or kongs of one number in all three suits.", ThreeSimilarTriplets(), needs=TRIPLETS_3 | SIMILAR_TRIPLETS, example=Example("222m222p222456s55z", "5z")),
    _p("7.1", "Nine-Tile Straight", "一氣通貫", "The chows 123, 456 and 789 of one suit.", NineTileStraight(), needs=CHOWS_3 | STRAIGHT, example=Example("123456789m123p55s", "5s")),
    _p("7.2.1", "Three Consecutive Triplets", "三連刻", "Pungs or kongs of three consecutive numbers of one suit.", ConsecutiveTriplets(3), needs=TRIPLETS_3 | TRIPLET_RUN, example=Example("333444m789p55s", "5s", melds=(("pung", "222m"),))),
    _p("7.2.2", "Four Consecutive Triplets", "四連刻", "Pungs or kongs of four consecutive numbers of one suit.", ConsecutiveTriplets(4), needs=TRIPLETS_4 | TRIPLET_RUN, example=Example("111222333444m55z", "5z")),
    _p("8.1.1", "Mixed Lesser Terminals", "混全帶么", "Every set and the pair hold a terminal or an honour.", LesserTerminals(ORPHANS), needs=ORPHAN_PAIR | TERMINAL_SETS, example=Example("123m789p78999s111z", "1z", seat="S")),
    _p("8.1.2", "Pure Lesser Terminals", "純全帶么", "Every set and the pair hold a terminal (1 or 9).", LesserTerminals(TERMINALS), needs=ORPHAN_PAIR | TERMINAL_SETS, example=Example("123789m789p12399s", "9s")),
    _p("8.1.3", "Mixed Greater Terminals", "混么九", "An All Triplets or Seven Pairs hand of terminals and honours only; never Thirteen Terminals.", MixedGreaterTerminals(), forms=NOT_THIRTEEN, needs=ONLY_ORPHANS, example=Example("111m999p11199s111z", "9s", seat="S")),
    _p("8.1.4", "Pure Greater Terminals", "清么九", "Terminal number tiles (1 and 9) only.", PureGreaterTerminals(), forms=NOT_THIRTEEN, needs=ONLY_TERMINALS, example=Example("111999m11199p999s", "9p")),
    _p("9.1.1", "Final Draw", "海底撈月", "A self-drawn win on the last tile of the wall.", Flag(lambda w: w.last_tile and w.self_drawn, "self-drawn last tile"), forms=ANY_FORM, needs=WIN_FLAG | LAST_TILE, example=Example("123m789p23455s", "4s", seat="S", melds=(("pung", "777z"),), flags=("last_tile",))),
    _p("9.1.2", "Final Discard", "河底撈魚", "A win on the last discard of the hand.", Flag(lambda w: w.last_tile and not w.self_drawn, "last discard"), forms=ANY_FORM, needs=WIN_FLAG | LAST_TILE, example=Example("123m789p23455s", "4s", seat="S", melds=(("pung", "777z"),), discarder="W", flags=("last_tile",))),
    _p("9.2", "Win on Kong", "嶺上開花", "A self-drawn win on a kong's replacement tile.", Flag(lambda w: w.kong_replacement, "kong replacement tile"), forms=ANY_FORM, needs=WIN_FLAG | KONG_REPLACEMENT, example=Example("123m789p23455s", "4s", seat="S", melds=(("kong", "7777z"),), flags=("kong_replacement",))),
    _p("9.3", "Robbing a Kong", "搶槓", "A win on the tile another player adds to a pung to make a kong.", Flag(lambda w: w.robbing_kong, "robbed kong"), forms=ANY_FORM, needs=WIN_FLAG | ROBBING_KONG, example=Example("123m789p23455s", "4s", seat="S", melds=(("pung", "777z"),), discarder="W", flags=("robbing_kong",))),
    _p("9.4.1", "Blessing of Heaven", "天和", "East wins on the dealt 14 tiles.", Flag(lambda w: w.first_turn and w.seat == "E", "East's dealt hand"), forms=ANY_FORM, needs=WIN_FLAG | FIRST_TURN, example=Example("123m789p23455s777z", "4s", flags=("first_turn",))),
    _p("9.4.2", "Blessing of Earth", "地和", "Another player wins on East's first discard with the dealt 13 tiles.", Flag(lambda w: w.first_turn and w.seat != "E", "East's first discard"), forms=ANY_FORM, needs=WIN_FLAG | FIRST_TURN, example=Example("123m789p23455s777z", "4s", seat="S", discarder="E", flags=("first_turn",))),
    _p("10.1", "Thirteen Terminals", "十三么九", "One of each terminal and honour, plus a pair of one of them.", IrregularForm("one of each terminal and honour"), forms=frozenset({"thirteen_terminals"}), example=Example("19m19p19s12345677z", "7z")),
    _p("10.2", "Seven Pairs", "七對子", "Seven pairs; four alike not declared as a kong are two pairs.", IrregularForm("seven pairs"), forms=frozenset({"seven_pairs"}), example=Example("1155m2288p3399s66z", "6z")),
    _p("11.1.1", "Improper Flower/Season", "偏花", "Bonus-tile mod: each flower or season not proper to the winner's seat.", Proper(False), forms=ANY_FORM, stacks=True, needs=BONUS_HELD, example=Example("123m789p23455s", "4s", seat="E", melds=(("pung", "777z"),), flowers=(2,))),
    _p("11.1.2", "Proper Flower/Season", "正花", "Bonus-tile mod: each flower or season proper to the winner's seat (1 East ... 4 North).", Proper(True), forms=ANY_FORM, stacks=True, needs=BONUS_HELD, example=Example("123m789p23455s", "4s", seat="E", melds=(("pung", "777z"),), flowers=(1,))),
    _p("11.2.1", "Four Flowers", "齊四花", "Bonus-tile mod: all four flowers.", Complete("flowers"), forms=ANY_FORM, stacks=True, needs=FOUR_BONUS, example=Example("123m789p23455s", "4s", seat="S", melds=(("pung", "777z"),), flowers=(1, 2, 3, 4))),
    _p("11.2.2", "Four Seasons", "齊四季", "Bonus-tile mod: all four seasons.", Complete("seasons"), forms=ANY_FORM, stacks=True, needs=FOUR_BONUS, example=Example("123m789p23455s", "4s", seat="S", melds=(("pung", "777z"),), seasons=(1, 2, 3, 4))),
)  # fmt: skip

BY_ID: Final = {pattern.id: pattern for pattern in CATALOGUE}


# ---- How a rule set reads the catalogue -----------------------------------------------------


class Step:
    """A pattern as a plan asks for it: its predicate, and its value in the table's rules;
    with what a plan is made by, the forms it applies to in those rules, its ``needs`` and
    whether it is a bonus tile's. A class rather than a tuple: compiled, its fields are read
    directly."""

    __slots__ = ("bonus", "checks", "forms", "needs", "pattern", "predicate", "stacks", "value")

    def __init__(self, pattern: Pattern, value: int, forms: frozenset[Form]) -> None:
        self.pattern: Final = pattern
        self.predicate: Final = pattern.predicate
        self.value: Final = value
        self.stacks: Final = pattern.stacks
        self.forms: Final = forms
        # Its needs split: those a plan is made by, and those checked before each call.
        self.needs: Final = pattern.needs & PLANNED
        self.checks: Final[i64] = pattern.needs & ~PLANNED
        self.bonus: Final = pattern.bonus

    def counted(self, hit: Hit) -> Counted:
        return count(hit, self.pattern, self.value)


Plan = tuple[tuple[Step, ...], ...]
PlanKey = int  # the features and plan bits of a reading and of its hand (features.py)
CHOSEN_SLOTS: Final = 31  # a prime: a series has ~6-20 subsets in use (24,000 hands)


def _choosers(series: tuple[Step, ...]) -> int:
    """The bits of a plan's key that choose a series' steps: the form, the mod, its needs."""
    bits = SEVEN_PAIRS | THIRTEEN_TERMINALS | BONUS_TILES
    for step in series:
        bits |= step.needs
    return bits


class Table:
    """One rule set's reading of the catalogue (RULES.md §3, §6): each pattern's value after
    the overrides (patterns the version lacks have none unless an override gives one), the
    excluded patterns, the forms each pattern applies to, and the hand forms that can win.

    Built once per rule set (``table_for``). Its plans, the patterns worth asking per
    ``PlanKey`` (the form, the bonus-tile mod and the features), are made on first use from
    its ``series``; a ``kept`` table (a version's, a profile's) keeps them itself: ~1,300
    after 24,000 varied hands, each a tuple of its series' shared ``steps``.
    """

    __slots__ = (
        "choosers", "chosen", "excluded", "forms", "kept", "plans", "series", "steps", "values",
        "wins",
    )  # fmt: skip

    def __init__(
        self,
        version: Version,
        values: Mapping[str, int],
        exclude: Collection[str],
        kept: bool = False,
    ) -> None:
        self.kept: Final = kept
        self.values: Final = {**version.values, **values}
        self.excluded: Final = frozenset(exclude)
        self.forms: Final = {p.id: version.forms.get(p.id, p.forms) for p in CATALOGUE}
        self.wins: Final[frozenset[Form]] = frozenset(
            ["standard", *(form for id, form in IRREGULAR.items() if self.counts(id))]
        )
        self.plans: Final[dict[PlanKey, Plan]] = {}
        # A series' steps as plans hold them, one tuple for each subset met, shared by the
        # plans that hold it: a new plan keeps one tuple more, not one a series, for the
        # collector to walk (24,000 generated hands: ~1,300 plans a version, 36 subsets).
        self.steps: Final[dict[tuple[Step, ...], tuple[Step, ...]]] = {}
        # Every pattern counted, as series in id order, each from its most valuable down
        # (ties in id order; stacking series, the bonus tiles, in id order: all their
        # patterns count): a plan is these, less what its key rules out.
        by_series: dict[str, list[Step]] = {}
        for pattern in CATALOGUE:
            if self.counts(pattern.id):
                step = Step(pattern, self.values[pattern.id], self.forms[pattern.id])
                by_series.setdefault(pattern.series, []).append(step)
        self.series: Final = tuple(
            tuple(steps if steps[0].stacks else sorted(steps, key=lambda step: -step.value))
            for steps in by_series.values()
        )
        # Each series' steps in a plan, by the bits of the plan's key that choose them (the
        # form, the mod and its steps' needs; ``_choosers``), in slots: a plan not made
        # before is a look-up a series. New hands still meet plans not made before (after
        # 24,000 hands, 1 in 24), and each series' steps filtered anew, with the subset's
        # tuple found in ``steps``, cost ~15,000 instructions a plan.
        self.choosers: Final[tuple[int, ...]] = tuple(_choosers(series) for series in self.series)
        self.chosen: Final[tuple[SlotMemo[tuple[Step, ...]], ...]] = tuple(
            SlotMemo(CHOSEN_SLOTS) for _ in self.series
        )

    def counts(self, pattern_id: str) -> bool:
        """Whether this rule set counts the pattern: it has a value and is not excluded."""
        return pattern_id in self.values and pattern_id not in self.excluded

    def plan(self, key: PlanKey) -> Plan:
        """The plan for ``key``, kept for the next hand: in this table if it is ``kept``, else
        in a cache that all the tables of requests' own house rules share, and bounded, since
        clients choose those rule sets."""
        if not self.kept:
            shared = (self, key)
            found = _HOUSE_PLANS.get(shared)
            return found if found is not None else _HOUSE_PLANS.put(shared, self.make_plan(key))
        plan = self.plans[key] = self.make_plan(key)
        return plan

    def make_plan(self, key: PlanKey) -> Plan:
        """The patterns that can apply (see ``series``), less those whose ``needs`` the hand
        lacks: each series' steps for the bits of ``key`` that choose them."""
        plan = []
        for index, series in enumerate(self.series):
            bits = key & self.choosers[index]
            chosen = self.chosen[index]
            steps = chosen.get(bits)
            if steps is None:
                steps = chosen.put(bits, self._steps(series, bits))
            if steps:
                plan.append(steps)
        return tuple(plan)

    def _steps(self, series: tuple[Step, ...], key: PlanKey) -> tuple[Step, ...]:
        """The steps of ``series`` a plan of ``key`` asks for, one tuple for each subset."""
        form: Form = (
            "seven_pairs" if key & SEVEN_PAIRS
            else "thirteen_terminals" if key & THIRTEEN_TERMINALS
            else "standard"
        )  # fmt: skip
        bonus_tiles = bool(key & BONUS_TILES)
        steps = tuple(
            [
                step
                for step in series
                if step.needs & key == step.needs
                and form in step.forms
                and (bonus_tiles or not step.bonus)
            ]
        )
        return self.steps.setdefault(steps, steps)


IRREGULAR: Final = {p.id: form for p in CATALOGUE if (form := p.irregular_hand) is not None}

RuleKey = tuple[str, tuple[tuple[str, int], ...], tuple[str, ...]]  # version, values, exclude

_VERSION_TABLES: Final = {
    name: Table(version, {}, (), kept=True) for name, version in VERSIONS.items()
}
# The tables of the operator's profiles (rulesets.install_profiles): built once, at start.
_PINNED: Final[dict[RuleKey, Table]] = {}


def table_for(rules: Rules) -> Table:
    """The table of a rule set: a version's own, a profile's, or one built for a request's
    house rules and kept among the last ``HOUSE_TABLES`` used."""
    if not rules.values and not rules.exclude:
        return _VERSION_TABLES[rules.version]
    key = _key(rules)
    table = _PINNED.get(key) or _HOUSE_TABLES.get(key)
    return table if table is not None else _HOUSE_TABLES.put(key, _build(key))


def _key(rules: Rules) -> RuleKey:
    return (rules.version, rules.values, rules.exclude)


def _build(key: RuleKey, kept: bool = False) -> Table:
    version, values, exclude = key
    return Table(VERSIONS[version], dict(values), exclude, kept)


# Bounded, since the clients choose these keys: at most 64 tables (~9.5 KB each) and 512 plans
# (~0.5 KB each, each keeping its table alive): ~5 MB at worst (tracemalloc).
HOUSE_TABLES: Final = 64
HOUSE_PLANS: Final = 512
_HOUSE_TABLES: Final[Memo[RuleKey, Table]] = Memo(HOUSE_TABLES)
_HOUSE_PLANS: Final[Memo[tuple[Table, PlanKey], Plan]] = Memo(HOUSE_PLANS)


def pin_tables(rule_sets: Collection[Rules]) -> None:
    """Build the tables of these rule sets now and keep them, in place of those pinned before."""
    _PINNED.clear()
    _PINNED.update({_key(rules): _build(_key(rules), kept=True) for rules in rule_sets
                    if rules.values or rules.exclude})  # fmt: skip
