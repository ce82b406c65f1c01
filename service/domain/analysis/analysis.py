"""Hand analysis (RULES.md §7): how far a hand is from ready, which tiles bring it closer, and
what each discard of a hand after its draw leaves.

Shanten is counted as a distance: the fewest tiles to add so that a winning hand can be picked
out of the tiles held and the tiles added, less one. Drawing one of those tiles and discarding
a tile the winning hand does not use brings the distance down by one, and nothing brings it
down faster, so the distance less one is the shanten; it is -1 for a hand that already wins.

The regular form is counted a suit at a time, as the standard table methods do: a suit's
distances (for 0 to 4 sets, with and without the pair) depend only on its nine counts and the
room its kinds have left, so they are computed once per distinct suit (a bounded ``Memo``) and
combined across suits by a min-plus sum. Room is 4 less a kind's copies in the melds: a shape
that would need a fifth copy is no shape, so a "wait" on a tile held four times is none, as
the rules have it, and no tile of which four are held is useful.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..errors import InvalidHand
from ..rules import tiles as t
from ..rules.hand import Hand, Meld, Rules, Value, Win, declared_melds, visible
from ..rules.patterns import table_for
from .distance import FAR, POWERS, Room, suit_distances
from .expectation import (
    Figures,
    Limited,
    Model,
    Outlook,
    Outlooks,
    Pause,
    Search,
    expect,
    fits_whole,
    shown,
)
from .waits import Wait, scored_wait, ways_to_win


# Plain classes, as the search's (``expectation.Model``): a request builds one a discard and
# one a useful tile, where a frozen dataclass's interpreted ``__init__`` cost ~3,000
# instructions each.
class Useful(Value):
    """A tile whose draw lowers the shanten, and how many copies of it are still unseen."""

    FIELDS = ("tile", "remaining")

    def __init__(self, tile: int, remaining: int) -> None:
        self.tile: Final = tile
        self.remaining: Final = remaining


class Analysis(Value):
    """A 13-tile hand's shanten and useful tiles (its waits, when it is ready)."""

    FIELDS = ("shanten", "useful")

    def __init__(self, shanten: int, useful: tuple[Useful, ...]) -> None:
        self.shanten: Final = shanten
        self.useful: Final = useful

    @property
    def useful_remaining(self) -> int:
        remaining = 0  # (a loop: compiled, a generator is an object and ``sum`` a call)
        for useful in self.useful:
            remaining += useful.remaining
        return remaining


class Discard(Value):
    """What discarding ``tile`` leaves: its analysis and, when it is ready, its waits scored;
    with a model, the figures of its best play (``None``: too far, or over the budget)."""

    FIELDS = ("tile", "analysis", "waits", "expected")

    def __init__(
        self,
        tile: int,
        analysis: Analysis,
        waits: tuple[Wait, ...],
        expected: Figures | None = None,
    ) -> None:
        self.tile: Final = tile
        self.analysis: Final = analysis
        self.waits: Final = waits
        self.expected: Final = expected

    def rank(self) -> tuple[int, int, int, int]:
        """API.md's order: lowest shanten, most useful copies, the best wait, canonical tile.
        (Loops, not a generator given to ``max``: ~3,000 instructions fewer a discard.)"""
        best = -1
        for wait in self.waits:
            if wait.self_draw is not None and wait.self_draw.score > best:
                best = wait.self_draw.score
            if wait.discard is not None and wait.discard.score > best:
                best = wait.discard.score
        return (self.analysis.shanten, -self.analysis.useful_remaining, -best, self.tile)


class Expectation(Value):
    """What the expected-score search did for a request (API.md ``expectation``): the wall it
    drew from, the hands it searched, whether every play was tried in every evaluation, and
    why one had no figures, if any had none."""

    FIELDS = ("model", "unseen", "states", "exhaustive", "limited")

    def __init__(
        self, model: Model, unseen: int, states: int, exhaustive: bool, limited: Limited | None
    ) -> None:
        self.model: Final = model
        self.unseen: Final = unseen
        self.states: Final = states
        self.exhaustive: Final = exhaustive
        self.limited: Final = limited


