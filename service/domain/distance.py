"""One suit's distances to sets and a pair: the table both hand analysis (analysis.py) and the
expected-score search (expectation.py) read."""

from __future__ import annotations

from typing import Final

SETS: Final = 4  # a regular hand's sets, melds included
FAR: Final = 99  # the distance of a shape that cannot be made


def distances(counts: list[int], room: list[int], runs: bool) -> tuple[int, ...]:
    """The fewest tiles to add to one suit's ``counts`` so that j sets and p pairs come out of
    it, at index 2 * j + p, never using more of a kind than its ``room``.

    A pass over the kinds, lowest first, choosing at each how many chows start there (if
    ``runs``), whether a pung and whether the pair: the state is the chows still owed a tile
    here and at the next kind, the sets made and the pair, packed in one int (10 bits).
    """
    # The states reached so far, and the fewest tiles added to reach each (FAR: not reached).
    states = [0]
    costs = [FAR] * 1024
    costs[0] = 0
    last = len(counts) - 3
    for kind, have in enumerate(counts):
        cap = room[kind]
        reached: list[int] = []
        ahead = [FAR] * 1024
        for state in states:
            spent = costs[state]
            owed = (state & 7) + (state >> 3 & 7)  # tiles of this kind the open chows need
            made = state >> 6 & 7
            paired = state >> 9
            starts = SETS - made if runs and kind <= last else 0
            for start in range(min(starts, cap - owed) + 1):
                for pung in (0, 1):
                    sets = made + start + pung
                    if sets > SETS:
                        break
                    for pair in range(2 - paired):
                        use = owed + start + 3 * pung + 2 * pair
                        if use > cap:
                            break
                        cost = spent + (use - have if use > have else 0)
                        after = (state >> 3 & 7) | start << 3 | sets << 6 | (paired + pair) << 9
                        if cost < ahead[after]:
                            if ahead[after] == FAR:
                                reached.append(after)
                            ahead[after] = cost
        states = reached
        costs = ahead
    out = [FAR] * 10
    for state in states:
        spent = costs[state]
        index = 2 * (state >> 6 & 7) + (state >> 9)
        if spent < out[index]:
            out[index] = spent
    return tuple(out)
