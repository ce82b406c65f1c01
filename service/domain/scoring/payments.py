"""What each player pays the winner under each payoff scheme (RULES.md §5)."""

from __future__ import annotations

from typing import Final

from ..memo import SlotMemo
from ..rules.hand import Rules, Win
from ..rules.schemes import SCHEMES


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


# Each scheme by its number (schemes.SCHEME_NUMBERS, the rules' ``scheme``) less one.
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
