"""What each player pays the winner under each payoff scheme (RULES.md §5)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from .hand import Rules, Win
from .memo import Memo
from .tiles import SEATS

# What each loser pays on a self-drawn win (or one paid as such), from the value and the
# standard value; and (what the responsible player pays, what each other loser pays) on a
# discard win.
_SelfDrawShare = Callable[[int, int], int]
_DiscardShares = Callable[[int, int], tuple[int, int]]


@dataclass(frozen=True, slots=True)
class Scheme:
    """A payoff scheme. ``house``: a table's own agreement, not one of v2.51's four schemes."""

    description: str
    self_draw: _SelfDrawShare
    discard: _DiscardShares
    house: bool = False


def _formal(value: int, standard: int) -> tuple[int, int]:
    # Above the standard value the excess is paid by the responsible player alone, so the
    # winner still collects 3 x value.
    if value <= standard:
        return value, value
    return 3 * value - 2 * standard, standard


def _formal_double_discard(value: int, standard: int) -> tuple[int, int]:
    # The part within the standard value is paid uniformly, the excess as under
    # discarder_pays_double: the winner collects 3 x base + 12 x excess.
    base, excess = min(value, standard), max(0, value - standard)
    return base + 6 * excess, base + 3 * excess


def _formal_double_self_draw(value: int, standard: int) -> int:
    return min(value, standard) + 4 * max(0, value - standard)


# The first is the default.
SCHEMES: Final = {
    "formal": Scheme(
        "Each other player pays the value for a self-draw or a hand up to the standard value;"
        " above it, on a discard, the two others pay the standard value and the responsible"
        " player 3 x value - 2 x standard value.",
        lambda value, standard: value,
        _formal,
    ),
    "uniform": Scheme(
        "Each other player pays the value.",
        lambda value, standard: value,
        lambda value, standard: (value, value),
    ),
    "discarder_pays_all": Scheme(
        "Discard: the responsible player pays 3 x value; self-draw: each other player pays"
        " the value.",
        lambda value, standard: value,
        lambda value, standard: (3 * value, 0),
    ),
    "discarder_pays_double": Scheme(
        "Discard: the responsible player pays 6 x value, the others 3 x each; self-draw: each"
        " other player pays 4 x value.",
        lambda value, standard: 4 * value,
        lambda value, standard: (6 * value, 3 * value),
    ),
    "formal_double": Scheme(
        "The formal scheme with the excess over the standard value paid as under"
        " discarder_pays_double: with B = min(value, standard value) and E the excess, a"
        " discard costs the responsible player B + 6E and each other B + 3E, a self-draw"
        " each B + 4E (house rule; v2.51: to be agreed upon before the game).",
        _formal_double_self_draw,
        _formal_double_discard,
        house=True,
    ),
}


def responsible(win: Win) -> str | None:
    """Who pays as the discarder: nobody on a self-draw or a win paid as one. With the
    go-around, the first seat in it to discard the winning tile; if that is the winner, who
    passed on it, the win is paid as a self-draw."""
    if win.self_drawn or win.pay_as_self_draw:
        return None
    if win.go_around:
        tile = win.go_around[-1][1]
        first = next(seat for seat, discarded in win.go_around if discarded == tile)
        return None if first == win.seat else first
    return win.responsible or win.discarder


def payments(value: int, win: Win, rules: Rules) -> dict[str, int]:
    """By seat: positive received, negative paid; always summing to zero.

    Shared by the wins paid alike (the same value, scheme, winner and payer): read them,
    don't change them.
    """
    payer = responsible(win)
    key = (value, rules.payoff, rules.standard_value, win.seat, payer)
    found = _PAID.get(key)
    if found is not None:
        return found
    scheme = SCHEMES[rules.payoff]
    if payer is None:
        own = other = scheme.self_draw(value, rules.standard_value)
    else:
        own, other = scheme.discard(value, rules.standard_value)
    result = _NOBODY_PAID.copy()  # a copy costs about a third of a dict built key by key
    received = 0
    for seat in SEATS:
        if seat != win.seat:
            paid = own if seat == payer else other
            result[seat] = -paid
            received += paid
    result[win.seat] = received
    return _PAID.put(key, result)


_NOBODY_PAID: Final = {"E": 0, "S": 0, "W": 0, "N": 0}  # seat order, as the response lists them

# Bounded, since clients choose the values and standard values (~450 bytes each).
_PAID: Final[Memo[tuple[int, str, int, str, str | None], dict[str, int]]] = Memo(4096)
