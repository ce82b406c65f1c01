"""Expected score (RULES.md §8): the solo model ``solo-v1``, solved by expectimax.

A 13-tile hand ``h`` draws from the tiles it has not seen: a kind ``x`` has
``r_x(h) = unseen_x - h_x`` copies left (``unseen`` counts the wall as the model starts it, the
discard under evaluation and ``visible`` already out), and a tile discarded later goes back,
so the wall's size ``S`` never changes and every step is a proper probability. A turn with
``t`` draws left: the three others discard (each a winning tile ``x`` with chance
``q * r_x / S``: win or let it pass), then, if ``t > 0``, the player draws (win or discard
any tile, leaving ``t - 1``). The value of a hand is what the best play gets under the
objective, carried as four figures of that one play: the chances of winning by self-draw and
by discard, the expected score, and the chance of being ready (or won) at the end.

The hands searched form a graph with the draws left as its layers, solved from the last draw
back: ``exhaustive`` when a count made beforehand shows that every hand within reach fits the
budget and ``WHOLE`` (every draw and discard tried: the exact optimum of the model), else
``bounded``: the draws that bring the hand closer to a win, the discards that keep it as
close, and, from the hand under evaluation, one step off them (a draw that does not help and a
discard that keeps the distance: a change of shape or wait; and passing a win for another
wait), unless the hand is itself a step off (``step_off``: analysis.py). Every other draw is
discarded again, which leaves the hand as it was. The bounded figures are those of a play the
model allows, so they never exceed the exhaustive optimum. Hands whose figures are surely the
same at every draw (their draws alike, and where they lead) are solved once (``_alike``).

A hand's distance to a win (analysis.py: shanten + 1), the draws that lower it and the
discards that keep it are read from per-suit tables (``distance.moves``: each suit's
distances, and the kinds its cheapest ways lack or leave spare), combined across suits with
those masks.
"""

from __future__ import annotations

from collections.abc import Callable
from math import comb, floor
from typing import Final, Literal, TypeAlias

from librt.vecs import append, extend, vec
from mypy_extensions import i32, i64, u8

from ..errors import ScoringError
from ..memo import Memo
from ..rules import tiles as t
from ..rules.hand import Hand, Meld, Rules, Value, Win
from ..rules.patterns import table_for
from ..scoring.scoring import best_score
from .distance import (
    FAR,
    SUIT,
    TABLE,
    WHOLE_SUITS,
    Index,
    Room,
    blank,
    most_sets,
    moves,
    packed_distances,
    packed_neighbours,
    suit_counts,
)

Objective = Literal["expected_score", "win_probability"]
Limited = Literal["too_far", "budget"]

MAX_SHANTEN: Final = 3  # farther hands get no figures (API.md): ``too_far``
OTHERS: Final = 3  # the other players' discards in a turn
WHOLE: Final = 20_000  # the most hands a whole search may reach (``fits_whole``)

