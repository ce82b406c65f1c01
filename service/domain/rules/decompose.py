"""Every way the tiles form a winning hand (RULES.md §1, freedom of count in §2).

Each suit is split on its own: a suit's readings depend only on its nine counts, so they are
found once, at start, for every suit that reads a way (``_READINGS``), which turns the worst
one-suit hands into a table look-up; each suit's readings as sets are kept as hands bring
them (``_SUIT_SETS``). The counts are read as one int per suit (``tiles.FACE_BITS`` a count), a
cheap key to compute and to look up. Readings of the suits are then combined.
"""

from __future__ import annotations

from collections.abc import Collection
from itertools import combinations_with_replacement
from typing import Final, Literal

from mypy_extensions import i64

from ..memo import SUIT_SLOTS, SlotMemo
from . import tiles as t
from .features import (
    CHOWS_2,
    CHOWS_3,
    CHOWS_4,
    CHOWS_TWICE,
    CONCEALED_2,
    HONOUR_TRIPLET,
    ORPHAN_PAIR,
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
)
from .hand import CHOW, PUNG, Meld
from .tiles import mask

Form = Literal["standard", "seven_pairs", "thirteen_terminals"]
ALL_FORMS: Final[frozenset[Form]] = frozenset({"standard", "seven_pairs", "thirteen_terminals"})


# One suit's reading as one int: the pair's offset plus one (0 for none) in its low 4 bits,
# then each set in 5 bits, lowest first: 16 for a chow, plus its offset plus one (never 0).
# An int, not tuples of pairs: a table of them holds no object the garbage collector tracks.
_PAIR_BITS: Final = 4
_SET_BITS: Final = 5
_CHOW_BIT: Final = 16


class Arrangement:
    """One reading of the whole hand.

    ``sets`` (standard form) holds the declared melds and the sets formed from the held tiles;
    ``winning`` is the index of the set the winning tile completed, or None when it completed
    the pair or the hand is irregular. ``pairs`` is the Seven Pairs reading. How many chows
    and triplets (pungs and kongs) it holds, and their tiles as masks (bit n set for a chow
    from, a triplet of, tile n), come with the suits' readings (``SuitReading``) because
    every pattern predicate asks for them; ``features`` and ``plan_bits`` pick the patterns
    worth asking (``features.py``).
    """

    __slots__ = ("chow_count", "chow_mask", "concealed_triplets", "features", "form",
                 "pair", "pairs", "plan_bits", "sets", "triplet_count", "triplet_mask",
                 "winning")  # fmt: skip

    def __init__(
        self,
        form: Form,
        sets: tuple[Meld, ...] = (),
        pair: int = -1,
        pairs: tuple[int, ...] = (),
        winning: int | None = None,
        chow_count: int = 0,
        triplet_count: int = 0,
        concealed: int = 0,
        chow_mask: int = 0,
        triplet_mask: int = 0,
    ) -> None:
        self.form = form
        self.sets = sets
        self.pair = pair
        self.pairs = pairs
        self.winning = winning
        self.chow_count = chow_count
        self.triplet_count = triplet_count
        self.concealed_triplets = concealed
        self.chow_mask = chow_mask
        self.triplet_mask = triplet_mask
        # The masks as native ints: compiled, no overflow checked in a score of operations.
        chows: i64 = chow_mask
        triplets: i64 = triplet_mask
        features: i64 = (
            (CHOWS_2 if chow_count >= 2 else 0)
            | (CHOWS_3 if chow_count >= 3 else 0)
            | (CHOWS_4 if chow_count == 4 else 0)
            | (TRIPLETS_2 if triplet_count >= 2 else 0)
            | (TRIPLETS_3 if triplet_count >= 3 else 0)
            | (TRIPLETS_4 if triplet_count == 4 else 0)
            | (CONCEALED_2 if concealed >= 2 else 0)
            | (HONOUR_TRIPLET if triplets >> t.EAST else 0)
            | (ORPHAN_PAIR if pair >= 0 and _ORPHAN_KINDS >> pair & 1 else 0)
            | (CHOWS_TWICE if chow_count >= 2 and _count(chow_mask) < chow_count else 0)
            | (SIMILAR_CHOWS if chows & chows >> 9 & chows >> 18 & _CHARACTERS else 0)
            | (STRAIGHT if chows & chows >> 3 & chows >> 6 & SUIT_STARTS else 0)
            | (SIMILAR_TRIPLETS if _similar(triplets & NUMBERS) else 0)
            | (TRIPLET_RUN if triplets & triplets >> 1 & triplets >> 2 & RUNS else 0)
            | (0 if chows & ~TERMINAL_CHOWS or triplets & ~_ORPHAN_KINDS else TERMINAL_SETS)
        )
        self.features = features
        self.plan_bits = 0 if form == "standard" else _FORM_BITS[form]


