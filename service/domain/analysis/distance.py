"""A suit's distances to sets and a pair, and the room the melds leave: what hand analysis
(analysis.py) and the expected-score search (expectation.py) both read."""

from __future__ import annotations

from array import array
from importlib import resources
from typing import Final, Generic, TypeVar

from librt.vecs import append, vec
from mypy_extensions import i64

from ..memo import Memo
from ..rules.hand import Meld, visible

SETS: Final = 4  # a regular hand's sets, melds included
FAR: Final = 99  # the distance of a shape that cannot be made
POWERS: Final = tuple(5**place for place in range(9))
# A per-suit key: the counts as a base-5 number, the suit above them, and the copies the melds
# hold above that (zero for a suit the melds do not touch, which is most of them).
SUIT: Final = 5**9
_MELDED: Final = 4 * SUIT
WHOLE_SUITS: Final = _MELDED  # the keys below it: suits the melds leave whole
# Above the melds' copies, a melded suit's key holds the hand's melds: the sets left to make
# beside them are fewer, and counting only those is what makes a melded suit (which no table
# holds) cheap to count (``moves``' ``most``).
_CAPPED: Final = SUIT * _MELDED
# Two suit keys of one hand as one key (``Room.pair``): its melds are fixed, so a suit's keys
# differ by their counts alone, and suit 0's and suit 2's keys stay 2 * 5**9 apart modulo
# 4 * 5**9 (``SUIT``, ``_MELDED``): each key modulo ``_MELDED`` tells the pairs apart, as two
# machine words.

Joined = TypeVar("Joined")

# ``Index``'s hash: a key's two words folded to 31 bits and multiplied by a 31-bit odd
# constant, so that no product passes 62 bits (compiled and pure alike, nothing overflows).
_FOLD: Final = (1 << 31) - 1
_SPREAD: Final = 0x5BD1E995
_PLACES: Final = 256  # a new index's places, a power of two (doubled when half full)
_CELLS: Final = 3  # a place's cells: the key's two words, its number
_NUMBER: Final = 2
# An index's vector (and a graph's rows reached, ``expectation._Graph``) is a copy of the
# first places of this one (a copy is one memcpy; one made from a list of that many ints cost
# ~13 instructions a place, and an index's growth was 2-4% of an expected score's
# instructions, most in the largest requests). Made anew when an index outgrows it, so it
# holds the places of the largest index made: an outlook's hands, which a request's budget of
# states bounds (3 MB after `make bench`'s expected scores).
_BLANK: Final = [vec[i64]([-1] * (_CELLS * _PLACES))]


def blank(cells: i64) -> vec[i64]:
    """A vector of ``cells`` -1s."""
    ones = _BLANK[0]
    if len(ones) < cells:
        ones = vec[i64]([-1] * cells)
        _BLANK[0] = ones
    return ones[:cells]


