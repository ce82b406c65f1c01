"""What each player pays the winner under each payoff scheme (RULES.md §5)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from .memo import SlotMemo

if TYPE_CHECKING:  # the rules hold their scheme's number (hand.Rules): hand imports this
    from .hand import Rules, Win


@dataclass(frozen=True, slots=True)
class Scheme:
    """A payoff scheme, as data: every scheme pays a linear share of the value up to the
    standard value (the base, ``min(value, standard)``) and of what exceeds it (the excess),
    so each share is two factors, (of the base, of the excess).

    ``self_draw``: what each loser pays on a self-drawn win (or one paid as such); ``own`` and
    ``other``: what the responsible player and each other loser pay on a discard win.
    ``house``: a table's own agreement, not one of v2.51's four schemes.
    """

    description: str
    self_draw: tuple[int, int]
    own: tuple[int, int]
    other: tuple[int, int]
    house: bool = False


# The first is the default. Where the base and the excess are paid alike, the scheme pays a
# multiple of the value; ``formal`` keeps the excess for the responsible player alone (3 x
# value - 2 x standard = base + 3 x excess), so the winner still collects 3 x value.
SCHEMES: Final = {
    "formal": Scheme(
        "Each other player pays the value for a self-draw or a hand up to the standard value;"
        " above it, on a discard, the two others pay the standard value and the responsible"
        " player 3 x value - 2 x standard value.",
        self_draw=(1, 1), own=(1, 3), other=(1, 0),
    ),
    "uniform": Scheme(
        "Each other player pays the value.",
        self_draw=(1, 1), own=(1, 1), other=(1, 1),
    ),
    "discarder_pays_all": Scheme(
        "Discard: the responsible player pays 3 x value; self-draw: each other player pays"
        " the value.",
        self_draw=(1, 1), own=(3, 3), other=(0, 0),
    ),
    "discarder_pays_double": Scheme(
        "Discard: the responsible player pays 6 x value, the others 3 x each; self-draw: each"
        " other player pays 4 x value.",
        self_draw=(4, 4), own=(6, 6), other=(3, 3),
    ),
    "formal_double": Scheme(
        "The formal scheme with the excess over the standard value paid as under"
        " discarder_pays_double: with B = min(value, standard value) and E the excess, a"
        " discard costs the responsible player B + 6E and each other B + 3E, a self-draw"
        " each B + 4E (house rule; v2.51: to be agreed upon before the game).",
        self_draw=(1, 4), own=(1, 6), other=(1, 3),
        house=True,
    ),
}  # fmt: skip


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

    Shared by the wins paid alike (the same value, scheme, standard value, winner and payer):
    read them, don't change them.
    """
    payer = responsible(win)
    # Seats by their letters' low three bits, which tell the four apart (0: nobody).
    winner = ord(win.seat) & 7
    payer_bits = 0 if payer is None else ord(payer) & 7
    number = rules.scheme
    standard = rules.standard_value
    # The five as one int (the standard value is under 2^20, as the schema bounds it): no
    # tuple made and hashed.
    key = value << 31 | standard << 10 | number << 6 | winner << 3 | payer_bits
    found = _PAID.get(key)
    if found is not None:
        return found
    scheme = _SCHEMES[number - 1]
    base = min(value, standard)
    excess = value - base
    if payer is None:
        own = other = _share(scheme.self_draw, base, excess)
        received = 3 * other
    else:
        own = _share(scheme.own, base, excess)
        other = _share(scheme.other, base, excess)
        received = own + 2 * other
    # Built whole in seat order, as the response lists them: seats compared as numbers.
    return _PAID.put(key, {
        "E": _paid(_E, winner, payer_bits, received, own, other),
        "S": _paid(_S, winner, payer_bits, received, own, other),
        "W": _paid(_W, winner, payer_bits, received, own, other),
        "N": _paid(_N, winner, payer_bits, received, own, other),
    })  # fmt: skip


def _paid(seat: int, winner: int, payer: int, received: int, own: int, other: int) -> int:
    """What ``seat`` is paid (positive) or pays (negative), seats as their letters' bits."""
    if seat == winner:
        return received
    return -own if seat == payer else -other


def _share(factors: tuple[int, int], base: int, excess: int) -> int:
    return factors[0] * base + factors[1] * excess


# Each scheme's number, from 1 (0 stays free for none): in payments' key and the rules'.
SCHEME_NUMBERS: Final = {name: number for number, name in enumerate(SCHEMES, 1)}
_SCHEMES: Final = tuple(SCHEMES.values())
assert len(SCHEMES) < 16, "widen the scheme's bits in payments' key"
# Each seat by its letter's low three bits, as payments' key has it.
_E: Final = ord("E") & 7
_S: Final = ord("S") & 7
_W: Final = ord("W") & 7
_N: Final = ord("N") & 7

# Bounded, since clients choose the values and standard values (~450 bytes each, ~7 MB
# full). In slots alone (no dict to grow and empty), and more of them than a dict held
# (4,096): 24,000 generated hands are paid ~9,600 ways, and new hands met ones not kept
# before 44% of the time.
_PAID: Final[SlotMemo[dict[str, int]]] = SlotMemo(16_381)