# Groups of tiles as masks (``tiles.mask``): bit n for tile n.
_CHARACTERS: Final = mask(tuple(range(9)))  # the first suit: the others are shifted down to it
NUMBERS: Final = mask(tuple(range(t.EAST)))
SUIT_STARTS: Final = mask((0, 9, 18))  # the 1 of each suit
TERMINAL_CHOWS: Final = mask(tuple(base + offset for base in (0, 9, 18) for offset in (0, 6)))
# Where ``size`` consecutive triplets of one suit may start: numbers 1 to 10 - size.
RUN_STARTS: Final = {
    size: mask(tuple(base + n for base in (0, 9, 18) for n in range(10 - size))) for size in (3, 4)
}
RUNS: Final = RUN_STARTS[3]


def _similar(triplets: i64) -> i64:
    """Whether some number is a triplet's in two suits or three (a mask of number tiles)."""
    return (
        triplets & triplets >> 9 | triplets & triplets >> 18 | triplets >> 9 & triplets >> 18
    ) & _CHARACTERS


_FORM_BITS: Final[dict[str, int]] = {
    "standard": 0, "seven_pairs": SEVEN_PAIRS, "thirteen_terminals": THIRTEEN_TERMINALS
}  # fmt: skip


def arrangements(
    held: t.Held, melds: tuple[Meld, ...], winning_tile: int, on_discard: bool
) -> list[Arrangement]:
    """Every arrangement of the tiles ``held`` (the concealed tiles, winning tile included)
    with ``melds``.

    On a discard win, each distinct set the winning tile may have completed is its own
    arrangement: a pung it completes is not concealed (RULES.md §4.1). On a self-draw the
    choice changes nothing, so the first one is taken.
    """
    keys = held.keys
    found: list[Arrangement] = []
    _standard(keys, _Declared(melds) if melds else _NO_MELDS, winning_tile, on_discard, found)
    if not melds:
        if _paired(keys):
            # Every tile twice or four times: in order, every other one is a pair's.
            found.append(Arrangement("seven_pairs", pairs=held.tiles()[::2]))
        elif _thirteen_terminals(held.kinds):
            found.append(Arrangement("thirteen_terminals"))
    return found


_ORPHAN_KINDS: Final = mask(t.ORPHANS)


def _count(kinds: int) -> int:
    """How many kinds a mask holds, 12 bits at a time (compiled, ``int.bit_count`` is a call
    by name, and this runs for every reading with two chows)."""
    return _BITS[kinds & 0xFFF] + _BITS[kinds >> 12 & 0xFFF] + _BITS[kinds >> 24]


_BITS: Final = tuple(bits.bit_count() for bits in range(1 << 12))


def _paired(keys: t.SuitKeys) -> bool:
    """Whether every tile is there an even number of times: 14 tiles held without a meld so
    are Seven Pairs (four alike, not declared as a kong, are two pairs)."""
    m, p, s, z = keys
    return not (m | p | s | z) & _ODD


_ODD: Final = sum(1 << t.FACE_BITS * face for face in range(9))  # each count's lowest bit


def _thirteen_terminals(kinds: int) -> bool:
    """One of each terminal and honour (a mask of the kinds held), and one more of them (14
    tiles held)."""
    return not kinds & ~_ORPHAN_KINDS and _count(kinds) == 13