def waits_analysis(
    hand: Hand,
    win: Win,
    rules: Rules,
    seen: Sequence[int] = (),
    model: Model | None = None,
    pause: Pause | None = None,
    kept: Outlooks | None = None,
) -> tuple[Analysis, list[Wait], Figures | None, Expectation | None]:
    """POST /v1/waits: a 13-tile hand's analysis and, for each of its waits, what it scores;
    with a ``model``, the figures of its best play (``kept``: the outlook of analyses before
    it, a review's)."""
    melds = declared_melds(hand, size=13)
    ways = ways_to_win(hand, melds, win, rules)
    unseen = _unseen(hand.tiles, melds, seen)
    reader = _Reader(hand, melds, win.seat, rules, model, kept)
    analysis = reader.analyse(t.counts(hand.tiles), unseen)
    scored = _scored_waits(hand, melds, ways, rules, analysis)
    if model is None or reader.outlook is None:
        return analysis, scored, None, None
    figures, expectation = _expected(
        [hand], [analysis.shanten], reader.outlook, unseen, model, pause
    )
    return analysis, scored, figures[0], expectation


def discards(
    hand: Hand,
    win: Win,
    rules: Rules,
    seen: Sequence[int] = (),
    model: Model | None = None,
    pause: Pause | None = None,
    kept: Outlooks | None = None,
) -> tuple[int, list[Discard], Expectation | None]:
    """POST /v1/discards: a 14-tile hand's shanten (-1 if it wins) and each discard, ranked;
    with a ``model``, each discard's figures, ranked by its objective first (``kept``: as for
    ``waits_analysis``)."""
    melds = declared_melds(hand, size=14, won=False)
    ways = ways_to_win(hand, melds, win, rules)
    # The discarded tile counts as seen, so copies are counted with it still in the hand.
    unseen = _unseen(hand.tiles, melds, seen)
    reader = _Reader(hand, melds, win.seat, rules, model, kept)
    counts = t.counts(hand.tiles)
    found = []
    waiting: dict[int, Hand] = {}  # the 13 tiles each discard leaves
    for tile in sorted(set(hand.tiles)):
        counts[tile] -= 1
        analysis = reader.analyse(counts, unseen)
        counts[tile] += 1
        waiting[tile] = _without(hand, tile)
        scored = _scored_waits(waiting[tile], melds, ways, rules, analysis)
        found.append(Discard(tile, analysis, tuple(scored)))
    found.sort(key=Discard.rank)
    shanten = reader.shanten(counts)
    if model is None or reader.outlook is None:
        return shanten, found, None
    left = [waiting[discard.tile] for discard in found]
    away = [discard.analysis.shanten for discard in found]
    figures, expectation = _expected(left, away, reader.outlook, unseen, model, pause)
    expected = [
        Discard(discard.tile, discard.analysis, discard.waits, figure)
        for discard, figure in zip(found, figures, strict=True)
    ]
    expected.sort(key=lambda discard: _objective(discard.expected, model))
    return shanten, expected, expectation


def _without(hand: Hand, tile: int) -> Hand:
    kept = list(hand.tiles)
    kept.remove(tile)
    # Built, not ``replace``d: its keywords make a dict and call by name, ~10,000 instructions.
    return Hand(tuple(kept), hand.melds, hand.winning_tile, hand.flowers, hand.seasons)


def _objective(figures: Figures | None, model: Model) -> float:
    """A discard's place by the objective (highest first, none last), as the figures are
    shown (4 decimals): a sort key, the API's order breaking ties (a stable sort)."""
    if figures is None:
        return 1.0
    value = (
        figures.win_probability if model.objective == "win_probability" else figures.expected_score
    )
    return -shown(value)


def _expected(
    hands: list[Hand],
    shanten: list[int],
    outlook: Outlook,
    unseen: list[int],
    model: Model,
    pause: Pause | None,
) -> tuple[list[Figures | None], Expectation]:
    """Each 13-tile hand's figures, in order (lowest ``shanten`` first), from one budget of
    states for the request: an evaluation that does not fit what is left of it has none
    (``budget``), whole or nothing.

    The hands are the discards of one hand (or the one hand of /v1/waits): a hand farther
    from ready than the nearest is already the step off the shortest ways, and is searched
    along its own shortest ways only (RULES.md §8). One position has one answer: the best
    discard has the figures /v1/waits gives its 13 tiles, searched with their step off and the
    request's whole budget. When its first search may have been another (along its shortest
    ways only, or bounded where what was left of the budget was too little for the whole
    search), it is searched again so; if its 13 tiles alone do not fit the budget (/v1/waits
    has no figures for them), it keeps the figures of its first search."""
    nearest = min(shanten)
    budget = _Budget(model)
    figures: list[Figures | None] = []
    alone: list[bool] = []  # searched as its 13 tiles alone would be
    for held, away in zip(hands, shanten, strict=True):
        whole = budget.left
        found, search = budget.spend(outlook, held, unseen, pause, step_off=away == nearest)
        budget.count(found, search)
        figures.append(found)
        alone.append(
            search.exhaustive
            or (
                away == nearest
                and (whole == model.budget or not fits_whole(len(held.tiles), model))
            )
        )
    best = min(range(len(hands)), key=lambda i: _objective(figures[i], model))
    if figures[best] is not None and not alone[best]:
        # Never below the first: the whole search is the optimum, and the step off adds plays.
        again = budget.again(outlook, hands[best], unseen, pause)
        if again is not None:
            figures[best] = again
    return figures, budget.expectation(unseen)


