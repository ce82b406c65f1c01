"""What each player pays the winner under each payoff scheme (RULES.md §5)."""

from __future__ import annotations

from collections.abc import Callable

from .hand import Rules, Win
from .tiles import SEATS

# A scheme gives (what the responsible player pays, what each other loser pays) for a
# discard win; a self-drawn win (or one paid as such) is paid by all three alike.
_DiscardShares = Callable[[int, int], tuple[int, int]]


def _formal(value: int, standard: int) -> tuple[int, int]:
    # Above the standard value the excess is paid by the responsible player alone, so the
    # winner still collects 3 x value.
    if value <= standard:
        return value, value
    return 3 * value - 2 * standard, standard


SCHEMES: dict[str, tuple[int, _DiscardShares]] = {
    # name: (self-draw multiple per player, discard shares)
    "formal": (1, _formal),
    "uniform": (1, lambda value, standard: (value, value)),
    "discarder_pays_all": (1, lambda value, standard: (3 * value, 0)),
    "discarder_pays_double": (4, lambda value, standard: (6 * value, 3 * value)),
}


def responsible(win: Win) -> str | None:
    """Who pays as the discarder: nobody on a self-draw or a win paid as one."""
    if win.self_drawn or win.pay_as_self_draw:
        return None
    return win.responsible or win.discarder


def payments(value: int, win: Win, rules: Rules) -> dict[str, int]:
    """By seat: positive received, negative paid; always summing to zero."""
    self_draw_multiple, discard_shares = SCHEMES[rules.payoff]
    payer = responsible(win)
    if payer is None:
        own = other = self_draw_multiple * value
    else:
        own, other = discard_shares(value, rules.standard_value)
    result = {"E": 0, "S": 0, "W": 0, "N": 0}  # seat order, as the response lists them
    received = 0
    for seat in SEATS:
        if seat != win.seat:
            paid = own if seat == payer else other
            result[seat] = -paid
            received += paid
    result[win.seat] = received
    return result