def is_winning(counts: list[int], melds: int, forms: Collection[Form] = ALL_FORMS) -> bool:
    """Whether counts (14 - 3 * melds tiles) form a winning hand of one of ``forms`` (the
    irregular hands a rule set may leave out; a standard hand always wins); cheap, for waits."""
    keys = t.suit_keys(tuple([tile for tile, n in enumerate(counts) for _ in range(n)]))
    if _standard(keys, _NO_MELDS, -1, False, None):
        return True
    if melds:
        return False
    kinds = tuple([tile for tile, c in enumerate(counts) if c])
    return ("seven_pairs" in forms and _paired(keys)) or (
        "thirteen_terminals" in forms and _thirteen_terminals(mask(kinds))
    )


def _standard(
    keys: t.SuitKeys,
    declared: _Declared,
    winning_tile: int,
    on_discard: bool,
    found: list[Arrangement] | None,
) -> bool:
    """Every standard reading of the held tiles, as one reading of each suit (exactly one
    of them with the pair), with the ``declared`` melds: added to ``found`` as arrangements
    (``_completions``); without ``found``, only whether there is one. Whether any was.

    The suits' readings are combined in four nested loops, one a suit (a suit without tiles
    reads one way, with nothing), and an arrangement is made from each combination
    directly: no list of combinations, no object per suit on the way.
    """
    m, p, s, z = keys
    readings_m, readings_p = _suit_sets(m), _suit_sets(p)
    readings_s, readings_z = _suit_sets(s), _suit_sets(z)
    some = False
    for a in readings_m:
        for b in readings_p:
            for c in readings_s:
                for d in readings_z:
                    if (a.pair >= 0) + (b.pair >= 0) + (c.pair >= 0) + (d.pair >= 0) != 1:
                        continue
                    if found is None:
                        return True
                    _completions(found, declared, a, b, c, d, winning_tile, on_discard)
                    some = True
    return some


class SuitReading:
    """A reading of one suit, with what every pattern asks of it: the pair's tile (-1 for
    none), the sets, how many chows and triplets, and their tiles as masks (bit n set for a
    chow from, a triplet of, tile n). A class rather than a tuple: compiled, its fields are
    read directly, where a tuple's are checked and unboxed one by one.
    """

    __slots__ = ("chow_count", "chow_mask", "pair", "sets", "triplet_count", "triplet_mask")

    def __init__(self, pair: int, sets: tuple[Meld, ...]) -> None:
        self.pair: Final = pair
        self.sets: Final = sets
        chow_count = triplet_count = chow_mask = triplet_mask = 0
        for meld in sets:
            if meld.kind == CHOW:
                chow_count += 1
                chow_mask |= 1 << meld.tile
            else:
                triplet_count += 1
                triplet_mask |= 1 << meld.tile
        self.chow_count: Final = chow_count
        self.triplet_count: Final = triplet_count
        self.chow_mask: Final = chow_mask
        self.triplet_mask: Final = triplet_mask


# Sizes from measurement: 10,000 distinct bench hands fill 3,630 entries; every winning suit
# (18,874, the most readings first) holds 6.5 MiB (tracemalloc, 361 B a suit): their sets are
# the shared melds of _HELD_CHOWS and _HELD_PUNGS.
_SUIT_SETS: Final[SlotMemo[tuple[SuitReading, ...]]] = SlotMemo(SUIT_SLOTS)


def _suit_sets(key: int) -> tuple[SuitReading, ...]:
    """One suit's readings, from its key: none if its tiles read no way, one reading with
    nothing in it if it holds none."""
    if not key & t.FACES:
        return _NO_TILES
    found = _SUIT_SETS.get(key)
    if found is not None:
        return found
    suit = t.key_suit(key)
    base = suit * 9
    readings = []
    for reading in _READINGS.get((key & t.FACES) << 1 | (suit < 3), _NO_READING):
        melds = []
        sets = reading >> _PAIR_BITS
        while sets:
            code = sets & 31
            held = _HELD_CHOWS if code & _CHOW_BIT else _HELD_PUNGS
            melds.append(held[base + (code & 15) - 1])
            sets >>= _SET_BITS
        pair = reading & 15
        readings.append(SuitReading(base + pair - 1 if pair else -1, tuple(melds)))
    return _SUIT_SETS.put(key, tuple(readings))