class _Budget:
    """One request's budget of states, drawn on by its evaluations in turn, and what they
    did (API.md ``expectation``)."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self.left = model.budget
        self.states = 0
        self.limited: Limited | None = None
        self.searched = self.bounded = 0

    def spend(
        self, outlook: Outlook, hand: Hand, unseen: list[int], pause: Pause | None, step_off: bool
    ) -> tuple[Figures | None, Search]:
        """One evaluation, within what is left of the budget."""
        found, search = expect(outlook, hand, unseen, self.model.within(self.left), pause, step_off)
        self.states += search.states
        self.left = max(0, self.left - search.states)
        return found, search

    def count(self, found: Figures | None, search: Search) -> None:
        """A discard's evaluation, as the answer reports them."""
        if search.limited == "budget" or self.limited is None:
            self.limited = search.limited
        if found is not None:
            self.searched += 1
            self.bounded += not search.exhaustive

    def again(
        self, outlook: Outlook, hand: Hand, unseen: list[int], pause: Pause | None
    ) -> Figures | None:
        """A discard searched again as its 13 tiles alone are (/v1/waits): with its step off
        and the request's whole budget (so a request searches at most twice its budget)."""
        found, search = expect(outlook, hand, unseen, self.model, pause, step_off=True)
        self.states += search.states
        self.bounded -= found is not None and search.exhaustive  # (the first was bounded)
        return found

    def expectation(self, unseen: list[int]) -> Expectation:
        exhaustive = self.searched > 0 and not self.bounded
        return Expectation(self.model, sum(unseen), self.states, exhaustive, self.limited)


def _scored_waits(
    hand: Hand, melds: tuple[Meld, ...], ways: dict[str, Win], rules: Rules, analysis: Analysis
) -> list[Wait]:
    """A ready hand's waits (its useful tiles), each scored both ways; none for another."""
    if analysis.shanten != 0:
        return []
    return [scored_wait(hand, melds, ways, rules, u.tile, u.remaining) for u in analysis.useful]


def _unseen(held: tuple[int, ...], melds: tuple[Meld, ...], seen: Sequence[int]) -> list[int]:
    """Copies of each kind not in the hand, its melds or ``seen``; a fifth copy is an error."""
    copies = visible(held, melds)
    for tile in seen:
        copies[tile] += 1
    for tile, count in enumerate(copies):
        if count > 4:
            raise InvalidHand.at(
                "visible",
                f"{count} copies of {t.repeated(tile)} across the hand, its melds and visible;"
                " there are only 4",
            )
    return [4 - count for count in copies]


class _Reader:
    """How a request reads its hands' shanten and useful tiles: by their own tables
    (``Shape``), or, when it asks for the expected score, by the search's (``Outlook.moves``:
    a hand's distance and the kinds whose draw lowers it, the same figures), which the search
    then meets again rather than joining every suit pair twice."""

    __slots__ = ("outlook", "shape")

    def __init__(
        self,
        hand: Hand,
        melds: tuple[Meld, ...],
        seat: str,
        rules: Rules,
        model: Model | None,
        kept: Outlooks | None,
    ) -> None:
        self.shape: Shape | None = None
        self.outlook: Outlook | None = None
        if model is None:
            self.shape = Shape(melds, table_for(rules).wins)
        elif kept is None:
            self.outlook = Outlook(hand, melds, seat, rules)
        else:  # an outlook's tables are pure functions of the hands met: the same figures
            self.outlook = kept.get(hand, melds, seat, rules)

    def shanten(self, counts: list[int]) -> int:
        """The hand's shanten: 13 tiles (with the melds), or 14 (-1: it wins)."""
        if self.outlook is not None:
            return self.outlook.moves(counts)[0] - 1
        assert self.shape is not None
        return self.shape.shanten(counts)

    def analyse(self, counts: list[int], unseen: list[int]) -> Analysis:
        """The analysis of 13 tiles (with the melds)."""
        if self.outlook is None:
            assert self.shape is not None
            return self.shape.analyse(counts, unseen)
        distance, lower, _ = self.outlook.moves(counts)
        useful = [
            Useful(tile, max(0, unseen[tile])) for tile in range(t.KINDS) if lower >> tile & 1
        ]
        return Analysis(distance - 1, tuple(useful))


