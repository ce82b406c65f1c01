"""The payoff schemes as data: each is one entry of ``SCHEMES`` (RULES.md §5).

What a scheme makes each player pay is payments.py's; the rules hold their scheme's number
(``Rules.scheme``). The request schema, the CLI's choices, the catalogue and the test
generators all read ``SCHEMES``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


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

# Each scheme's number, from 1 (0 stays free for none): in payments' key and the rules'.
SCHEME_NUMBERS: Final = {name: number for number, name in enumerate(SCHEMES, 1)}