def _suit_readings(counts: int, runs: bool, known: dict[int, tuple[int, ...]]) -> tuple[int, ...]:
    """Every split of one suit's counts (its key without the suit: ``tiles.FACE_BITS`` a
    face) into pungs, chows (if ``runs``) and at most one pair, each as one int (see
    ``_PAIR_BITS``); ``known``: the splits of counts found so far, by ``counts << 1 | runs``.

    The lowest tile left must start something; choosing at once how many chows, whether a
    pung and whether the pair start there makes every reading come out exactly once. The
    counts left are an int too, so that each step's key is one (a tuple of nine counts
    costs its hash and comparisons).
    """
    if not counts:
        return _NOTHING_LEFT
    key = counts << 1 | runs
    found = known.get(key)
    if found is not None:
        return found
    start = 0
    while not counts >> t.FACE_BITS * start & _FACE:
        start += 1
    here = counts >> t.FACE_BITS * start & _FACE
    readings: list[int] = []
    for pung in (1, 0):
        for pair in (0, 1):
            chows = here - 3 * pung - 2 * pair
            if chows < 0 or (chows and not runs):
                continue
            rest = counts - (here << t.FACE_BITS * start)
            if chows:
                if (
                    start > 6
                    or rest >> t.FACE_BITS * (start + 1) & _FACE < chows
                    or rest >> t.FACE_BITS * (start + 2) & _FACE < chows
                ):
                    continue
                rest -= chows * (t.PLACE[start + 1] + t.PLACE[start + 2])
            # The sets starting here, the pung first, then those of the rest above them.
            sets = start + 1 if pung else 0
            for index in range(pung, pung + chows):
                sets |= (_CHOW_BIT | start + 1) << _SET_BITS * index
            above = _SET_BITS * (pung + chows) + _PAIR_BITS
            for upper in _suit_readings(rest, runs, known):
                if pair and upper & 15:
                    continue
                held = (start + 1 if pair else upper & 15) | sets << _PAIR_BITS
                readings.append(held | upper >> _PAIR_BITS << above)
    known[key] = found = tuple(readings)
    return found


def _every_reading() -> dict[int, tuple[int, ...]]:
    """The readings of every suit that reads a way, numbers and honours (22,239 suits, ~4 MB),
    by its counts and whether chows count (``counts << 1 | runs``), found once at start. A
    suit a client sends then costs a look-up where it cost a search of its splits, ~9,000
    instructions for one not seen before; a suit absent reads no way.

    Those suits are up to four sets and at most one pair, no count above four: each of
    those is split once (in the search's order, which decides ties between readings).
    """
    every: dict[int, tuple[int, ...]] = {}
    known: dict[int, tuple[int, ...]] = {}
    for runs, faces in ((True, 9), (False, 7)):
        sets = [3 * t.PLACE[face] for face in range(faces)]
        if runs:
            sets += [t.PLACE[face] * _CHOW_COUNTS for face in range(faces - 2)]
        pairs = [0, *[2 * t.PLACE[face] for face in range(faces)]]
        for size in range(5):
            for chosen in combinations_with_replacement(sets, size):
                for pair in pairs:
                    counts = sum(chosen) + pair
                    key = counts << 1 | runs
                    if counts and key not in every and not _over_four(counts):
                        every[key] = _suit_readings(counts, runs, known)
    return every


_CHOW_COUNTS: Final = sum(1 << t.FACE_BITS * face for face in range(3))  # 1, 1, 1 from a face


def _over_four(counts: int) -> bool:
    """Whether some face of a suit's counts is above four (a sum of sets stays below 64, a
    face's bits, so each face reads whole)."""
    return any(counts >> t.FACE_BITS * face & _FACE > 4 for face in range(9))


_FACE: Final = (1 << t.FACE_BITS) - 1  # one face's count in a key
_NOTHING_LEFT: Final[tuple[int, ...]] = (0,)  # no pair, no sets
_NO_READING: Final[tuple[int, ...]] = ()
_READINGS: Final = _every_reading()


class _Declared(SuitReading):
    """A hand's declared melds, read as a suit's sets are (with no pair), and how many of
    their triplets are concealed (kongs): counted once for all the hand's readings."""

    __slots__ = ("concealed",)

    def __init__(self, melds: tuple[Meld, ...]) -> None:
        super().__init__(-1, melds)
        concealed = 0
        for meld in melds:  # a plain loop: compiled, generators cost more than the work
            if meld.kind != CHOW and meld.concealed:
                concealed += 1
        self.concealed: Final = concealed


