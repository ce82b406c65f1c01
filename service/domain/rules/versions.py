"""The rule versions as data: each is one entry of ``VERSIONS`` (RULES.md §3).

A version gives every pattern it counts its value (per set for 3.1, per tile for 11.1.x); a
pattern missing from its ``values`` is not part of that version. ``forms`` names the patterns
that apply to other hand forms in this version than the catalogue's own (``Pattern.forms``).
The request schema, the CLI's choices, the catalogue, the contract's enum and the test
generators all read ``VERSIONS``: a new version or a variant is one more entry here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from .decompose import Form


@dataclass(frozen=True, slots=True)
class Version:
    name: str
    values: Mapping[str, int]
    forms: Mapping[str, frozenset[Form]] = field(default_factory=dict)


V3_3: Final = {
    "1.1": 5, "1.2": 5, "1.3": 5,
    "2.1.1": 40, "2.1.2": 80, "2.2": 480,
    "3.1": 10, "3.2.1": 40, "3.2.2": 130, "3.3.1": 30, "3.3.2": 120, "3.3.3": 320,
    "3.3.4": 400, "3.4": 320,
    "4.1": 30, "4.2.1": 5, "4.2.2": 30, "4.2.3": 125, "4.3.1": 5, "4.3.2": 20, "4.3.3": 120,
    "4.3.4": 480,
    "5.1.1": 10, "5.1.2": 60, "5.1.3": 120, "5.1.4": 480,
    "6.1": 35, "6.2.1": 30, "6.2.2": 120,
    "7.1": 40, "7.2.1": 100, "7.2.2": 200,
    "8.1.1": 40, "8.1.2": 50, "8.1.3": 100, "8.1.4": 400,
    "9.1.1": 10, "9.1.2": 10, "9.2": 10, "9.3": 10, "9.4.1": 155, "9.4.2": 155,
    "10.1": 160, "10.2": 30,
    "11.1.1": 2, "11.1.2": 4, "11.2.1": 10, "11.2.2": 10,
}  # fmt: skip

V2_51_CHANGES: Final = {
    "2.1.2": 100, "3.3.1": 25, "4.1": 40, "4.2.2": 25, "4.2.3": 115, "5.1.2": 55, "6.2.1": 25,
    "9.2": 15, "9.3": 15, "9.4.1": 320, "9.4.2": 320, "10.1": 320, "10.2": 25,
}  # fmt: skip

# The first is the default.
VERSIONS: Final = {
    version.name: version
    for version in (
        Version("3.3", V3_3),
        Version(
            "2.51",
            V3_3 | V2_51_CHANGES,
            # RULES.md §4.5: in v2.51 Seven Pairs is always a Concealed Hand too, and so is
            # Thirteen Terminals, which cannot be melded.
            forms={"1.2": frozenset({"standard", "seven_pairs", "thirteen_terminals"})},
        ),
    )
}
DEFAULT_VERSION: Final = next(iter(VERSIONS))