class Index:
    """Numbers (0 and up) by a key of two non-negative machine words under 2^62, in one
    unboxed vector (open addressing, linear probing, at most half full). A dict keyed by one
    int would box each key (a hand's 80 bits take mypyc's slow path past 63), hash and compare
    it as an object: here a probe reads and compares native words. A place is three cells side
    by side, the key's two words and its number (-1: empty), so that a probe reads one cache
    line, not one in each of three vectors (an outlook's index outgrows the caches). ``find``
    finds a key's place and number, ``put`` fills the place when it was empty: one probe for a
    look-up and the insert after it."""

    __slots__ = ("cells", "end", "mask", "size")

    def __init__(self, keys: i64 = 0) -> None:
        """Room for ``keys`` keys before it grows (at least ``_PLACES`` places)."""
        places: i64 = _PLACES
        while places < 2 * keys + 2:
            places *= 2
        self.mask: i64 = places - 1
        self.end: i64 = _CELLS * places
        self.cells = blank(self.end)  # (a key's words read only where it has a number)
        self.size: i64 = 0

    def find(self, low: i64, high: i64) -> tuple[i64, i64]:
        """The key's place and its number; when it has none, -1 and the empty place it
        would take."""
        cells = self.cells
        at = _CELLS * _place(low, high, self.mask)
        while True:
            number = cells[at + _NUMBER]
            if number < 0 or (cells[at] == low and cells[at + 1] == high):
                return at, number
            at += _CELLS
            if at == self.end:
                at = 0

    def get(self, low: i64, high: i64) -> i64:
        """The key's number, -1 when it has none."""
        return self.find(low, high)[1]

    def put(self, at: i64, low: i64, high: i64, number: i64) -> None:
        """The key at its empty place ``at`` (from ``find``, nothing put since), numbered."""
        cells = self.cells
        cells[at] = low
        cells[at + 1] = high
        cells[at + _NUMBER] = number
        self.size += 1
        if 2 * self.size > self.mask:
            self._grow()

    def _grow(self) -> None:
        """Twice the places, every key moved to its place among them."""
        cells = self.cells
        mask: i64 = 2 * self.mask + 1
        end: i64 = _CELLS * (mask + 1)
        grown = blank(end)
        at: i64 = 0
        while at < self.end:
            number = cells[at + _NUMBER]
            if number >= 0:
                low = cells[at]
                high = cells[at + 1]
                place = _CELLS * _place(low, high, mask)
                while grown[place + _NUMBER] >= 0:  # (every key is new here)
                    place += _CELLS
                    if place == end:
                        place = 0
                grown[place] = low
                grown[place + 1] = high
                grown[place + _NUMBER] = number
            at += _CELLS
        self.mask = mask
        self.end = end
        self.cells = grown


def _place(low: i64, high: i64, mask: i64) -> i64:
    """A key's first place among ``mask + 1``."""
    folded = (low ^ low >> 29 ^ high << 3 ^ high >> 26) & _FOLD
    return (folded * _SPREAD >> 20) & mask


class Room(Generic[Joined]):
    """What the melds leave a hand: the room each kind has left beside them, the sets the
    concealed tiles must make, and the irregular forms the rules keep (only without melds);
    and, for one request, what its suits (0, 1) and (2, 3) give joined (``pair``)."""

    __slots__ = ("joined", "melded", "pairs", "room", "sets", "seven_pairs", "thirteen_terminals")

    def __init__(self, melds: tuple[Meld, ...], wins: frozenset[str]) -> None:
        copies = visible((), melds)
        self.room = [4 - count for count in copies]
        melded = [
            sum(copies[base + place] * POWERS[place] for place in range(9 if base < 27 else 7))
            for base in (0, 9, 18, 27)
        ]
        self.melded = [code * _MELDED + (len(melds) * _CAPPED if code else 0) for code in melded]
        self.sets = SETS - len(melds)
        self.seven_pairs = not melds and "seven_pairs" in wins
        self.thirteen_terminals = not melds and "thirteen_terminals" in wins
        self.pairs = Index()  # by the two suits' counts (each key modulo ``_MELDED``)
        self.joined: list[Joined] = []  # in the order ``pairs`` numbers them

    def keys(self, counts: list[int]) -> list[int]:
        """Each suit's key (see ``SUIT``)."""
        return [
            sum(counts[base + place] * POWERS[place] for place in range(9 if base < 27 else 7))
            + suit * SUIT
            + self.melded[suit]
            for suit, base in enumerate((0, 9, 18, 27))
        ]

    def pair(self, low: int, high: int) -> Joined:
        """Two suits joined (``join``), kept: a draw or a discard changes one suit, so the
        other pair's join recurs through the request."""
        low_counts: i64 = low % _MELDED
        high_counts: i64 = high % _MELDED
        pairs = self.pairs
        at, number = pairs.find(low_counts, high_counts)
        if number >= 0:
            return self.joined[number]
        made = self.join(low, high)
        pairs.put(at, low_counts, high_counts, len(self.joined))
        self.joined.append(made)
        return made

    def join(self, low: int, high: int) -> Joined:
        """What the two suits' keys give as one part of the hand."""
        raise NotImplementedError