# A hand's concealed tiles as one int: each suit's counts in base 5 (the analysis' suit
# digits) at its own 21 bits.
_SHIFT: Final = 21
_DIGITS: Final = (1 << _SHIFT) - 1
_HALF: Final = (1 << 2 * _SHIFT) - 1  # two suits' digits
_POW5: Final[tuple[int, ...]] = tuple(5 ** (tile % 9) for tile in range(t.KINDS))
_UNIT: Final[tuple[int, ...]] = tuple(
    _POW5[tile] << _SHIFT * (tile // 9) for tile in range(t.KINDS)
)
# The same as two machine words (``words``): characters and circles low, bamboo and honours
# high; a tile's count in the word that holds its suit.
_LOW_UNIT: Final = vec[i64]([unit & _HALF for unit in _UNIT])
_HIGH_UNIT: Final = vec[i64]([unit >> 2 * _SHIFT for unit in _UNIT])
_ORPHAN_MASK: Final = sum(1 << tile for tile in t.ORPHANS)


# Plain classes (``hand.Value``), not dataclasses: compiled, a frozen dataclass is built by
# its interpreted ``__init__`` (~3,000 instructions, ~10,000 for ``Figures``), a plain class
# by one native call; a request builds a few of each per discard.
class Model(Value):
    """What the request asks of the model (API.md ``expect``) and the search's budget."""

    FIELDS = ("draws_left", "discard_rate", "objective", "budget")

    def __init__(
        self,
        draws_left: int = 17,
        discard_rate: float = 0.0,
        objective: Objective = "expected_score",
        budget: int = 50_000,  # ZJ_EXPECT_STATES's default; the engine sets the server's
    ) -> None:
        self.draws_left: Final = draws_left
        self.discard_rate: Final = discard_rate
        self.objective: Final = objective
        self.budget: Final = budget

    def within(self, budget: int) -> Model:
        """The same question with ``budget`` states to answer it."""
        return Model(self.draws_left, self.discard_rate, self.objective, budget)


class Figures(Value):
    """The figures of one play (API.md ``expected``)."""

    FIELDS = (
        "win_probability", "ready_probability", "expected_score", "score_if_win", "self_draw",
        "discard",
    )  # fmt: skip

    def __init__(
        self,
        win_probability: float,
        ready_probability: float,
        expected_score: float,
        score_if_win: float | None,
        self_draw: float,
        discard: float,
    ) -> None:
        self.win_probability: Final = win_probability
        self.ready_probability: Final = ready_probability
        self.expected_score: Final = expected_score
        self.score_if_win: Final = score_if_win
        self.self_draw: Final = self_draw
        self.discard: Final = discard


class Search(Value):
    """How one evaluation went: the hands searched, whether every play was tried, and why
    there are no figures (``limited``) when there are none."""

    FIELDS = ("states", "exhaustive", "limited")

    def __init__(self, states: int, exhaustive: bool, limited: Limited | None = None) -> None:
        self.states: Final = states
        self.exhaustive: Final = exhaustive
        self.limited: Final = limited


def shown(value: float) -> float:
    """A figure as the API shows it: ``round(value, 4)``, the same float, without the decimal
    conversion ``round`` makes (~2,500 instructions; a request shows six figures a discard).

    ``value * 10**4`` is within half an ulp of the exact product, so where its fraction is
    not near one half (nor the product past 2^40, where ulps near a thousandth) its nearest
    integer ``n`` is the exact product's, the decimal ``round`` finds; and ``n / 10**4``, a
    correctly rounded quotient, is the float nearest that decimal, which ``round`` parses
    back. A zero is itself, its sign kept as ``round`` keeps it (with no discard won on, a
    discard's chance of winning by one is zero). Anything else is left to ``round``."""
    if value == 0.0:
        return value
    scaled = value * 10_000.0
    if -_SHOWN_MOST < scaled < _SHOWN_MOST:
        whole = floor(scaled)
        part = scaled - whole
        if part < 0.499 or part > 0.501:
            if part > 0.5:
                whole += 1
            if whole != 0:
                return whole / 10_000.0
    return round(value, 4)


_SHOWN_MOST: Final = float(1 << 40)


# --- A hand's distance, the draws that lower it, the discards that keep it -------------------


# A part of a hand's moves (a suit's, or two joined), as one unboxed vector of native ints:
# at ``COST + i`` the distance at index i (2 * sets + pair, as ``distance.suit_distances``), at
# ``LOWER + i`` and ``KEEP + i`` the masks of the tiles whose draw lowers it and whose discard
# keeps it. Joins read and write them a few hundred times a request: unboxed, no int is made.
# At ``LOOSE``, a bit for each index whose distance is a lower bound only, its masks unsure
# (``_melded_moves``): a hand read at it is counted again (``Outlook.read``).
# From ``FORMS`` on, what the irregular forms read of a suit the melds leave whole
# (``_suit_forms``), and of two joined (summed): a hand's read takes them from its two pairs,
# unboxed as well.
Moves: TypeAlias = "vec[i64]"
COST: Final = 0
LOWER: Final = 10
KEEP: Final = 20
LOOSE: Final = 30
FORMS: Final = 31
_NO_MOVES: Final = vec[i64]([FAR] * 10 + [0] * 27)
# A suit's counted moves are kept beside its read ones in ``_SUIT_MOVES``, this far above
# every suit key (``distance._CAPPED`` times the melds, under 2^46).
_COUNTED: Final = 1 << 50


def _suit_moves(key: int, room: list[int]) -> Moves:
    """One suit's moves: read from its neighbours' entries in the table (a tile more or less;
    ``_melded_moves`` for a suit beside the melds); counted in one pass (``distance.moves``)
    where the table does not reach (a suit of 14 tiles and more)."""
    number = _SUIT_MOVES.number(key)
    if number >= 0:
        return _SUIT_MOVES.moves[number]
    made: Moves | None = None
    if TABLE:
        made = _tabled_moves(key) if key < WHOLE_SUITS else _melded_moves(key, room)
    if made is None:
        made = _counted_moves(key, room)
    if key < WHOLE_SUITS:
        _suit_forms(made, key)
    return _SUIT_MOVES.put(key, made)


def _counted_moves(key: int, room: list[int]) -> Moves:
    """One suit's moves counted in one pass (``distance.moves``), with the room the melds
    leave it and the sets they leave to make."""
    base, counts = suit_counts(key)
    now, lower, keep = moves(
        counts, room[base : base + len(counts)], base < 27, most=most_sets(key)
    )
    made = _NO_MOVES[:]
    for index in range(10):
        made[COST + index] = now[index]
        made[LOWER + index] = lower[index] << base
        made[KEEP + index] = keep[index] << base
    return made


def _exact_moves(key: int, room: list[int]) -> Moves:
    """One suit's moves, exact at every index: read (``_suit_moves``) unless a read index is
    loose, counted then (kept beside the read ones)."""
    found = _suit_moves(key, room)
    if not found[LOOSE]:
        return found
    number = _SUIT_MOVES.number(key + _COUNTED)
    if number >= 0:
        return _SUIT_MOVES.moves[number]
    return _SUIT_MOVES.put(key + _COUNTED, _counted_moves(key, room))


def _tabled_moves(key: int) -> Moves | None:
    """A suit the melds leave whole: its moves from its neighbours' entries in the table, a
    tile more or less (``packed_neighbours``: read and compared in native ints); None when
    a tile more passes the table's ``TABLED`` tiles (``_suit_moves`` counts it then).

    A tile more never makes a distance longer, nor a tile less shorter (a way to it still
    serves, the tile unused or added), so a neighbour's entry less the suit's (or the suit's
    less its) holds each distance's change in its 4 bits, no borrow between them: one
    subtraction compares the ten."""
    suit: i64 = key // SUIT
    places: i64 = 9 if suit < 3 else 7
    packed = packed_neighbours(key % SUIT, places)
    if not len(packed):
        return None
    now = packed[0]
    made = _NO_MOVES[:]
    index: i64 = 0
    while index < 10:
        cost = now >> 4 * index & 15
        made[COST + index] = FAR if cost == 15 else cost
        index += 1
    far = now & now >> 1 & now >> 2 & now >> 3 & _NIBBLES  # a bit in each FAR's (15) 4 bits
    bit = t.bit(9 * suit)
    place: i64 = 0
    while place < places:
        more = packed[1 + 2 * place]
        if more >= 0:
            nearer = now - more
            index = 0
            while index < 10:
                if nearer >> 4 * index & 15:
                    made[LOWER + index] |= bit
                index += 1
        less = packed[2 + 2 * place]
        if less >= 0:
            farther = less - now | far  # (no discard keeps a distance that is FAR)
            index = 0
            while index < 10:
                if not farther >> 4 * index & 15:
                    made[KEEP + index] |= bit
                index += 1
        bit <<= 1
        place += 1
    return made


_NIBBLES: Final = 0x1111111111  # the lowest bit of each of the ten distances' 4 bits


def _melded_moves(key: int, room: list[int]) -> Moves | None:
    """A suit beside the melds: its moves as if they left it whole (``_tabled_moves``), at
    each index a hand reads it at (its sets at most ``most_sets``); loose (``LOOSE``) where
    the room they leave may bind a cheapest way; None past the table (``_suit_moves`` counts
    it then).

    Fewer ways than the whole suit's, the same cheapest ones unless one of them uses more of a
    kind than its room: then the distance may be more, or the masks fewer (the whole suit's
    distance is a lower bound). A cheapest way uses ``j`` more of a kind than held exactly when
    the suit with ``j`` more of it is ``j`` nearer (each tile added saves at most one), so one
    entry of the table a kind past its room tells it."""
    suit: i64 = key // SUIT % 4
    digits: i64 = key % SUIT
    places: i64 = 9 if suit < 3 else 7
    now = packed_distances(digits, places)
    if now < 0:
        return None
    read: i64 = 2 * most_sets(key) + 2  # the indexes a hand reads
    loose: i64 = 0
    rest = digits
    place: i64 = 0
    while place < places:
        count = rest % 5
        rest //= 5
        free: i64 = room[9 * suit + place]
        if free < 4:
            over = free - count + 1  # the copies that would pass the room
            more = packed_distances(digits + over * _POWERS[place], places)
            if more < 0:
                return None
            index: i64 = 0
            while index < read:
                cost = now >> 4 * index & 15
                if cost < 15 and (more >> 4 * index & 15) + over == cost:
                    loose |= 1 << index
                index += 1
        place += 1
    made = _tabled_moves(suit * SUIT + digits)
    if made is None:
        return None
    made[LOOSE] = loose
    index = read
    while index < 10:  # more sets than the melds leave: none (as ``moves``' ``most``)
        made[COST + index] = FAR
        made[LOWER + index] = 0
        made[KEEP + index] = 0
        index += 1
    return made


class _KeptMoves:
    """Suits' moves by key, at most ``size``: ``memo.Memo``'s policy (emptied when full), the
    keys numbered by an ``Index`` (a key read as a native word: no int boxed, no dict probed,
    where a request looks up a few hundred suits)."""

    __slots__ = ("index", "moves", "size")

    def __init__(self, size: int) -> None:
        self.size: Final = size
        self.index = Index()
        self.moves: list[Moves] = []

    def number(self, key: i64) -> i64:
        """The key's number in ``moves``, -1 when it has none."""
        return self.index.get(key, 0)

    def put(self, key: i64, made: Moves) -> Moves:
        """A key not kept (``number`` -1), kept."""
        if len(self.moves) >= self.size:
            self.cache_clear()
        index = self.index
        index.put(index.find(key, 0)[0], key, 0, len(self.moves))
        self.moves.append(made)
        return made

    def __len__(self) -> int:
        """The suits kept (as a benchmark reports a cache's size)."""
        return len(self.moves)

    def cache_clear(self) -> None:
        """As ``functools`` caches have it, so that benchmarks can start cold."""
        self.index = Index()
        self.moves = []


# Suits met by searches, with their masks: ~300 bytes an entry; bounded as every table keyed
# by client input is (memo.py).
_SUIT_MOVES: Final = _KeptMoves(50_000)


def _joined(a: Moves, b: Moves, top: i64) -> Moves:
    """Two parts' moves as one: the cheapest split at each index up to ``top``, the masks of
    every split that costs that (a tile helps the whole if it helps a part of some cheapest
    split); loose where a cheapest split is (``LOOSE``: a lower bound, the true split may cost
    more). Above ``top`` (the whole hand's index: its sets beside the melds, and the pair)
    nothing is read: FAR, no masks (beside two melds, 21 splits counted of 55).

    Index by index, a split's figures kept in locals and written once: a join's reads and
    writes of the vectors, each bounds-checked, were most of its cost (a fifth fewer
    instructions than split by split)."""
    made = _NO_MOVES[:]
    loose_a = a[LOOSE]
    loose_b = b[LOOSE]
    loose: i64 = 0
    index: i64 = 0
    while index < 10:  # (not to ``top``: with ten turns the C compiler unrolls the loop)
        if index > top:
            break
        cheapest: i64 = FAR
        lower: i64 = 0
        keep: i64 = 0
        bit: i64 = 0
        index_a: i64 = 0  # (counted by hand, as native ints that index the vectors unconverted)
        while index_a <= index:
            index_b = index - index_a
            if not index_a & index_b & 1:  # one pair only
                total = a[COST + index_a] + b[COST + index_b]
                if total < cheapest:
                    cheapest = total
                    lower = a[LOWER + index_a] | b[LOWER + index_b]
                    keep = a[KEEP + index_a] | b[KEEP + index_b]
                    bit = (loose_a >> index_a | loose_b >> index_b) & 1
                elif total == cheapest and total < FAR:
                    lower |= a[LOWER + index_a] | b[LOWER + index_b]
                    keep |= a[KEEP + index_a] | b[KEEP + index_b]
                    bit |= (loose_a >> index_a | loose_b >> index_b) & 1
            index_a += 1
        if cheapest < FAR:
            made[COST + index] = cheapest
            made[LOWER + index] = lower
            made[KEEP + index] = keep
            loose |= bit << index
        index += 1
    made[LOOSE] = loose
    return made


class Outlook(Room[Moves]):
    """One request's hands as the search reads them: the forms they win in beside the melds
    (``Room``), each hand's moves and each win's score, kept while the request is answered
    (its evaluations meet the same hands).

    A hand is kept as two machine words (``words``), its moves as a row of three unboxed
    vectors (``distances``, ``lowers``, ``keeps``; the first ``rows`` places of each) that
    ``known`` numbers, a win's score in ``won`` as ``scores`` numbers it: no tuple, big int or
    dict entry a hand."""

    __slots__ = (
        "discard",
        "distances",
        "keeps",
        "known",
        "lowers",
        "melds",
        "offsets",
        "rows",
        "rules",
        "scores",
        "self_draw",
        "winner",
        "won",
    )

    def __init__(self, hand: Hand, melds: tuple[Meld, ...], seat: str, rules: Rules) -> None:
        super().__init__(melds, table_for(rules).wins)
        self.known = Index()
        self.rows: i64 = 0
        self.distances = _ZEROS[:]
        self.lowers = _ZEROS[:]
        self.keeps = _ZEROS[:]
        self.scores = Index()  # by the hand, and the winning tile and the way with its high word
        self.won = vec[float]()
        # Each suit's key less its counts (``distance.Room.keys``), as native ints.
        self.offsets = vec[i64]([self.melded[suit] + suit * SUIT for suit in range(4)])
        self.winner = hand
        self.melds = melds
        self.rules = rules
        # A win's context: the seat, none of the incidental patterns (RULES.md §8).
        self.self_draw = Win(by="self_draw", seat=seat)
        self.discard = Win(by="discard", seat=seat, discarder="S" if seat == "E" else "E")

    def kept(self) -> int:
        """The hands and wins kept."""
        return self.known.size + self.scores.size

    def score(self, low: i64, high: i64, tile: i64, self_drawn: bool) -> float:
        """What the 14 tiles ``low``, ``high`` score won on ``tile``; -1 when it is no win
        (below the minimum, or a form the rules do not keep).

        Self-drawn, the tiles score the same whatever tile won them (the winning tile tells
        which set a discard completed, and no pattern reads it on a self-draw) but Nine
        Gates, whose 13 tiles before the winning one are the gates: so their score is kept
        once, under tile 0, unless the hand is one numbered suit without melds."""
        way: i64 = 1 if self_drawn else 0
        named = tile
        if self_drawn and (self.melds or not _one_suit(low, high)):
            named = 0
        key = (high * t.KINDS + named) * 2 + way
        scores = self.scores
        at, number = scores.find(low, key)
        if number >= 0:
            return self.won[number]
        winner = self.winner
        won = Hand(_counted(low, high), winner.melds, tile, winner.flowers, winner.seasons)
        win = self.self_draw if self_drawn else self.discard
        try:
            value = float(best_score(won, self.melds, win, self.rules).score)
        except ScoringError:
            value = -1.0
        scores.put(at, low, key, len(self.won))
        self.won = append(self.won, value)
        return value

    def join(self, low: int, high: int) -> Moves:
        """Two suits' moves as one part's (``Room.pair`` keeps them), with what the irregular
        forms read of them when the rules keep any."""
        low_moves = _suit_moves(low, self.room)
        high_moves = _suit_moves(high, self.room)
        made = _joined(low_moves, high_moves, 2 * self.sets + 1)
        if self.seven_pairs or self.thirteen_terminals:  # only without melds: keys are whole
            _add_forms(made, low_moves, high_moves)
        return made

    def moves(self, counts: list[int]) -> tuple[int, int, int]:
        """The distance and masks of the hand of these tile counts, as ``read`` finds them."""
        low, high = words(counts)
        row = self.row(low, high)
        return self.distances[row], self.lowers[row], self.keeps[row]

    def row(self, low: i64, high: i64) -> i64:
        """The row of the hand's moves (read once a request)."""
        known = self.known
        at, row = known.find(low, high)
        if row < 0:
            row = self.rows
            self.read(low, high)
            known.put(at, low, high, row)
        return row

    def read(self, low: i64, high: i64) -> None:
        """Appends a row: the hand's distance to a win (0: it wins; shanten + 1), the tiles
        whose draw lowers it and the tiles whose discard keeps it, as masks. (In native ints
        throughout: the regular form as ``_joined`` at the whole hand's index, then the
        irregular forms beside it, the nearer form's masks, or both where they are as near.)"""
        offsets = self.offsets
        key_0: i64 = (low & _DIGITS) + offsets[0]
        key_1: i64 = (low >> _SHIFT) + offsets[1]
        key_2: i64 = (high & _DIGITS) + offsets[2]
        key_3: i64 = (high >> _SHIFT) + offsets[3]
        first = self.pair(key_0, key_1)
        second = self.pair(key_2, key_3)
        index: i64 = 2 * self.sets + 1
        distance, lower, keep, loose = _regular(first, second, index)
        if loose:  # a cheapest split may cost more than read: each pair exact (only with melds)
            room = self.room
            if first[LOOSE]:
                first = _joined(_exact_moves(key_0, room), _exact_moves(key_1, room), index)
            if second[LOOSE]:
                second = _joined(_exact_moves(key_2, room), _exact_moves(key_3, room), index)
            distance, lower, keep, loose = _regular(first, second, index)
        if self.seven_pairs:
            other = 7 - first[FORMS] - second[FORMS]
            if other <= distance:
                odd = first[FORMS + 1] | second[FORMS + 1]
                if other < distance:
                    distance = other
                    lower = keep = 0
                lower |= odd
                keep |= odd
        if self.thirteen_terminals:
            held = first[FORMS + 2] | second[FORMS + 2]
            paired = first[FORMS + 3] | second[FORMS + 3]
            other = 14 - t.bit_count(held)
            if paired:
                other -= 1
            if other <= distance:
                other_lower, other_keep = _thirteen_terminals(
                    held,
                    paired,
                    first[FORMS + 4] | second[FORMS + 4],
                    first[FORMS + 5] | second[FORMS + 5],
                )
                if other < distance:
                    distance = other
                    lower = keep = 0
                lower |= other_lower
                keep |= other_keep
        row = self.rows
        if row == len(self.distances):
            self.distances = extend(self.distances, self.distances)  # (its copies overwritten)
            self.lowers = extend(self.lowers, self.lowers)
            self.keeps = extend(self.keeps, self.keeps)
        self.distances[row] = distance
        self.lowers[row] = lower
        self.keeps[row] = keep
        self.rows = row + 1


def _add_forms(made: Moves, a: Moves, b: Moves) -> None:
    """Two suits' forms (``_suit_forms``) as their join's: the pairs summed, the masks OR'd."""
    made[FORMS] = a[FORMS] + b[FORMS]
    place: i64 = FORMS + 1
    while place < FORMS + 6:
        made[place] = a[place] | b[place]
        place += 1


def _regular(first: Moves, second: Moves, index: i64) -> tuple[i64, i64, i64, i64]:
    """The regular form's distance at ``index`` from two pairs' moves, its masks, and whether
    a cheapest split is loose (1: its figures may be lower than the hand's)."""
    distance: i64 = FAR
    lower: i64 = 0
    keep: i64 = 0
    loose: i64 = 0
    loose_first = first[LOOSE]
    loose_second = second[LOOSE]
    index_a: i64 = 0
    while index_a < 10:  # (not to ``index``: with ten turns the C compiler unrolls the loop)
        if index_a > index:
            break
        index_b = index - index_a
        if not index_a & index_b & 1:  # one pair only
            total = first[COST + index_a] + second[COST + index_b]
            if total < distance:
                distance = total
                lower = first[LOWER + index_a] | second[LOWER + index_b]
                keep = first[KEEP + index_a] | second[KEEP + index_b]
                loose = (loose_first >> index_a | loose_second >> index_b) & 1
            elif total == distance and total < FAR:
                lower |= first[LOWER + index_a] | second[LOWER + index_b]
                keep |= first[KEEP + index_a] | second[KEEP + index_b]
                loose |= (loose_first >> index_a | loose_second >> index_b) & 1
        index_a += 1
    return distance, lower, keep, loose


class Outlooks:
    """The outlook of one seat's analyses kept across a request (a review's decisions): its
    hands' moves and its wins' scores met again from one decision to the next, where the melds,
    bonus tiles and seat are the same. At most ``cap`` hands and wins are kept, as one search's
    budget bounds its own: past that the next analysis starts afresh, so a long record never
    holds more."""

    __slots__ = ("cap", "kept", "key")

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.kept: Outlook | None = None
        self.key: tuple[object, ...] = ()

    def get(self, hand: Hand, melds: tuple[Meld, ...], seat: str, rules: Rules) -> Outlook:
        """An outlook for ``hand`` (its melds, bonus tiles and seat): the kept one if it fits."""
        key = (melds, hand.flowers, hand.seasons, seat, id(rules))
        kept = self.kept
        if kept is None or key != self.key or kept.kept() > self.cap:
            kept = self.kept = Outlook(hand, melds, seat, rules)
            self.key = key
        return kept


def _suit_forms(made: Moves, key: int) -> None:
    """What the irregular forms read of one whole suit, into its moves from ``FORMS``: its
    pairs (four alike are two), and as masks its kinds held an odd number of times, its
    terminals and honours held, held twice or more, held three times or more, and its other
    kinds held."""
    digits: i64 = key % SUIT
    bit: i64 = t.bit(9 * (key // SUIT))
    orphans: i64 = _ORPHAN_MASK
    pairs: i64 = 0
    odd: i64 = 0
    held: i64 = 0
    paired: i64 = 0
    triples: i64 = 0
    plain: i64 = 0
    while digits:
        count = digits % 5
        pairs += count // 2
        if count & 1:
            odd |= bit
        if count and bit & orphans:
            held |= bit
            if count >= 2:
                paired |= bit
            if count >= 3:
                triples |= bit
        elif count:
            plain |= bit
        digits //= 5
        bit <<= 1
    made[FORMS] = pairs
    made[FORMS + 1] = odd
    made[FORMS + 2] = held
    made[FORMS + 3] = paired
    made[FORMS + 4] = triples
    made[FORMS + 5] = plain


def _one_suit(low: i64, high: i64) -> bool:
    """Whether a hand's tiles are all of one numbered suit (no honour)."""
    if high >> _SHIFT:
        return False
    suits: i64 = 0
    if low & _DIGITS:
        suits += 1
    if low >> _SHIFT:
        suits += 1
    if high:
        suits += 1
    return suits == 1


def _thirteen_terminals(held: i64, paired: i64, triples: i64, plain: i64) -> tuple[i64, i64]:
    """Thirteen Terminals' masks (its distance: ``Outlook.read``), from the orphans held (once,
    twice or more, three times or more) and the other kinds held: every other kind is a
    discard that keeps the distance, and so is an orphan's copy beyond the one pair kept."""
    lower = _ORPHAN_MASK & ~held
    if not paired:
        lower |= held
    keep = plain | triples
    if paired & (paired - 1):
        keep |= paired
    return lower, keep


def _counted(low: i64, high: i64) -> t.Held:
    """A hand's tiles counted as a ``Hand`` holds them (``tiles.Held``: each suit's counts at
    ``FACE_BITS`` a face), from its digits in native ints: no tile listed, tallied or boxed."""
    m, kinds_m, size_m = _suit_held(low & _DIGITS, 0)
    p, kinds_p, size_p = _suit_held(low >> _SHIFT, 1)
    s, kinds_s, size_s = _suit_held(high & _DIGITS, 2)
    z, kinds_z, size_z = _suit_held(high >> _SHIFT, 3)
    kinds = kinds_m | kinds_p << 9 | kinds_s << 18 | kinds_z << 27
    return t.Held(m, p, s, z, kinds, size_m + size_p + size_s + size_z)


# A suit's digits read five at a time (a division by 5 a digit, with Python's floor rounding
# checked, cost a hand's tiles ~1,000 instructions a win scored): each number of five base-5
# digits as its faces' counts (``FACE_BITS`` each), the faces it holds at ``_CHUNK_KINDS`` and
# its tiles at ``_CHUNK_SIZE``.
_CHUNK: Final = 5**5
_CHUNK_KINDS: Final = 5 * t.FACE_BITS
_CHUNK_SIZE: Final = _CHUNK_KINDS + 5
_CHUNK_FACES: Final = (1 << _CHUNK_KINDS) - 1
_CHUNKS: Final = vec[i64](
    [
        sum(number // 5**face % 5 << t.FACE_BITS * face for face in range(5))
        | sum(1 << face for face in range(5) if number // 5**face % 5) << _CHUNK_KINDS
        | sum(number // 5**face % 5 for face in range(5)) << _CHUNK_SIZE
        for number in range(_CHUNK)
    ]
)


def _suit_held(digits: i64, suit: i64) -> tuple[i64, i64, i64]:
    """A suit's key in a ``Held``, its faces held as a mask (its 1 the lowest bit) and its
    tiles, from its digits (``_CHUNKS``)."""
    first = _CHUNKS[digits % _CHUNK]
    rest = _CHUNKS[digits // _CHUNK]
    key = suit << t.SUIT_SHIFT | first & _CHUNK_FACES | (rest & _CHUNK_FACES) << 5 * t.FACE_BITS
    kinds = (first >> _CHUNK_KINDS & 31) | (rest >> _CHUNK_KINDS & 31) << 5
    return key, kinds, (first >> _CHUNK_SIZE) + (rest >> _CHUNK_SIZE)


def words(counts: list[int]) -> tuple[i64, i64]:
    """Tile counts as the search keeps a hand: two machine words (``_LOW_UNIT``), summed in
    native ints (as one 84-bit int, each count times its unit was a big int)."""
    low: i64 = 0
    high: i64 = 0
    tile: i64 = 0
    while tile < t.KINDS:
        count: i64 = counts[tile]
        low += count * _LOW_UNIT[tile]
        high += count * _HIGH_UNIT[tile]
        tile += 1
    return low, high


def _held_words(held: t.Held) -> tuple[i64, i64]:
    """A hand's tiles as ``words`` keeps them, from its counts (``tiles.Held``: each suit's
    key, ``FACE_BITS`` a face) in native ints: no tile listed or counted again."""
    m, p, s, z = held.keys
    return (
        _suit_digits(m) | _suit_digits(p) << _SHIFT,
        _suit_digits(s) | _suit_digits(z) << _SHIFT,
    )


def _suit_digits(key: i64) -> i64:
    """A suit's key (``tiles.Held``) as its base-5 digits."""
    counts = key & t.FACES
    digits: i64 = 0
    power: i64 = 1
    while counts:
        digits += (counts & _FACE) * power
        counts >>= t.FACE_BITS
        power *= 5
    return digits


_FACE: Final = (1 << t.FACE_BITS) - 1


def _pool(low: i64, high: i64, unseen: list[int]) -> vec[i64]:
    """Each kind's copies a hand's draws may come from: those it holds and ``unseen``."""
    pool = _ZEROS[: t.KINDS]
    tile: i64 = 0
    while tile < t.KINDS:
        pool[tile] = unseen[tile]
        tile += 1
    _count_into(pool, low, high, 1)
    return pool


def _count_into(counts: vec[i64], low: i64, high: i64, sign: i64) -> None:
    """Adds ``sign`` times the hand's copies of each kind to ``counts``: each suit's digits
    read five at a time (``_suit_held``), where a digit at a time took two divisions."""
    first: i64 = 0  # the suit's 1
    for suit in range(4):
        word = low if suit < 2 else high
        faces, _, _ = _suit_held(word >> _SHIFT * (suit & 1) & _DIGITS, 0)
        tile = first
        while faces:
            counts[tile] += sign * (faces & _FACE)
            faces >>= t.FACE_BITS
            tile += 1
        first += 9


def _bits(mask: i64) -> vec[i64]:
    """The kinds a mask holds, in order (a pass over the 34 bits, in native ints)."""
    found = vec[i64]()
    tile: i64 = 0
    while mask:
        if mask & 1:
            found = append(found, tile)
        mask >>= 1
        tile += 1
    return found


# --- The graph of hands within reach ------------------------------------------------------


class _TooMany(Exception):
    """The hands within reach do not fit the budget."""


Pause = Callable[[], None]  # the server's chance to answer others (operations.py)


class _Graph:
    """The hands a search reaches: 13-tile hands, and the 14-tile hands between them (a
    hand after its draw, and the 13-tile hands its discards leave).

    A 13-tile hand is kept as two machine words (``lows``, ``highs``: ``words``), found by
    the row of its moves in the outlook (``at_row``: its number here; a 14-tile hand's, where
    a draw to it leads; one look-up finds a hand's moves and its place; a whole search finds a
    14-tile hand by its words, ``drawn``, as it reads nothing of it). Its draws are edges,
    kept flat (``tiles``, ``leads``, ``wins``; the hand's from ``starts`` to ``ends``,
    listed one hand after another): the tile; where the draw leads (-1: the only discard
    tried is the drawn tile, which leaves the hand as it was; ``-2 - n``: 14-tile hand ``n``;
    ``h`` >= 0: the drawn hand's only discard, which leaves 13-tile hand ``h``) times 8, plus
    its copies left to draw; and its score won by self-draw (-1: no win). Any draw not
    listed is discarded again. A 14-tile hand's children (the hands its discards leave) are
    kept flat alike; one with a single discard makes no node (but counts in ``states``): the
    solve reads the hand it leaves straight (~2 in 5 of a big bounded search's 14-tile
    hands). A ready hand also lists the discards it wins on, ``(copies left, score)``, when
    the others' discards are won on at all (``offered``). Flat vectors of numbers, where a
    tuple per edge and a list per hand were made, leave the cyclic collector little to walk.

    Each vector has room past what is listed (``hands``, ``edges``, ``nodes``, ``links``: a
    place written, where an append was a call out of the module and a reference counted, ~40
    instructions), doubled when full: the counts, not the vectors' lengths, say what is listed.
    """

    def __init__(self, outlook: Outlook, pool: vec[i64], model: Model) -> None:
        self.outlook = outlook
        self.offered = model.discard_rate > 0  # whether the others' discards are won on
        # Each kind's copies the player's hands may hold or draw (``_pool``): 4 less those in
        # the melds, in ``visible`` and the discard under evaluation; and all of them.
        self.drawable = pool
        self.pooled: i64 = 0
        for tile in range(t.KINDS):
            self.pooled += pool[tile]
        self.budget: i64 = model.budget
        self.at_row = blank(outlook.rows)  # -1: not reached
        self.hands: i64 = 0  # 13-tile hands listed
        self.lows = _ZEROS[:]
        self.highs = _ZEROS[:]
        self.distance = _ZEROS[:]
        self.helps = _ZEROS[:]
        self.starts = _ZEROS[:]
        self.ends = _ZEROS[:]
        # An edge's numbers as narrow as they fit: the solve reads every edge once a draw
        # left, and a big search's (~1M at 50,000 hands) outgrow the caches. A tile fits a
        # byte; where the draw leads and its copies left (at most 4) fit 32 bits together,
        # ``8 * node + left``: a hand's number is under the budget (``ZJ_EXPECT_STATES``, at
        # most 10^7: settings.py). One vector, not two: the solve reads both at each edge.
        self.edges: i64 = 0  # draws listed
        self.tiles = _ZERO_TILES[:]
        self.leads = _ZERO_LEADS[:]
        self.wins = _ZERO_WINS[:]
        # (r_x, score) each, a hand's when ``offered``
        self.discard_wins: list[tuple[tuple[int, float], ...]] = []
        self.nodes: i64 = 0  # 14-tile hands listed
        self.links: i64 = 0  # their children listed
        self.children = _ZEROS[:]
        self.child_ends = _ZEROS[:]  # each 14-tile hand's end in ``children``
        # 13-tile hands in the order reached, each at the fewest draws it takes to reach it:
        # a hand reached with no draw left lists none.
        self.depth = _ZEROS[:]
        self.listed: i64 = 0  # the hands whose draws are listed, in that order
        self.single: i64 = 0  # the 14-tile hands with one discard (made no node)
        # In a bounded search, a ready hand but the root lists its wins alone (``_search_bounded``),
        # so two whose wins are alike (each win's copies left and scores, in order) have the same
        # figures at every draw: the first reached stands for the others, which count as states
        # all the same (the budget and ``states`` as before). None in a whole search.
        self.leaves: Index | None = None
        self.merged: i64 = 0  # the ready hands a hand alike stands for
        # In a whole search, where each draw to a 14-tile hand leads (``after_any_draw``), by
        # the hand's words: as ``at_row`` keeps it for a hand read, this one unread.
        self.drawn: Index | None = None
        # Whether hands alike are solved once (``leaves``, ``_alike``); the tests hold those
        # figures to a graph's solved hand by hand.
        self.alike = True
        self.reaching: i64 = 0  # the depth of the hand whose draws are being listed

    @property
    def states(self) -> int:
        return self.hands + self.nodes + self.single + self.merged

    @property
    def wall(self) -> i64:
        """The tiles the hand searched from does not hold: the wall's size (its concealed
        tiles counted by their digits, ``_CHUNKS``)."""
        low = self.lows[0]
        high = self.highs[0]
        held: i64 = 0
        for suit in range(4):
            word = low if suit < 2 else high
            digits: i64 = word >> _SHIFT * (suit & 1) & _DIGITS
            held += _CHUNKS[digits % _CHUNK] >> _CHUNK_SIZE
            held += _CHUNKS[digits // _CHUNK] >> _CHUNK_SIZE
        return self.pooled - held

    def draw(self, number: i64, tile: i64, left: i64, node: i64, won: float) -> None:
        """Lists a draw of hand ``number`` (its draws are listed one after another)."""
        edge = self.edges
        if self.ends[number] == 0:
            self.starts[number] = edge
        assert self.ends[number] in (0, edge), "a hand's draws are listed together"
        if edge == len(self.tiles):
            self.tiles = extend(self.tiles, self.tiles)  # (its copies overwritten)
            self.leads = extend(self.leads, self.leads)
            self.wins = extend(self.wins, self.wins)
        self.tiles[edge] = u8(tile)
        self.leads[edge] = i32(8 * node + left)
        self.wins[edge] = won
        self.edges = edge + 1
        self.ends[number] = edge + 1

    def _grow(self) -> None:
        """One hand more, within the budget (so ``states`` never exceeds it). (Its sum spelled
        out: through the property, 0.2-0.4% more instructions a request.)"""
        if self.hands + self.nodes + self.single + self.merged >= self.budget:
            raise _TooMany

    def lefts(self, low: i64, high: i64) -> vec[i64]:
        """The copies of each kind the hand may still draw: r_x(h)."""
        left = self.drawable[:]
        _count_into(left, low, high, -1)
        return left

    def next(self, draws_left: i64) -> i64:
        """The next hand whose draws are to be listed, -1 when none is left."""
        while self.listed < self.hands:
            number = self.listed
            self.listed += 1
            if self.depth[number] < draws_left:
                self.reaching = self.depth[number]
                return number
        return -1

    def _at(self, row: i64) -> i64:
        """The number of the hand whose moves are at ``row``, -1 when it is not reached."""
        size = len(self.at_row)
        if row < size:
            return self.at_row[row]
        # A row read since the graph began: room for as many more (-1s, not reached).
        self.at_row = extend(self.at_row, blank(row + 1 if row + 1 > size else size))
        return -1

    def hand(self, low: i64, high: i64) -> i64:
        """The number of a 13-tile hand (a new one is listed after those before it)."""
        outlook = self.outlook
        row = outlook.row(low, high)
        found = self._at(row)
        if found >= 0:
            return found
        self._grow()
        distance = outlook.distances[row]
        helps = outlook.lowers[row]
        number = self.hands
        leaves = self.leaves
        if leaves is not None and distance == 1 and number:
            first, second = self._wins(low, high, helps)
            if first >= 0:
                at, alike = leaves.find(first, second)
                if alike >= 0:
                    self.merged += 1
                    self.at_row[row] = alike
                    return alike
                leaves.put(at, first, second, number)
        self.at_row[row] = number
        if number == len(self.lows):
            self.lows = extend(self.lows, self.lows)  # (its copies overwritten)
            self.highs = extend(self.highs, self.highs)
            self.distance = extend(self.distance, self.distance)
            self.helps = extend(self.helps, self.helps)
            self.starts = extend(self.starts, self.starts)
            self.ends = extend(self.ends, self.ends)
            self.depth = extend(self.depth, self.depth)
        self.lows[number] = low
        self.highs[number] = high
        self.distance[number] = distance
        self.helps[number] = helps
        self.starts[number] = 0
        self.ends[number] = 0
        self.depth[number] = self.reaching + 1 if number else 0
        self.hands = number + 1
        if self.offered:  # (else none listed: no list made a hand)
            wins: list[tuple[int, float]] = []
            if distance == 1:
                lefts = self.lefts(low, high)
                for tile in _bits(helps):
                    if lefts[tile] > 0:
                        won = outlook.score(
                            low + _LOW_UNIT[tile], high + _HIGH_UNIT[tile], tile, False
                        )
                        if won >= 0:
                            wins.append((lefts[tile], won))
            self.discard_wins.append(tuple(wins) if wins else ())
        return number

    def _wins(self, low: i64, high: i64, helps: i64) -> tuple[i64, i64]:
        """A ready hand's wins as ``leaves`` keys them: in order, each winning kind's copies
        left (3 bits) and its scores plus one by self-draw and by discard (10 bits each: 0, no
        win; the discard's 0 where the others' discards are not won on), two wins a word and
        their number at ``_WINS_AT``; (-1, -1) past four wins or a score of 1,023 (no hand alike
        is looked for)."""
        outlook = self.outlook
        first: i64 = 0
        second: i64 = 0
        count: i64 = 0
        tile: i64 = 0
        while helps:
            if helps & 1:
                left = self.drawable[tile] - _copies(low, high, tile)
                if left > 0:
                    if count == 4:
                        return -1, -1
                    drawn_low = low + _LOW_UNIT[tile]
                    drawn_high = high + _HIGH_UNIT[tile]
                    won = outlook.score(drawn_low, drawn_high, tile, True) + 1.0
                    offered = 0.0
                    if self.offered:
                        offered = outlook.score(drawn_low, drawn_high, tile, False) + 1.0
                    if won >= 1023.0 or offered >= 1023.0:
                        return -1, -1
                    win = left | i64(won) << 3 | i64(offered) << 13
                    if count < 2:
                        first |= win << 23 * count
                    else:
                        second |= win << 23 * (count - 2)
                    count += 1
            helps >>= 1
            tile += 1
        return first | count << _WINS_AT, second

    def after_draw(self, low: i64, high: i64, row: i64, discards: i64) -> i64:
        """Where a draw to a 14-tile hand (its moves at ``row``) leads: ``-2 - n``, the hand
        listed as node ``n`` with the hands its ``discards`` (a mask) leave; or, when it has a
        single discard, the hand it leaves."""
        found = self._at(row)
        if found != -1:
            return found
        lead = self._lead(low, high, discards)
        self.at_row[row] = lead
        return lead

    def after_any_draw(self, low: i64, high: i64, discards: i64) -> i64:
        """As ``after_draw``, in a whole search: the 14-tile hand found by its words, not read
        (a whole search tries every discard: nothing of its moves is asked, where its read was
        a quarter of a small whole search's instructions). Kept as ``lead + _LEADS``: an
        ``Index`` keeps numbers from 0."""
        drawn = self.drawn
        assert drawn is not None
        at, found = drawn.find(low, high)
        if found >= 0:
            return found - _LEADS
        lead = self._lead(low, high, discards)
        drawn.put(at, low, high, lead + _LEADS)  # (listing it puts nothing in ``drawn``)
        return lead

    def _lead(self, low: i64, high: i64, discards: i64) -> i64:
        """A 14-tile hand not met before, listed (``after_draw``)."""
        self._grow()
        if discards and not discards & (discards - 1):
            self.single += 1  # (before its hand is listed, as a node is: the same budget)
            tile: i64 = 0
            while not discards >> tile & 1:
                tile += 1
            return self.hand(low - _LOW_UNIT[tile], high - _HIGH_UNIT[tile])
        number = self.nodes
        if number == len(self.child_ends):
            self.child_ends = extend(self.child_ends, self.child_ends)
        self.child_ends[number] = 0
        self.nodes = number + 1
        tile = 0
        while discards:
            if discards & 1:
                child = self.hand(low - _LOW_UNIT[tile], high - _HIGH_UNIT[tile])
                link = self.links  # (after ``hand``, which lists no children)
                if link == len(self.children):
                    self.children = extend(self.children, self.children)
                self.children[link] = child
                self.links = link + 1
            discards >>= 1
            tile += 1
        self.child_ends[number] = self.links
        return -2 - number


# Above every lead (``_Graph.after_any_draw``): a node's is -2 - n, n under the budget (at most
# 10^7, settings.py).
_LEADS: Final = 1 << 40
_POWERS: Final = vec[i64]([5**place for place in range(9)])
# A new graph's or outlook's room in each vector (``_Graph``), copied from these (one memcpy,
# where a vector made from a list costs ~13 instructions a place).
_ROOM: Final = 64
_ZEROS: Final = vec[i64]([0] * _ROOM)
_ZERO_TILES: Final = vec[u8]([0] * _ROOM)
_ZERO_LEADS: Final = vec[i32]([0] * _ROOM)
_ZERO_WINS: Final = vec[float]([0.0] * _ROOM)
_WINS_AT: Final = 46  # where ``_Graph._wins`` keeps the number of wins


def _zeros(size: i64) -> vec[float]:
    """A vector of ``size`` zeros, sliced from one kept (as ``distance.blank``: one memcpy,
    where a vector made from a list costs ~13 instructions a place)."""
    zeros = _FLOAT_ZEROS[0]
    if len(zeros) < size:
        zeros = vec[float]([0.0] * size)
        _FLOAT_ZEROS[0] = zeros
    return zeros[:size]


# Made anew when a solve outgrows it, so it holds the figures of the largest graph solved,
# which the budget of states bounds (1.6 MB at the default 50,000), as ``distance.blank``'s.
_FLOAT_ZEROS: Final = [_ZERO_WINS]


def _copies(low: i64, high: i64, tile: i64) -> i64:
    """The hand's copies of ``tile``."""
    word = low if tile < 18 else high
    return (word >> _SHIFT * (tile // 9 & 1) & _DIGITS) // _POWERS[tile % 9] % 5


def _held(low: i64, high: i64) -> i64:
    """The mask of the kinds a hand holds (``_CHUNKS``)."""
    held: i64 = 0
    for suit in range(4):
        word = low if suit < 2 else high
        digits: i64 = word >> _SHIFT * (suit & 1) & _DIGITS
        first = _CHUNKS[digits % _CHUNK] >> _CHUNK_KINDS & 31
        rest = _CHUNKS[digits // _CHUNK] >> _CHUNK_KINDS & 31
        held |= (first | rest << 5) << 9 * suit
    return held


def _search_all(
    graph: _Graph, root_low: i64, root_high: i64, draws_left: i64, pause: Pause | None
) -> None:
    """Every draw, every discard, from every hand within reach."""
    graph.drawn = Index()
    graph.hand(root_low, root_high)
    outlook = graph.outlook
    while (number := graph.next(draws_left)) >= 0:
        low = graph.lows[number]
        high = graph.highs[number]
        ready = graph.distance[number] == 1
        helps = graph.helps[number]
        held = _held(low, high)
        lefts = graph.lefts(low, high)
        tile: i64 = 0
        while tile < t.KINDS:
            left = lefts[tile]
            if left > 0:
                drawn_low = low + _LOW_UNIT[tile]
                drawn_high = high + _HIGH_UNIT[tile]
                won = -1.0
                if ready and helps >> tile & 1:
                    won = outlook.score(drawn_low, drawn_high, tile, True)
                # Every kind held is a discard: the hand's, and the tile drawn.
                node = graph.after_any_draw(drawn_low, drawn_high, held | t.bit(tile))
                graph.draw(number, tile, left, node, won)
            tile += 1
        if pause is not None and number & 255 == 0:
            pause()


def _search_bounded(
    graph: _Graph,
    root_low: i64,
    root_high: i64,
    draws_left: i64,
    step_off: bool,
    pause: Pause | None,
) -> None:
    """The draws that lower the distance, the discards that keep it; with ``step_off``, from
    the root one step off them as well (a draw that does not help, kept for a discard that
    keeps the distance; a win passed for another wait)."""
    if graph.alike:
        graph.leaves = Index()
    start = graph.hand(root_low, root_high)
    outlook = graph.outlook
    ready = graph.distance[start] == 1
    lefts = graph.lefts(root_low, root_high)
    tile: i64 = 0
    while tile < t.KINDS and draws_left and step_off:
        left = lefts[tile]
        helps = graph.helps[start] >> tile & 1
        if left > 0 and not (helps and not ready):  # (a draw that helps: listed below)
            drawn_low = root_low + _LOW_UNIT[tile]
            drawn_high = root_high + _HIGH_UNIT[tile]
            row = outlook.row(drawn_low, drawn_high)  # (before its vector is read)
            # A winning hand is kept ready by any discard; another keeps its distance by some.
            keep = _held(drawn_low, drawn_high) if helps else outlook.keeps[row]
            keep &= ~t.bit(tile)
            if keep:
                won = outlook.score(drawn_low, drawn_high, tile, True) if helps else -1.0
                node = graph.after_draw(drawn_low, drawn_high, row, keep)
                graph.draw(start, tile, left, node, won)
        tile += 1
    while (number := graph.next(draws_left)) >= 0:
        low = graph.lows[number]
        high = graph.highs[number]
        ready = graph.distance[number] == 1
        listed: i64 = 0  # the draws listed already (the step off's, from the root)
        for edge in range(graph.starts[number], graph.ends[number]):
            listed |= t.bit(i64(graph.tiles[edge]))
        draws = graph.helps[number] & ~listed
        tile = 0
        while draws:
            if draws & 1:
                left = graph.drawable[tile] - _copies(low, high, tile)
                if left > 0:
                    drawn_low = low + _LOW_UNIT[tile]
                    drawn_high = high + _HIGH_UNIT[tile]
                    if ready:
                        won = outlook.score(drawn_low, drawn_high, tile, True)
                        if won >= 0:
                            graph.draw(number, tile, left, -1, won)
                    else:
                        row = outlook.row(drawn_low, drawn_high)
                        keep = outlook.keeps[row]
                        node = graph.after_draw(drawn_low, drawn_high, row, keep)
                        graph.draw(number, tile, left, node, -1.0)
            draws >>= 1
            tile += 1
        if pause is not None and number & 255 == 0:
            pause()


# --- Expectimax, from the last draw back ---------------------------------------------------


def _solve(graph: _Graph, model: Model, pause: Pause | None) -> tuple[float, float, float, float]:
    """The root's four figures (self-draw and discard win chances, expected score, ready
    chance) under the best play, by the draws left, from none up (``Plays``)."""
    n = graph.hands
    size = graph.wall
    wall = float(size) if size > 0 else 1.0
    rate = model.discard_rate / wall
    # A draw's probability by its copies left (an edge's ``leads`` holds them: a table of
    # five, not a float an edge), and each hand's chance of a draw it discards again.
    chances = _zeros(5)
    for left in range(5):
        chances[left] = float(left) / wall
    solved, several = _alike(graph)
    leads = graph.leads
    stays = _zeros(n)
    for i in solved:
        stay = 1.0
        for edge in range(graph.starts[i], graph.ends[i]):
            stay -= chances[i64(leads[edge] & 7)]
        stays[i] = stay
    offered = (
        [[(rate * left, won) for left, won in wins] for wins in graph.discard_wins]
        if rate > 0
        else []
    )
    plays = Plays(model.objective == "win_probability", graph.distance, n, graph.nodes)
    # A hand first reached after d draws is met with at most draws_left - d left: the hands
    # are listed by the draws it takes to reach them, so those that can still be met with
    # ``left`` are the first ``within[draws_left - left]``. The others' figures are left as
    # they were: no play of a hand met reads them (a hand met with ``left`` draws reads those
    # one draw farther, met with ``left - 1``).
    draws_left: i64 = model.draws_left
    within = blank(draws_left + 1)
    for draws in range(draws_left + 1):
        within[draws] = 0
    for i in range(n):
        depth = graph.depth[i]
        if depth <= draws_left:
            within[depth] += 1
    for draws in range(1, draws_left + 1):
        within[draws] += within[draws - 1]
    count = len(solved)  # the hands solved that are met with ``left`` draws: the first ``count``
    for left in range(draws_left + 1):
        met: i64 = within[draws_left - left]
        while count and solved[count - 1] >= met:
            count -= 1
        if left:
            _draw(graph, chances, stays, plays, solved, count, several)
        if offered:
            _others(offered, plays, solved, count)
        if pause is not None:
            pause()
    return plays.figures(0)


TIE: Final = 1e-9  # figures this close are one figure: plays alike are told apart further on


# A hand's figures in ``Plays.now``, from FIGURES times its number.
FIGURES: Final = 4
FIRST: Final = 0
SECOND: Final = 1
READY: Final = 2
SELF_DRAWN: Final = 3


class Plays:
    """Each hand's figures under its best play with the draws left so far, in the order plays
    are compared: the objective (``FIRST``: expected score, or chance of winning), the other
    of the two (``SECOND``), the chance of being ready, the chance of winning by self-draw.
    Plays equal by all four have the same figures but the split of the win's ways, so the
    figures reported never depend on the order plays are tried in.

    The figures are one vector of unboxed floats, a hand's four side by side at ``FIGURES``
    times its number (one vector, not one a figure: the draw's loop holds fewer in registers),
    and the next draw writes a second (``then``): the two take turns, so a draw makes no
    objects. ``best`` holds each 14-tile hand's best discard as the draw finds it.
    """

    __slots__ = ("best", "by_chance", "now", "then")

    def __init__(self, by_chance: bool, distance: vec[i64], hands: i64, drawn: i64) -> None:
        self.by_chance = by_chance
        self.then = _zeros(FIGURES * hands)
        now = self.then[:]
        for i in range(hands):
            if distance[i] == 1:
                now[FIGURES * i + READY] = 1.0
        self.now = now
        self.best = blank(drawn)

    def turn(self) -> None:
        """The figures the draw wrote become the hands' figures."""
        self.now, self.then = self.then, self.now

    def figures(self, i: int) -> tuple[float, float, float, float]:
        """Hand ``i``'s figures: self-draw and discard win chances, expected score, ready."""
        at = FIGURES * i
        now = self.now
        first, second = now[at + FIRST], now[at + SECOND]
        chance, value = (first, second) if self.by_chance else (second, first)
        self_drawn = now[at + SELF_DRAWN]
        return self_drawn, chance - self_drawn, value, now[at + READY]


def _tie_better(
    second_a: float, ready_a: float, self_a: float, second_b: float, ready_b: float, self_b: float
) -> bool:
    """Two plays equal by the objective: the other figure, then ready, then self-draw."""
    if abs(second_a - second_b) > TIE:
        return second_a > second_b
    if abs(ready_a - ready_b) > TIE:
        return ready_a > ready_b
    return self_a > self_b + TIE


def _win_taken(
    by_chance: bool,
    won: float,
    self_drawn: bool,
    first: float,
    second: float,
    ready: float,
    self_a: float,
) -> bool:
    """Whether a win worth ``won`` is taken rather than a play of these four figures: unless
    that play is better (a win is ready, and self-drawn or not)."""
    win_first = 1.0 if by_chance else won
    if first < win_first - TIE:
        return True
    if first > win_first + TIE:
        return False
    way = 1.0 if self_drawn else 0.0
    return not _tie_better(second, ready, self_a, won if by_chance else 1.0, 1.0, way)


def _alike(graph: _Graph) -> tuple[vec[i64], vec[i64]]:
    """The hands to solve, and the 14-tile hands whose best discard ``_draw`` finds: one of
    each kind whose figures are surely the same at every draw, the others' draws and discards
    led to it.

    Two 13-tile hands are alike when they are as far from ready and their draws are alike: in
    order, each one's copies left, where it leads and its score; and their discard wins. Two
    14-tile hands are alike when their discards lead to the same hands, in order. Read from
    the nearest hands out, the hands a draw leads to are nearer, found already; where one is
    not (a whole search's draw that leads farther), it stands for itself (alike hands may then
    go unfound, never unlike ones joined). The first of a kind by number is the one solved:
    it is reached with the fewest draws, so it is met whenever the others are. The same sums
    in the same order: the figures are the same to the last bit."""
    n = graph.hands
    hands = blank(n)  # (places written, not appended: ``_Graph``)
    for i in range(n):
        hands[i] = i
    nodes = blank(graph.nodes)
    if graph.alike and n >= _ALIKE_FROM:
        _find_every_alike(graph, hands, nodes)
    else:
        for drawn in range(len(nodes)):
            nodes[drawn] = drawn
    solved = blank(n)
    count: i64 = 0
    for i in range(n):
        if hands[i] == i:
            solved[count] = i
            count += 1
    children = graph.children
    child_ends = graph.child_ends
    several = blank(graph.nodes)
    chosen: i64 = 0
    start: i64 = 0
    for drawn in range(graph.nodes):
        end = child_ends[drawn]
        if nodes[drawn] == drawn and end > start:
            several[chosen] = drawn
            chosen += 1
            for place in range(start, end):
                children[place] = hands[children[place]]
        start = end
    return solved[:count], several[:chosen]


# The fewest hands a graph is searched for hands alike in: a ready hand's graphs (~12 hands
# each, their ready hands alike already: ``_Graph.leaves``) cost more to search than the solve
# saves. Instructions at ready and one from ready (``bench.expect_instructions``, 2026-11-29):
# every graph searched 110.6M and 469.1M, from 32 hands 108.2M and 469.4M, from 64 107.2M and
# 472.4M, none 107.6M and 527.9M.
_ALIKE_FROM: Final = 64


def _find_every_alike(graph: _Graph, hands: vec[i64], nodes: vec[i64]) -> None:
    """``_alike``'s hands and 14-tile hands found, from the nearest out, the root last (it is
    alike to no other); then the draws of those solved led to the kinds found since."""
    n = len(hands)
    places = vec[i64]([0] * (FAR + 2))  # by distance, where its hands start in ``order``
    for i in range(n):
        places[graph.distance[i] + 1] += 1
    for distance in range(1, FAR + 2):
        places[distance] += places[distance - 1]
    order = blank(n)
    for i in range(n):
        distance = graph.distance[i]
        order[places[distance]] = i
        places[distance] += 1
    found = Index(n + len(nodes))
    for i in order:
        if i:
            _find_alike(graph, hands, nodes, found, i)
    _find_alike(graph, hands, nodes, found, 0)
    leads = graph.leads
    for i in range(n):
        if hands[i] == i:
            for edge in range(graph.starts[i], graph.ends[i]):
                leads[edge] = i32(_led(hands, nodes, i64(leads[edge])))


def _find_alike(graph: _Graph, hands: vec[i64], nodes: vec[i64], found: Index, i: i64) -> None:
    """Hand ``i``'s draws led to the kinds found (its 14-tile hands' found first), and the
    hand found alike to one before it (``hands``) or kept in ``found`` as the first of its
    kind (keyed by its draws mixed, checked draw by draw: a mix alike is not enough)."""
    leads = graph.leads
    wins = graph.wins
    key: i64 = graph.distance[i]
    for edge in range(graph.starts[i], graph.ends[i]):
        lead = i64(leads[edge])
        other = lead >> 3
        if other < -1 and nodes[-2 - other] < 0:
            _find_alike_drawn(graph, hands, nodes, found, -2 - other)
        lead = _led(hands, nodes, lead)
        leads[edge] = i32(lead)
        key = _mixed(_mixed(key, lead), i64(wins[edge]))
    if not i:
        return
    tag = (graph.ends[i] - graph.starts[i]) << 1
    at, alike = found.find(key, tag)
    if alike < 0:
        found.put(at, key, tag, i)
    elif _same_draws(graph, alike, i):
        hands[i] = alike


def _same_draws(graph: _Graph, a: i64, b: i64) -> bool:
    """Whether two hands are alike (``_alike``), their draws led to the kinds found."""
    if graph.distance[a] != graph.distance[b]:
        return False
    start_a = graph.starts[a]
    start_b = graph.starts[b]
    size = graph.ends[a] - start_a
    if graph.ends[b] - start_b != size:
        return False
    leads = graph.leads
    wins = graph.wins
    for place in range(size):
        if leads[start_a + place] != leads[start_b + place]:
            return False
        if wins[start_a + place] != wins[start_b + place]:
            return False
    return not graph.offered or graph.discard_wins[a] == graph.discard_wins[b]


def _find_alike_drawn(
    graph: _Graph, hands: vec[i64], nodes: vec[i64], found: Index, drawn: i64
) -> None:
    """14-tile hand ``drawn``'s discards led to the kinds found, and the 14-tile hand found
    alike to one before it (``nodes``), or kept in ``found`` as the first of its kind."""
    children = graph.children
    child_ends = graph.child_ends
    start: i64 = 0
    if drawn:
        start = child_ends[drawn - 1]
    end = child_ends[drawn]
    key: i64 = 0
    for place in range(start, end):
        child = hands[children[place]]
        children[place] = child
        key = _mixed(key, child)
    tag = (end - start) << 1 | 1  # (not a 13-tile hand's)
    at, alike = found.find(key, tag)
    nodes[drawn] = drawn
    if alike < 0:
        found.put(at, key, tag, drawn)
        return
    alike_start: i64 = 0
    if alike:
        alike_start = child_ends[alike - 1]
    for place in range(end - start):
        if children[alike_start + place] != children[start + place]:
            return
    nodes[drawn] = alike


def _mixed(key: i64, value: i64) -> i64:
    """A key of 40 bits with one more value mixed in (``found``'s keys)."""
    return (key * 1_000_003 + (value & _MIX)) & _MIX


_MIX: Final = (1 << 40) - 1


def _led(hands: vec[i64], nodes: vec[i64], lead: i64) -> i64:
    """An edge's ``leads`` entry led to the hand (or 14-tile hand) of its kind solved."""
    other = lead >> 3
    if other >= 0:
        other = hands[other]
    elif other < -1:
        found = nodes[-2 - other]
        if found >= 0:
            other = -2 - found
    return 8 * other + (lead & 7)


def _draw(
    graph: _Graph,
    chances: vec[float],
    stays: vec[float],
    plays: Plays,
    solved: vec[i64],
    met: i64,
    several: vec[i64],
) -> None:
    """One more draw: the best discard of each 14-tile hand with ``several``, then the draws
    of each of the first ``met`` hands ``solved`` weighed. Plays are told apart by ``FIRST`` alone
    unless it ties (``_tie_better`` then): most comparisons end there, without a call."""
    now = plays.now
    children = graph.children
    best = plays.best
    child_ends = graph.child_ends
    for drawn in several:
        start: i64 = 0
        if drawn:  # (not a conditional expression: its 0 boxes)
            start = child_ends[drawn - 1]
        end = child_ends[drawn]
        chosen = children[start]
        top = now[FIGURES * chosen]
        for place in range(start + 1, end):
            child = children[place]
            at = FIGURES * child
            value = now[at]
            if value > top + TIE or (
                value >= top - TIE
                and _tie_better(
                    now[at + SECOND],
                    now[at + READY],
                    now[at + SELF_DRAWN],
                    now[FIGURES * chosen + SECOND],
                    now[FIGURES * chosen + READY],
                    now[FIGURES * chosen + SELF_DRAWN],
                )
            ):
                chosen = child
                top = value
        best[drawn] = chosen
    leads = graph.leads
    wins = graph.wins
    starts = graph.starts
    ends = graph.ends
    by_chance = plays.by_chance
    then = plays.then
    for solving in range(met):
        i = solved[solving]
        here = FIGURES * i
        here_first = now[here]
        here_second = now[here + SECOND]
        here_ready = now[here + READY]
        here_self = now[here + SELF_DRAWN]
        stay = stays[i]
        a_first = stay * here_first
        a_second = stay * here_second
        a_ready = stay * here_ready
        a_self = stay * here_self
        for edge in range(starts[i], ends[i]):
            lead = i64(leads[edge])
            p = chances[lead & 7]
            # The drawn tile discarded again, unless the drawn hand's best discard is better.
            taken_first = here_first
            taken_second = here_second
            taken_ready = here_ready
            taken_self = here_self
            other = lead >> 3  # the hand the draw leads to (-1: none), or a node (below -1)
            if other < -1:
                other = best[-2 - other]
            if other >= 0:
                at = FIGURES * other
                value = now[at]
                if value > here_first + TIE or (
                    value >= here_first - TIE
                    and _tie_better(
                        now[at + SECOND],
                        now[at + READY],
                        now[at + SELF_DRAWN],
                        here_second,
                        here_ready,
                        here_self,
                    )
                ):
                    taken_first = value
                    taken_second = now[at + SECOND]
                    taken_ready = now[at + READY]
                    taken_self = now[at + SELF_DRAWN]
            won = wins[edge]
            # A win taken or passed by ``FIRST`` alone unless it ties (``_win_taken``'s first
            # test, here without a call: most wins are decided by it).
            win_first = 1.0 if by_chance else won
            if won >= 0 and (
                taken_first < win_first - TIE
                or (
                    taken_first <= win_first + TIE
                    and _win_taken(
                        by_chance, won, True, taken_first, taken_second, taken_ready, taken_self
                    )
                )
            ):
                a_first += p * win_first
                a_second += p * (won if by_chance else 1.0)
                a_ready += p
                a_self += p
                continue
            a_first += p * taken_first
            a_second += p * taken_second
            a_ready += p * taken_ready
            a_self += p * taken_self
        then[here] = a_first
        then[here + SECOND] = a_second
        then[here + READY] = a_ready
        then[here + SELF_DRAWN] = a_self
    plays.turn()


def _others(
    offered: list[list[tuple[float, float]]], plays: Plays, solved: vec[i64], met: i64
) -> None:
    """The three others' discards, before the draw: each a winning tile with its chance, won
    on (a win is ready, not self-drawn) or let pass, in place, for the first ``met`` hands
    ``solved``."""
    now = plays.now
    by_chance = plays.by_chance
    for solving in range(met):
        i = solved[solving]
        wins = offered[i]
        if not wins:
            continue
        here = FIGURES * i
        for _ in range(OTHERS):
            here_first = now[here]
            here_second = now[here + SECOND]
            here_ready = now[here + READY]
            stay = 1.0
            a_first = a_second = a_ready = 0.0
            for p, won in wins:
                if p > 0 and _win_taken(
                    by_chance,
                    won,
                    False,
                    here_first,
                    here_second,
                    here_ready,
                    now[here + SELF_DRAWN],
                ):
                    stay -= p
                    a_first += p * (1.0 if by_chance else won)
                    a_second += p * (won if by_chance else 1.0)
                    a_ready += p
            now[here] = a_first + stay * here_first
            now[here + SECOND] = a_second + stay * here_second
            now[here + READY] = a_ready + stay * here_ready
            now[here + SELF_DRAWN] = stay * now[here + SELF_DRAWN]


# --- The entry point -----------------------------------------------------------------------


def expect(
    outlook: Outlook,
    hand: Hand,
    unseen: list[int],
    model: Model,
    pause: Pause | None = None,
    step_off: bool = True,
) -> tuple[Figures | None, Search]:
    """The figures of the best play of a 13-tile ``hand`` under ``model`` (RULES.md §8).

    ``unseen`` counts each kind's copies out of sight of the hand, its melds and what the
    player has seen (the discard under evaluation included). Figures are ``None`` for a hand
    more than ``MAX_SHANTEN`` from ready, or whose search does not fit ``model.budget``.
    Without ``step_off`` a bounded search keeps to the hand's shortest ways: for a discard
    that is itself the step off them (a 14-tile hand's discard farther from ready than its
    best).
    """
    low, high = _held_words(hand.held)
    row = outlook.row(low, high)  # (before its vector is read: a row read may grow it)
    if outlook.distances[row] - 1 > MAX_SHANTEN:
        return None, Search(0, False, "too_far")
    held = _pool(low, high, unseen)
    if fits_whole(hand.held.size, model):
        graph = _Graph(outlook, held, model)
        try:
            _search_all(graph, low, high, model.draws_left, pause)
        except _TooMany:
            pass
        else:
            return _figures(graph, model, pause), Search(graph.states, True)
    graph = _Graph(outlook, held, model)
    try:
        _search_bounded(graph, low, high, model.draws_left, step_off, pause)
    except _TooMany:
        return None, Search(graph.states, False, "budget")
    return _figures(graph, model, pause), Search(graph.states, False)


def fits_whole(concealed: int, model: Model) -> bool:
    """Whether every hand within reach surely fits the budget, and ``WHOLE`` (the whole search
    tries every draw and discard of every hand: beyond a few thousand hands, the bounded
    search answers in a fraction of its time). Counted from above, before searching: the
    13-tile hands ``k`` draws away are at most ``C(n, k) * C(33 + k, k)`` (k tiles of the
    ``n`` gone, k kinds come), and the 14-tile hands at most 34 for each hand before them;
    and no more than there are hands of that many tiles at all."""
    return _within_reach(concealed, model.draws_left) <= min(model.budget, WHOLE)


def _within_reach(concealed: int, draws_left: int) -> int:
    """``fits_whole``'s count of the hands within reach (kept: counted in big ints, it cost a
    request's evaluations ~50,000 instructions each)."""
    key = concealed * 1024 + draws_left
    found = _REACH.get(key)
    if found is not None:
        return found
    near = [comb(concealed, k) * comb(t.KINDS - 1 + k, k) for k in range(draws_left + 1)]
    within = sum(near) + t.KINDS * sum(near[:-1])
    every = comb(t.KINDS + concealed - 1, concealed) + comb(t.KINDS + concealed, concealed + 1)
    return _REACH.put(key, min(within, every))


# By the concealed tiles and the draws left (bounded: memo.py).
_REACH: Final[Memo[int, int]] = Memo(1_000)


def _figures(graph: _Graph, model: Model, pause: Pause | None) -> Figures:
    self_draw, discard, value, ready = _solve(graph, model, pause)
    chance = self_draw + discard
    return Figures(
        win_probability=chance,
        ready_probability=ready,
        expected_score=value,
        score_if_win=value / chance if chance > 0 else None,
        self_draw=self_draw,
        discard=discard,
    )