_NO_MELDS: Final = _Declared(())  # shared by the hands that declare none (four in ten)
# The one reading of a suit without tiles. Typed as a tuple of any length: compiled, a
# ``tuple[SuitReading]`` would be kept unboxed and boxed into a new tuple at each return.
_NO_TILES: Final[tuple[SuitReading, ...]] = (SuitReading(-1, ()),)


def _completions(
    found: list[Arrangement],
    declared: _Declared,
    m: SuitReading,
    p: SuitReading,
    s: SuitReading,
    z: SuitReading,
    winning_tile: int,
    on_discard: bool,
) -> None:
    """Adds to ``found`` the arrangements of one reading of the held tiles (a reading of
    each suit) with the declared melds: one for each distinct set the winning tile may have
    completed."""
    # Tuples added: adding an empty one (most hands declare nothing and hold two or three
    # suits) returns the other, where a list would be extended by each.
    sets = declared.sets + m.sets + p.sets + s.sets + z.sets
    offset = len(declared.sets)
    pair = m.pair if m.pair >= 0 else p.pair if p.pair >= 0 else s.pair if s.pair >= 0 else z.pair
    chow_count = declared.chow_count + m.chow_count + p.chow_count + s.chow_count + z.chow_count
    triplet_count = (
        declared.triplet_count + m.triplet_count + p.triplet_count + s.triplet_count
        + z.triplet_count
    )  # fmt: skip
    chow_mask = declared.chow_mask | m.chow_mask | p.chow_mask | s.chow_mask | z.chow_mask
    triplet_mask = (
        declared.triplet_mask | m.triplet_mask | p.triplet_mask | s.triplet_mask | z.triplet_mask
    )
    # Held triplets are concealed, so far.
    concealed = triplet_count - declared.triplet_count + declared.concealed
    # What the winning tile may have completed, as bits (no list made): bit 0 for the pair,
    # bit i + 1 for ``sets[i]`` (four sets at most: ``2 << index`` fits a C int).
    slots: i64 = 1 if pair == winning_tile else 0
    last: Meld | None = None
    for index in range(offset, len(sets)):
        if slots and not on_discard:
            break  # on a self-draw the choice changes nothing: the first one is taken
        meld = sets[index]
        if meld.tile <= winning_tile <= meld.tiles[-1]:
            # The same set held twice completes the hand one way; a suit's sets come in
            # order of their lowest tile, pungs first, so two alike stand side by side.
            if last is None or last.kind != meld.kind or last.tile != meld.tile:
                slots |= 2 << index
            last = meld
    at = -1  # the set of the lowest bit (-1: the pair)
    while slots:
        if slots & 1:
            slot = None if at < 0 else at
            formed, exposed = sets, 0
            if slot is not None and on_discard:
                held = sets[slot]
                chow = held.kind == CHOW
                completed = (_EXPOSED_CHOWS if chow else _EXPOSED_PUNGS)[held.tile]
                formed = (*sets[:slot], completed, *sets[slot + 1 :])
                exposed = 0 if chow else 1
            found.append(
                Arrangement(
                    "standard",
                    sets=formed,
                    pair=pair,
                    winning=slot,
                    chow_count=chow_count,
                    triplet_count=triplet_count,
                    concealed=concealed - exposed,
                    chow_mask=chow_mask,
                    triplet_mask=triplet_mask,
                )
            )
        slots >>= 1
        at += 1


# Every set held, by kind and lowest tile: concealed, and exposed as a held set the winning
# discard completed is (RULES.md §4.1). Melds are values: every reading shares these.
_HELD_CHOWS: Final = tuple(Meld(CHOW, tile, True) for tile in range(t.KINDS))
_HELD_PUNGS: Final = tuple(Meld(PUNG, tile, True) for tile in range(t.KINDS))
_EXPOSED_CHOWS: Final = tuple(Meld(CHOW, tile, False) for tile in range(t.KINDS))
_EXPOSED_PUNGS: Final = tuple(Meld(PUNG, tile, False) for tile in range(t.KINDS))