# Sizes from measurement (docs/PERFORMANCE.md): 3,000 analyses of varied hands filled 25,619
# entries, which held 132 distinct distances: each is kept once (``_SHARED``), so that an entry
# costs its key and its slot (~70 bytes), ~3.5 MB full.
_SUIT_DISTANCES: Final[Memo[int, tuple[int, ...]]] = Memo(50_000)
_SHARED: Final[dict[tuple[int, ...], tuple[int, ...]]] = {}


def suit_distances(key: int, room: list[int]) -> tuple[int, ...]:
    """One suit's distances, index 2 * sets + pair (sets 0-4, pair 0-1), from its key: read
    from ``TABLE`` when the melds leave the suit whole, else counted (``distances``)."""
    found = _SUIT_DISTANCES.get(key)
    if found is not None:
        return found
    base, counts = suit_counts(key)
    found = tabled(key, counts)
    if found is None:
        found = distances(counts, room[base : base + len(counts)], base < 27, most_sets(key))
    if len(_SHARED) >= 10_000:  # never reached by real suits; bounded all the same
        _SHARED.clear()
    return _SUIT_DISTANCES.put(key, _SHARED.setdefault(found, found))


# Every suit the melds leave whole (each kind's room 4) with at most ``TABLED`` tiles, and its
# distances, 4 bits each (15: FAR), in the order ``rank`` numbers them: the numbered suits'
# first, then the honours'. Made by scripts/suit_table.py from ``distances``; a test holds a
# sample of it to them. Read once (3.6 MB): a suit not seen before costs a look-up, not a pass.
TABLED: Final = 14
FILE: Final = "suits.bin"


def _sizes(places: int) -> list[list[int]]:
    """``[k][s]``: how many ways ``k`` kinds hold at most ``s`` tiles, at most 4 of each."""
    ways = [[1] * (TABLED + 1)]
    for kinds in range(1, places + 1):
        ways.append(
            [sum(ways[kinds - 1][s - c] for c in range(min(4, s) + 1)) for s in range(TABLED + 1)]
        )
    return ways


_WAYS: Final = _sizes(9)
_HONOURS_AT: Final = _WAYS[9][TABLED]  # where the honours' entries start


def rank(counts: list[int]) -> int:
    """The number of a suit's counts among those of its length with at most ``TABLED`` tiles,
    in order (the first kind's count first, then the next), or -1 past ``TABLED``."""
    left = TABLED
    number = 0
    places = len(counts)
    for place, count in enumerate(counts):
        if count > left:
            return -1
        rest = _WAYS[places - 1 - place]
        for lower in range(count):
            number += rest[left - lower]
        left -= count
    return number


def _load() -> vec[i64]:
    """The table, empty where it is not made yet (as the script that makes it runs); as an
    unboxed vector (each entry under 2^40), which compiled code indexes without making an int
    object, as it would for an array's item."""
    table = array("q")
    found = resources.files(__package__).joinpath(FILE)
    if found.is_file():
        table.frombytes(found.read_bytes())
    return vec[i64](table)  # (one copy of its buffer)


TABLE: Final = _load()


def tabled(key: int, counts: list[int]) -> tuple[int, ...] | None:
    """The distances of a suit the melds leave whole, from ``TABLE``; None for another."""
    if key >= _MELDED or not TABLE:
        return None  # the melds hold some of its kinds
    number = rank(counts)
    if number < 0:
        return None
    packed = TABLE[number if len(counts) == 9 else _HONOURS_AT + number]
    return tuple([FAR if (packed >> 4 * i & 15) == 15 else packed >> 4 * i & 15 for i in range(10)])


# ``rank``'s steps as one flat vector of native ints: at ((kinds after) * (TABLED + 1) + tiles
# left) * 5 + count, what a kind holding ``count`` adds to the number (``packed_distances``).
_RANKS: Final = vec[i64](
    [
        sum(_WAYS[after][left - lower] for lower in range(count)) if count <= left else 0
        for after in range(9)
        for left in range(TABLED + 1)
        for count in range(5)
    ]
)