class Shape(Room[tuple[int, ...]]):
    """What the analysis of one hand reads (``Room``): its shanten and useful tiles."""

    def shanten(self, counts: list[int]) -> int:
        """The hand's shanten: 13 tiles (with the melds), or 14 (-1: it wins)."""
        return self.distance(counts, self.keys(counts)) - 1

    def distance(self, counts: list[int], keys: list[int]) -> int:
        return self._least(keys, *self._irregular(counts))

    def _irregular(self, counts: list[int]) -> tuple[int, int, int]:
        """What the irregular forms count (0 where the rules do not keep them): the pairs
        (four alike are two), the terminals and honours held, and whether one is paired."""
        pairs = sum(count // 2 for count in counts) if self.seven_pairs else 0
        kinds = paired = 0
        if self.thirteen_terminals:
            kinds = sum(1 for tile in t.ORPHANS if counts[tile])
            paired = any(counts[tile] >= 2 for tile in t.ORPHANS)
        return pairs, kinds, paired

    def _least(self, keys: list[int], pairs: int, kinds: int, paired: int) -> int:
        best = self._regular(keys)
        if self.seven_pairs:
            best = min(best, 7 - pairs)
        if self.thirteen_terminals:
            best = min(best, 14 - kinds - paired)
        return best

    def analyse(self, counts: list[int], unseen: list[int]) -> Analysis:
        """The analysis of 13 tiles (with the melds)."""
        keys = self.keys(counts)
        irregular = self._irregular(counts)
        shanten = self._least(keys, *irregular) - 1
        useful = []
        # Every kind with no tile held within two of it (no honour held, for an honour) is
        # alike: a group it joins is made of it and drawn tiles only, and such a group helps
        # wherever it stands. One of them answers for all.
        lone: bool | None = None
        for tile in range(t.KINDS):
            if counts[tile] >= self.room[tile]:
                continue  # all four copies are in the hand: none to draw
            if self._alone(counts, tile) and not (self.thirteen_terminals and tile in _ORPHANS):
                if lone is None:
                    lone = self._lowers(counts, keys, irregular, tile, shanten)
                helps = lone
            else:
                helps = self._lowers(counts, keys, irregular, tile, shanten)
            if helps:
                useful.append(Useful(tile, max(0, unseen[tile])))
        return Analysis(shanten, tuple(useful))

    def _regular(self, keys: list[int]) -> int:
        """The distance to the sets and a pair the concealed tiles must make (the melds are
        the other sets), by a min-plus sum of the suits' distances."""
        low = self.pair(keys[0], keys[1])
        high = self.pair(keys[2], keys[3])
        sets = self.sets
        best = FAR
        for made in range(sets + 1):
            for pair in (0, 1):
                cost = low[2 * made + pair] + high[2 * (sets - made) + 1 - pair]
                if cost < best:
                    best = cost
        return best

    def join(self, low: int, high: int) -> tuple[int, ...]:
        """Two suits' distances as one part's (``Room.pair`` keeps them)."""
        return _combined(suit_distances(low, self.room), suit_distances(high, self.room))

    def _alone(self, counts: list[int], tile: int) -> bool:
        """No tile held or melded near ``tile``: nothing it could form a set with."""
        if tile >= t.EAST:
            return counts[tile] == 0 and self.room[tile] == 4
        low = tile - tile % 9
        return all(
            counts[near] == 0 and self.room[near] == 4
            for near in range(max(low, tile - 2), min(low + 9, tile + 3))
        )

    def _lowers(
        self,
        counts: list[int],
        keys: list[int],
        irregular: tuple[int, int, int],
        tile: int,
        was: int,
    ) -> bool:
        """Whether drawing ``tile`` lowers the shanten ``was``: the suit's key and the
        irregular forms' counts with that tile more."""
        suit = tile // 9
        have = counts[tile]
        pairs, kinds, paired = irregular
        if tile in _ORPHANS:
            kinds += have == 0
            paired |= have == 1
        keys[suit] += POWERS[tile - suit * 9]
        lowered = self._least(keys, pairs + (have & 1), kinds, paired) - 1 < was
        keys[suit] -= POWERS[tile - suit * 9]
        return lowered


_ORPHANS: Final = frozenset(t.ORPHANS)


def _combined(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """Two parts' distances as one: index 2 * sets + pair, the cheapest split."""
    out = [FAR] * 10
    for index_a in range(10):
        cost_a = a[index_a]
        if cost_a >= FAR:
            continue
        for index_b in range(10 - index_a):
            if (index_a & 1) + (index_b & 1) > 1:
                continue
            cost = cost_a + b[index_b]
            if cost < out[index_a + index_b]:
                out[index_a + index_b] = cost
    return tuple(out)
