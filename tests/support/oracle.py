"""Shanten from its definition (RULES.md §7), written apart from the service's analysis: the
tests hold ``service.domain.analysis.analysis`` to it.

Tiles are ints 0-33 (1m-9m, 1p-9p, 1s-9s, 1z-7z); a hand is its concealed counts, the copies its
declared melds hold (``melded``) and the forms the rules keep. A hand is *ready* when some tile it
holds fewer than four of (melds included) completes a winning hand: sets and a pair, the melds
being sets; Seven Pairs (four alike are two pairs) and Thirteen Terminals only with no meld and
only where the rules keep them. Its *shanten* is the fewest draws, each with a discard, before it
is ready; -1 for a 14-tile hand that wins.

``wins`` is the winning check, by recursive set removal. ``shanten`` counts: k draws and
discards lead from a hand to exactly the hands of its size that differ from it in at most k
tiles, none holding a fifth copy (draw what the other holds and this one lacks, discard what it
holds and the other lacks, one at a time: no hand between holds more of a kind than one of the
two). So a 13-tile hand is ready within k steps exactly when some winning 14-tile hand, within
the room the melds leave, has at most k + 1 tiles the hand lacks (the last of them is the
winning draw); the shanten is the fewest lacked less one. For 14 tiles (a hand after its draw:
its shanten is its best discard's) the same count holds, a winning hand lacking none. The tests
check the definition itself, step by step, on every hand they give it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

FAR = 99  # a count of a shape that cannot be made
ORPHANS = (0, 8, 9, 17, 18, 26, *range(27, 34))


SUITS = ((0, 9), (9, 9), (18, 9), (27, 7))  # each suit's first kind and size; 27-33 honours


def _sets_holding(place: int, size: int) -> tuple[tuple[int, ...], ...]:
    """The pung and the chows holding the kind at ``place`` of a suit (honours: size 7, none)."""
    found: list[tuple[int, ...]] = [(place, place, place)]
    if size == 9:
        found += [(s, s + 1, s + 2) for s in (place - 2, place - 1, place) if 0 <= s <= 6]
    return tuple(found)


SETS_HOLDING = {size: [_sets_holding(place, size) for place in range(size)] for size in (7, 9)}


def wins(counts: Sequence[int], melds: int, forms: frozenset[str]) -> bool:
    """14 tiles less 3 per meld: a winning hand of a form in ``forms`` ("standard",
    "seven_pairs", "thirteen_terminals")."""
    irregular = melds == 0  # only a hand without melds
    if irregular and "seven_pairs" in forms and all(count in (0, 2, 4) for count in counts):
        return True
    orphans = [counts[tile] for tile in ORPHANS]
    if irregular and "thirteen_terminals" in forms and min(orphans) and sum(orphans) == 14:
        return True
    return "standard" in forms and _removes(list(counts), 4 - melds, 1)


def _removes(counts: list[int], sets: int, pairs: int) -> bool:
    """``sets`` sets and ``pairs`` pairs, nothing over: take the lowest tile left as a pair, a
    pung or the start of a chow, and the rest recursively."""
    tile = next((kind for kind, count in enumerate(counts) if count), None)
    if tile is None:
        return sets == 0 and pairs == 0
    blocks = [((tile, tile), 0, 1), ((tile, tile, tile), 1, 0)]
    if tile < 27 and tile % 9 <= 6:
        blocks.append(((tile, tile + 1, tile + 2), 1, 0))
    for block, is_set, is_pair in blocks:
        if is_set > sets or is_pair > pairs:
            continue
        if all(counts[kind] >= block.count(kind) for kind in block):
            for kind in block:
                counts[kind] -= 1
            found = _removes(counts, sets - is_set, pairs - is_pair)
            for kind in block:
                counts[kind] += 1
            if found:
                return True
    return False


def shanten(counts: Sequence[int], melds: int, melded: Sequence[int], forms: frozenset[str]) -> int:
    """The shanten of 13 or 14 tiles (less 3 per meld) beside ``melds`` melds holding
    ``melded`` copies of each kind."""
    return lacked(tuple(counts), melds, tuple(melded), forms) - 1


@cache
def lacked(
    counts: tuple[int, ...], melds: int, melded: tuple[int, ...], forms: frozenset[str]
) -> int:
    """The fewest tiles a winning hand (within the room the melds leave) has that these lack."""
    best = _regular(counts, melded, 4 - melds) if "standard" in forms else FAR
    if melds == 0 and "seven_pairs" in forms:
        best = min(best, _seven_pairs(counts))
    if melds == 0 and "thirteen_terminals" in forms:
        best = min(best, _thirteen_terminals(counts))
    return best


def _regular(counts: tuple[int, ...], melded: tuple[int, ...], sets: int) -> int:
    """Sets and a pair: no set or pair spans two suits, so each suit gives some of them (the
    fewest tiles it lacks for each number), and the suits' shares add up."""
    shares = []
    for first, size in SUITS:
        held = counts[first : first + size]
        spare = tuple(4 - copies for copies in melded[first : first + size])
        shares.append(_shares(held, spare))
    return _joined(_joined(shares[0], shares[1]), _joined(shares[2], shares[3]))[2 * sets + 1]