def packed_distances(digits: i64, places: i64) -> i64:
    """``TABLE``'s entry for a suit the melds leave whole (its distances, 4 bits each, 15:
    FAR), from its counts as base-5 digits (``places`` kinds: 9, or 7 for the honours), in
    native ints (no list of counts, no tuple); -1 past ``TABLED`` tiles."""
    left: i64 = TABLED
    number: i64 = 0
    place: i64 = 0
    while place < places:
        count = digits % 5
        if count > left:
            return -1
        number += _RANKS[((places - 1 - place) * (TABLED + 1) + left) * 5 + count]
        left -= count
        digits //= 5
        place += 1
    packed: i64 = TABLE[number if places == 9 else _HONOURS_AT + number]
    return packed


def packed_neighbours(digits: i64, places: i64) -> vec[i64]:
    """``packed_distances`` of a suit and of each suit a tile from it, in one walk of its
    places, not one a neighbour (a suit's moves read ~19 of them): at 0 the suit's entry, at
    ``1 + 2 * place`` the entry with a tile more of that kind (-1 where it holds four), at
    ``2 + 2 * place`` with a tile less (-1 where it holds none). Empty when the suit or a tile
    more passes ``TABLED`` tiles.

    A neighbour's number differs from the suit's at its place and after it: the places after
    have a tile fewer left (a tile more before them) or one more; their steps so summed are
    kept as the walk goes back over the places (each place's count and tiles left kept in two
    words, 3 and 4 bits a place, ``TABLED`` under 16: no vector made for them)."""
    found = _NO_NEIGHBOURS[: 1 + 2 * places]
    counts: i64 = 0
    lefts: i64 = 0
    left: i64 = TABLED
    number: i64 = 0
    rest = digits
    place: i64 = 0
    while place < places:
        count = rest % 5
        if count >= left:  # (a tile more passes the table, if not this suit)
            return vec[i64]()
        counts |= count << 3 * place
        lefts |= left << 4 * place
        number += _RANKS[((places - 1 - place) * (TABLED + 1) + left) * 5 + count]
        left -= count
        rest //= 5
        place += 1
    start: i64 = 0 if places == 9 else _HONOURS_AT
    found[0] = TABLE[start + number]
    before = number  # the steps of the places before ``place``
    after_more: i64 = 0  # the steps after it with a tile more before them
    after_less: i64 = 0  # with a tile less
    place = places - 1
    while place >= 0:
        count = counts >> 3 * place & 7
        left = lefts >> 4 * place & 15
        at = ((places - 1 - place) * (TABLED + 1) + left) * 5
        before -= _RANKS[at + count]
        if count < 4:
            found[1 + 2 * place] = TABLE[start + before + _RANKS[at + count + 1] + after_more]
        if count:
            found[2 + 2 * place] = TABLE[start + before + _RANKS[at + count - 1] + after_less]
        after_more += _RANKS[at - 5 + count]  # one tile fewer left
        if left < TABLED:  # (else no place before holds a tile to take away)
            after_less += _RANKS[at + 5 + count]
        place -= 1
    return found


_NO_NEIGHBOURS: Final = vec[i64]([-1] * 19)


def most_sets(key: int) -> int:
    """The most sets a suit's key may have to make: fewer beside the melds."""
    return SETS - key // _CAPPED


def suit_counts(key: int) -> tuple[int, list[int]]:
    """A suit key's first tile and counts (nine, or seven for the honours)."""
    suit = key // SUIT % 4
    place = key % SUIT
    counts = []
    for _ in range(9 if suit < 3 else 7):
        counts.append(place % 5)
        place //= 5
    return suit * 9, counts


def distances(counts: list[int], room: list[int], runs: bool, most: int = SETS) -> tuple[int, ...]:
    """The fewest tiles to add to one suit's ``counts`` so that j sets and p pairs come out of
    it, at index 2 * j + p (j at most ``most``; FAR beyond), never using more of a kind than
    its ``room`` (``moves``, without its masks: a third faster, for hand analysis)."""
    return moves(counts, room, runs, masks=False, most=most)[0]


# What ``moves``' buffers start as, each state unreached (copied: a copy is one memcpy).
_FARS: Final = vec[i64]([FAR] * 256)
_NONE: Final = vec[i64]([0] * 256)


def moves(
    counts: list[int], room: list[int], runs: bool, masks: bool = True, most: int = SETS
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """``distances``, and at each index the kinds whose draw lowers it and those whose discard
    keeps it, as masks of the suit's places.

    A pass over the kinds, lowest first, choosing at each how many chows start there (if
    ``runs``), whether a pung and whether the pair: the state is the chows still owed a tile
    here and at the next kind (at most two each), the sets made and the pair, packed in one
    int (8 bits).

    A draw of a kind lowers a distance exactly when some cheapest way to it uses more of that
    kind than is held (the tile drawn is one it lacked), and a discard keeps it exactly when
    some cheapest way uses less (the tile was spare): so each state also keeps the kinds that
    its cheapest ways lack and those they leave spare. A cheapest way's every prefix is a
    cheapest way to its state, so these are all of them. Without ``masks`` they are not kept
    (and come out empty).
    """
    # The states reached so far, the fewest tiles added to reach each (FAR: not reached), and
    # what their cheapest ways lack and leave spare; the next kind's in ``ahead`` (two buffers
    # taking turns, each reset where it was used). Unboxed vectors of native ints: the pass
    # reads and writes them a few thousand times, and a list would box every value it stores.
    states = vec[i64]([0])
    costs = _FARS[:]
    costs[0] = 0
    ahead = _FARS[:]
    lacks = _NONE[:]
    spares = _NONE[:]
    ahead_lacks = _NONE[:]
    ahead_spares = _NONE[:]
    last = len(counts) - 3
    cap_sets: i64 = most
    for kind, have_count in enumerate(counts):
        have: i64 = have_count
        cap: i64 = room[kind]
        bit: i64 = 1 << kind
        reached = vec[i64]()
        for state in states:
            spent = costs[state]
            lack = lacks[state]
            spare = spares[state]
            owed = (state & 3) + (state >> 2 & 3)  # tiles of this kind the open chows need
            made = state >> 4 & 7
            paired = state >> 7
            starts: i64 = 0
            if runs and kind <= last:
                # At most two chows start at a kind: three alike hold the tiles of three
                # pungs (the kind and the next two, none of which can hold a pung beside
                # them), so every count of each kind a way may use is reached without them.
                starts = cap_sets - made
                if starts > 2:
                    starts = 2
            limit = cap - owed if cap - owed < starts else starts
            start: i64 = 0
            while start <= limit:
                pung: i64 = 0
                while pung < 2:
                    sets = made + start + pung
                    if sets > cap_sets:
                        break
                    pair: i64 = 0
                    while pair < 2 - paired:
                        use = owed + start + 3 * pung + 2 * pair
                        if use > cap:
                            break
                        cost = spent
                        if use > have:  # (not a conditional expression: its 0 boxes)
                            cost += use - have
                        after = (state >> 2 & 3) | start << 2 | sets << 4 | (paired + pair) << 7
                        was = ahead[after]
                        if cost < was:
                            if was == FAR:
                                reached = append(reached, after)
                            ahead[after] = cost
                            if masks:  # a first way to it: what was there is stale
                                ahead_lacks[after] = lack | bit if use > have else lack
                                ahead_spares[after] = spare | bit if use < have else spare
                        elif cost == was and masks:
                            ahead_lacks[after] |= lack | bit if use > have else lack
                            ahead_spares[after] |= spare | bit if use < have else spare
                        pair += 1
                    pung += 1
                start += 1
        for state in states:
            costs[state] = FAR
        states = reached
        costs, ahead = ahead, costs
        lacks, ahead_lacks = ahead_lacks, lacks
        spares, ahead_spares = ahead_spares, spares
    out = [FAR] * 10
    lower = [0] * 10
    keep = [0] * 10
    for state in states:
        spent = costs[state]
        index = 2 * (state >> 4 & 7) + (state >> 7)
        if spent < out[index]:
            out[index] = spent
            lower[index] = lacks[state]
            keep[index] = spares[state]
        elif spent == out[index]:
            lower[index] |= lacks[state]
            keep[index] |= spares[state]
    return tuple(out), tuple(lower), tuple(keep)