SHARES = [(made, pairs) for made in range(5) for pairs in (0, 1)]  # index 2 * sets + pairs


@cache
def _shares(held: tuple[int, ...], spare: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(_suit(held, spare, made, pairs) for made, pairs in SHARES)


@cache
def _joined(one: tuple[int, ...], other: tuple[int, ...]) -> tuple[int, ...]:
    """Two parts' shares as one: the cheapest way to take each number of sets and pairs."""
    return tuple(
        min(
            one[2 * made + pairs] + other[2 * (sets - made) + both - pairs]
            for made in range(sets + 1)
            for pairs in range(both + 1)
        )
        for sets, both in SHARES
    )


@cache
def _suit(held: tuple[int, ...], spare: tuple[int, ...], sets: int, pairs: int) -> int:
    """The fewest tiles to add to one suit's ``held`` so that ``sets`` sets and ``pairs``
    pairs come out of it, using no kind beyond ``spare``. The lowest tile held is either left
    out (discarded) or in a block holding it, whose other tiles come from the hand if it has
    them, else are added; when none is held, the blocks are all added."""
    tile = next((kind for kind, count in enumerate(held) if count), None)
    if tile is None:
        return 3 * sets + 2 * pairs if _fits(spare, sets, pairs) else FAR
    rest = list(held)
    rest[tile] -= 1
    best = _suit(tuple(rest), spare, sets, pairs)
    blocks: list[tuple[int, ...]] = [(tile, tile)] if pairs else []
    if sets:
        blocks += SETS_HOLDING[len(held)][tile]
    for block in blocks:
        left, room, added = list(held), list(spare), 0
        for kind in block:
            room[kind] -= 1
            if left[kind]:
                left[kind] -= 1
            else:
                added += 1
        if min(room) >= 0:
            is_set = len(block) == 3
            after = _suit(tuple(left), tuple(room), sets - is_set, pairs - (not is_set))
            best = min(best, added + after)
    return best


@cache
def _fits(spare: tuple[int, ...], sets: int, pairs: int) -> bool:
    """Whether ``sets`` sets and ``pairs`` pairs of added tiles fit in one suit's ``spare``."""
    size = len(spare)
    blocks: list[tuple[int, ...]] = [(kind, kind) for kind in range(size)] if pairs else []
    if sets:
        blocks += sorted({block for holding in SETS_HOLDING[size] for block in holding})
    if not blocks:
        return True
    for block in blocks:
        room = list(spare)
        for kind in block:
            room[kind] -= 1
        if min(room) >= 0:
            is_set = len(block) == 3
            if _fits(tuple(room), sets - is_set, pairs - (not is_set)):
                return True
    return False


def _seven_pairs(held: tuple[int, ...]) -> int:
    """Seven pairs, each kind giving none, one or two (four alike): the fewest tiles to add.
    A kind's first pair costs 2 less its copies (never below 0), its second 4 less its copies
    less the first's price: never cheaper than the first, so the seven cheapest prices of all
    kinds are the fewest tiles."""
    prices = []
    for count in held:
        first = max(0, 2 - count)
        prices += [first, max(0, 4 - count) - first]
    return sum(sorted(prices)[:7])


def _thirteen_terminals(held: tuple[int, ...]) -> int:
    """One of each terminal and honour and a second of one of them: the fewest tiles to add."""
    best = FAR
    for extra in ORPHANS:  # the orphan held twice
        wanted = [(kind, 2 if kind == extra else 1) for kind in ORPHANS]
        best = min(best, sum(max(0, copies - held[kind]) for kind, copies in wanted))
    return best
