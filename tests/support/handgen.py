"""Seeded generator of distinct, legal, winning POST /v1/score requests (API.md payloads).

Why a generator rather than a fixture file: the benchmark needs >= 10,000 distinct hands in a
realistic mix, and the property tests need the same hands as hypothesis strategies. So every
building block here takes a ``random.Random``-like ``rng`` (only ``random``, ``randrange``,
``choice``, ``sample`` and ``shuffle`` are used, which hypothesis' ``st.randoms()`` objects
also provide) and ``tests.support.strategies`` drives the very same functions.

Hands are built from their answer, never searched for: four sets and a pair (some of the sets
then declared as melds, kongs included), seven pairs, or thirteen terminals, so each is a
winning hand by construction. The win context is then drawn among the contexts legal for that
hand (RULES.md §4.11-13, API.md ``win``): kong_replacement only with a kong on a self-draw,
robbing_kong only on a discard when the winner holds no other copy, first_turn only without
melds (East by self-draw, another seat on East's discard), last_tile never with those two.

Families: ``standard`` is sets and a pair drawn from the whole tile set; the pattern-rich
families (one-suit, honours, identical or similar sets, straights, terminals, consecutive
pungs, all triplets, Nine Gates shapes) bias the draw towards hands with many readings and
many patterns, which is where the scorer does the most work.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from service.domain.rules.patterns import CATALOGUE
from service.domain.rules.schemes import SCHEMES
from service.domain.rules.versions import VERSIONS

__all__ = [
    "FAMILIES",
    "PATTERN_RICH",
    "Drawn",
    "Shape",
    "canonical_key",
    "draw",
    "draw_house_rules",
    "draw_shape",
    "generate",
    "generate_labelled",
]


class Rng(Protocol):
    """The part of ``random.Random`` the generator uses (hypothesis' randoms have it too)."""

    def random(self) -> float: ...
    def randrange(self, start: int, stop: int = ..., step: int = ...) -> int: ...
    def choice(self, seq: Sequence[Any]) -> Any: ...
    def sample(self, population: Sequence[Any], k: int) -> list[Any]: ...
    def shuffle(self, x: list[Any]) -> None: ...


# --- tiles: ints 0-33 as in service.domain.rules.tiles (1m-9m, 1p-9p, 1s-9s, 1z-7z) --------------

SUITS = "mpsz"
SEATS = "ESWN"
EAST, WHITE = 27, 31
HONOURS = tuple(range(27, 34))
WINDS = tuple(range(27, 31))
DRAGONS = tuple(range(31, 34))
TERMINALS = (0, 8, 9, 17, 18, 26)
ORPHANS = (*TERMINALS, *HONOURS)
ALL_TILES = tuple(range(34))


def suit_tiles(suit: int) -> tuple[int, ...]:
    return tuple(range(suit * 9, suit * 9 + 9))


def compact(tiles: Sequence[int]) -> str:
    """Canonical sorted mpsz notation ("123m55z"); kept here so bench never needs service."""
    out: list[str] = []
    run = -1
    for tile in sorted(tiles):
        if tile // 9 != run and run >= 0:
            out.append(SUITS[run])
        run = tile // 9
        out.append(str(tile % 9 + 1))
    if run >= 0:
        out.append(SUITS[run])
    return "".join(out)


def single(tile: int) -> str:
    return f"{tile % 9 + 1}{SUITS[tile // 9]}"


# --- sets and shapes -------------------------------------------------------------------------

Group = tuple[str, int]  # ("chow" | "pung", lowest tile)


def group_tiles(group: Group) -> tuple[int, ...]:
    kind, tile = group
    return (tile, tile + 1, tile + 2) if kind == "chow" else (tile, tile, tile)


def _add(counts: list[int], group: Group) -> bool:
    """Add a set if no tile goes past 4 copies; True if added."""
    tiles = group_tiles(group)
    if any(counts[x] + tiles.count(x) > 4 for x in set(tiles)):
        return False
    for x in tiles:
        counts[x] += 1
    return True


def _chow_bases(pool: Sequence[int]) -> list[int]:
    return [x for x in pool if x < EAST and x % 9 <= 6 and x + 1 in pool and x + 2 in pool]


def _fill(
    rng: Rng, counts: list[int], sets: list[Group], pool: Sequence[int], chow_share: float = 0.6
) -> bool:
    """Complete ``sets`` to four with random chows and pungs from ``pool``."""
    bases = _chow_bases(pool)
    for _ in range(60):
        if len(sets) == 4:
            return True
        if bases and rng.random() < chow_share:
            group: Group = ("chow", rng.choice(bases))
        else:
            group = ("pung", rng.choice(pool))
        if _add(counts, group):
            sets.append(group)
    return len(sets) == 4


def _pair(rng: Rng, counts: list[int], pool: Sequence[int]) -> int | None:
    free = [x for x in pool if counts[x] <= 2]
    if not free:
        return None
    tile: int = rng.choice(free)
    counts[tile] += 2
    return tile


def _seeded(rng: Rng, groups: list[Group]) -> tuple[list[int], list[Group]] | None:
    counts = [0] * 34
    for group in groups:
        if not _add(counts, group):
            return None
    return counts, list(groups)


# Each flavour returns four sets and a pair, or None when its draw did not fit (retried).
Flavour = Callable[[Rng], tuple[list[Group], int] | None]


def _finish(
    rng: Rng,
    seeded: tuple[list[int], list[Group]] | None,
    pool: Sequence[int] = ALL_TILES,
    pair_pool: Sequence[int] | None = None,
    chow_share: float = 0.6,
) -> tuple[list[Group], int] | None:
    if seeded is None:
        return None
    counts, sets = seeded
    if not _fill(rng, counts, sets, pool, chow_share):
        return None
    pair = _pair(rng, counts, pair_pool or pool)
    return None if pair is None else (sets, pair)


def _standard(rng: Rng) -> tuple[list[Group], int] | None:
    return _finish(rng, _seeded(rng, []))


def _one_suit(rng: Rng) -> tuple[list[Group], int] | None:
    pool = suit_tiles(rng.randrange(3))
    if rng.random() < 0.4:  # mixed one-suit: the suit and honours
        pool = (*pool, *HONOURS)
    return _finish(rng, _seeded(rng, []), pool, chow_share=0.5)


def _honours(rng: Rng) -> tuple[list[Group], int] | None:
    # Dragons and winds (Three Dragons, Three/Four Winds, All Honors, Value Honor).
    honour_pungs = [("pung", x) for x in rng.sample(HONOURS, rng.choice((2, 3, 3, 4)))]
    pair_pool = HONOURS if rng.random() < 0.6 else ALL_TILES
    return _finish(rng, _seeded(rng, honour_pungs), pair_pool=pair_pool)


def _identical_chows(rng: Rng) -> tuple[list[Group], int] | None:
    base = rng.choice(_chow_bases(ALL_TILES))
    groups = [("chow", base)] * rng.choice((2, 2, 3, 4))
    if len(groups) == 2 and rng.random() < 0.5:  # twice
        groups += [("chow", rng.choice(_chow_bases(ALL_TILES)))] * 2
    return _finish(rng, _seeded(rng, groups))


def _similar(rng: Rng) -> tuple[list[Group], int] | None:
    number = rng.randrange(9)
    roll = rng.random()
    if roll < 0.45 and number <= 6:  # Three Similar Sequences
        groups = [("chow", suit * 9 + number) for suit in range(3)]
        return _finish(rng, _seeded(rng, groups))
    if roll < 0.75:  # Three Similar Triplets
        groups = [("pung", suit * 9 + number) for suit in range(3)]
        return _finish(rng, _seeded(rng, groups))
    # Small Three Similar Triplets: the pair is the third suit's.
    suits = rng.sample((0, 1, 2), 3)
    seeded = _seeded(rng, [("pung", suits[0] * 9 + number), ("pung", suits[1] * 9 + number)])
    return _finish(rng, seeded, pair_pool=[suits[2] * 9 + number])


def _straight(rng: Rng) -> tuple[list[Group], int] | None:
    suit = rng.randrange(3)
    groups = [("chow", suit * 9 + offset) for offset in (0, 3, 6)]
    return _finish(rng, _seeded(rng, groups))


def _terminals(rng: Rng) -> tuple[list[Group], int] | None:
    # Lesser/Greater Terminals: every set and the pair hold a terminal or an honour.
    pungs_only = rng.random() < 0.35
    pool = [("pung", x) for x in ORPHANS]
    if not pungs_only:
        pool += [("chow", suit * 9 + offset) for suit in range(3) for offset in (0, 6)]
    if rng.random() < 0.4:  # no honours: the pure variants
        pool = [group for group in pool if group[1] < EAST]
    pair_pool = sorted({tile for group in pool for tile in group_tiles(group) if tile in ORPHANS})
    seeded = _seeded(rng, rng.sample(pool, 4))
    return _finish(rng, seeded, pair_pool=pair_pool)


def _consecutive_pungs(rng: Rng) -> tuple[list[Group], int] | None:
    run = rng.choice((3, 3, 4))
    start = rng.randrange(3) * 9 + rng.randrange(10 - run)
    groups = [("pung", start + i) for i in range(run)]
    return _finish(rng, _seeded(rng, groups))


def _triplets(rng: Rng) -> tuple[list[Group], int] | None:
    return _finish(rng, _seeded(rng, []), chow_share=0.0)


FLAVOURS: dict[str, Flavour] = {
    "standard": _standard,
    "one_suit": _one_suit,
    "honours": _honours,
    "identical_chows": _identical_chows,
    "similar": _similar,
    "straight": _straight,
    "terminals": _terminals,
    "consecutive_pungs": _consecutive_pungs,
    "triplets": _triplets,
}

# Family -> weight in the default mix. Everything but the first and the two irregular forms is
# "pattern-rich" (about 45% of the mix).
FAMILIES: dict[str, int] = {
    "standard": 45,
    "one_suit": 8,
    "honours": 6,
    "identical_chows": 6,
    "similar": 6,
    "straight": 4,
    "terminals": 5,
    "consecutive_pungs": 4,
    "triplets": 4,
    "nine_gates": 3,
    "seven_pairs": 7,
    "thirteen_terminals": 2,
}
PATTERN_RICH = frozenset(FAMILIES) - {"standard", "seven_pairs", "thirteen_terminals"}


@dataclass(frozen=True, slots=True)
class Shape:
    """A won hand's tiles: ``concealed`` (hand.tiles, winning tile included) and melds."""

    family: str
    concealed: tuple[int, ...]
    melds: tuple[tuple[str, tuple[int, ...], bool], ...]  # (kind, tiles, concealed)
    winning_tile: int

    def counts(self) -> list[int]:
        table = [0] * 34
        for tile in self.concealed:
            table[tile] += 1
        for _, tiles, _ in self.melds:
            for tile in tiles:
                table[tile] += 1
        return table


def _weighted(rng: Rng, weights: dict[str, int]) -> str:
    roll = rng.random() * sum(weights.values())
    for name, weight in weights.items():
        roll -= weight
        if roll < 0:
            return name
    return next(iter(weights))


_MELD_COUNT_WEIGHTS = {"0": 35, "1": 25, "2": 20, "3": 12, "4": 8}


def _declare(rng: Rng, family: str, sets: list[Group], pair: int) -> Shape:
    """Declare some of the sets as melds (pungs maybe upgraded to kongs), keep the rest."""
    counts = [0] * 34
    for group in sets:
        for tile in group_tiles(group):
            counts[tile] += 1
    counts[pair] += 2
    declared = set(rng.sample(range(4), int(_weighted(rng, _MELD_COUNT_WEIGHTS))))
    melds: list[tuple[str, tuple[int, ...], bool]] = []
    concealed = [pair, pair]
    for index, group in enumerate(sets):
        kind, tile = group
        if index not in declared:
            concealed.extend(group_tiles(group))
        elif kind == "pung" and counts[tile] == 3 and rng.random() < 0.35:
            counts[tile] = 4
            melds.append(("kong", (tile,) * 4, rng.random() < 0.4))
        else:
            melds.append((kind, group_tiles(group), False))
    winning = rng.choice(concealed)
    return Shape(family, tuple(sorted(concealed)), tuple(melds), winning)


def _nine_gates(rng: Rng) -> Shape:
    """1112345678999 of a suit plus any tile of it: many readings, Nine Gates on that tile."""
    suit = rng.randrange(3)
    base = [suit * 9 + n for n in (0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8)]
    extra = suit * 9 + rng.randrange(9)
    tiles = sorted([*base, extra])
    winning = extra if rng.random() < 0.7 else rng.choice(tiles)
    return Shape("nine_gates", tuple(tiles), (), winning)


def _seven_pairs(rng: Rng) -> Shape:
    roll = rng.random()
    if roll < 0.25:  # one suit (with honours sometimes): One-Suit patterns on seven pairs
        pool: Sequence[int] = suit_tiles(rng.randrange(3))
        if rng.random() < 0.5:
            pool = (*pool, *HONOURS)
    elif roll < 0.35:
        pool = HONOURS
    elif roll < 0.45:
        pool = ORPHANS
    else:
        pool = ALL_TILES
    fours = rng.choice((0, 0, 0, 1, 1, 2))  # four alike counted as two pairs
    kinds = rng.sample(pool, 7 - fours)
    tiles = sorted(kinds * 2 + kinds[:fours] * 2)
    return Shape("seven_pairs", tuple(tiles), (), rng.choice(tiles))


def _thirteen_terminals(rng: Rng) -> Shape:
    tiles = sorted([*ORPHANS, rng.choice(ORPHANS)])
    return Shape("thirteen_terminals", tuple(tiles), (), rng.choice(tiles))


def draw_shape(rng: Rng, family: str | None = None) -> Shape:
    """A winning hand's tiles of ``family`` (drawn from the default mix when None)."""
    family = family or _weighted(rng, FAMILIES)
    if family == "nine_gates":
        return _nine_gates(rng)
    if family == "seven_pairs":
        return _seven_pairs(rng)
    if family == "thirteen_terminals":
        return _thirteen_terminals(rng)
    flavour = FLAVOURS[family]
    for _ in range(50):
        drawn = flavour(rng)
        if drawn is not None:
            return _declare(rng, family, *drawn)
    # A flavour whose draws kept colliding (vanishingly rare): any standard hand will do.
    for _ in range(1000):
        drawn = _standard(rng)
        if drawn is not None:
            return _declare(rng, family, *drawn)
    raise RuntimeError("could not draw a standard hand")  # pragma: no cover


# --- win context and rules -------------------------------------------------------------------

# v2.51's four schemes: the house rule formal_double is drawn by draw_house_rules only, so that
# the benchmark's hands stay the same.
PAYOFFS = tuple(name for name, scheme in SCHEMES.items() if not scheme.house)
WIN_DEFAULTS: dict[str, Any] = {
    "discarder": None,
    "last_tile": False,
    "kong_replacement": False,
    "robbing_kong": False,
    "first_turn": False,
    "responsible": None,
    "pay_as_self_draw": False,
}
RULE_DEFAULTS: dict[str, Any] = {
    "version": "3.3",
    "payoff": "formal",
    "standard_value": 25,
    "minimum": 0,
    "bonus_tiles": False,
}


def draw_win(rng: Rng, shape: Shape) -> dict[str, Any]:
    """A win context legal for this hand (every field, defaults included)."""
    win: dict[str, Any] = {"by": "", "seat": rng.choice(SEATS), **WIN_DEFAULTS}
    if not shape.melds and rng.random() < 0.08:  # Blessing of Heaven / of Earth
        win["first_turn"] = True
        if win["seat"] == "E":
            win["by"] = "self_draw"
        else:
            win["by"], win["discarder"] = "discard", "E"
        return win
    if rng.random() < 0.4:
        win["by"] = "self_draw"
        has_kong = any(kind == "kong" for kind, _, _ in shape.melds)
        win["kong_replacement"] = has_kong and rng.random() < 0.4
    else:
        win["by"] = "discard"
        win["discarder"] = rng.choice([s for s in SEATS if s != win["seat"]])
        only_copy = shape.counts()[shape.winning_tile] == 1
        win["robbing_kong"] = only_copy and rng.random() < 0.3
        roll = rng.random()
        if roll < 0.1:
            win["responsible"] = rng.choice([s for s in SEATS if s != win["seat"]])
        elif roll < 0.15:
            win["pay_as_self_draw"] = True
    win["last_tile"] = not win["robbing_kong"] and rng.random() < 0.1
    return win


def draw_rules(rng: Rng) -> dict[str, Any]:
    """Rules (every field): both versions, every payoff scheme, sometimes the bonus-tile mod.

    The minimum stays 0: a hand below a minimum is refused (422), and these must all score.
    """
    return {
        "version": rng.choice(list(VERSIONS)),
        "payoff": rng.choice(PAYOFFS),
        "standard_value": 25 if rng.random() < 0.8 else 1 + rng.randrange(100),
        "minimum": 0,
        "bonus_tiles": rng.random() < 0.2,
    }


# Never the irregular hands: a hand drawn as Seven Pairs must still win.
EXCLUDABLE = tuple(p.id for p in CATALOGUE if p.irregular_hand is None)
HOUSE_VALUES = (0, 1, 5, 10, 40, 100, 200, 320, 500, 10_000)


def draw_house_rules(rng: Rng) -> dict[str, Any]:
    """House rules (API.md): some values changed, some patterns excluded, sometimes another
    chicken value, limit or payoff (formal_double included). No minimum: the hand must win."""
    rules: dict[str, Any] = {
        "version": rng.choice(list(VERSIONS)),
        "values": {
            pattern.id: rng.choice(HOUSE_VALUES)
            for pattern in rng.sample(CATALOGUE, rng.randrange(8))
        },
        "exclude": rng.sample(EXCLUDABLE, rng.randrange(4)),
        "payoff": rng.choice(list(SCHEMES)),
    }
    if rng.random() < 0.5:
        rules["chicken"] = rng.randrange(6)
    if rng.random() < 0.5:
        rules["limit"] = rng.choice((40, 100, 200, 320, 1000, 10_000))
    return rules


# --- the request -----------------------------------------------------------------------------


class Drawn(NamedTuple):
    """One generated request: its family, its canonical key (for dedupe) and the payload."""

    family: str
    key: str
    payload: dict[str, Any]


def canonical_key(
    shape: Shape,
    win: dict[str, Any],
    rules: dict[str, Any],
    flowers: Sequence[int],
    seasons: Sequence[int],
) -> str:
    """What makes two requests the same question, whatever notation or defaults they use."""
    melds = sorted((kind, list(tiles), hidden) for kind, tiles, hidden in shape.melds)
    return json.dumps(
        [
            sorted(shape.concealed),
            melds,
            shape.winning_tile,
            win,
            rules,
            sorted(flowers),
            sorted(seasons),
        ],
        sort_keys=True,
    )


def _notation(rng: Rng, tiles: Sequence[int]) -> str | list[str]:
    """Mostly canonical compact notation; sometimes spaced groups or a list of single tiles."""
    roll = rng.random()
    if roll < 0.85:
        return compact(tiles)
    if roll < 0.92:
        groups = ([x for x in tiles if x // 9 == suit] for suit in range(4))
        return " ".join(compact(group) for group in groups if group)
    singles = [single(x) for x in tiles]
    rng.shuffle(singles)
    return singles


def _sparse(rng: Rng, values: dict[str, Any], defaults: dict[str, Any]) -> dict[str, Any]:
    """Drop fields left at their default about half of the time (clients do both)."""
    return {
        name: value
        for name, value in values.items()
        if value is not None and (value != defaults.get(name) or rng.random() < 0.3)
    }


def draw(rng: Rng, family: str | None = None) -> Drawn:
    """One legal winning score request (see the module docstring for what legal means)."""
    shape = draw_shape(rng, family)
    win = draw_win(rng, shape)
    rules = draw_rules(rng)
    flowers: list[int] = []
    seasons: list[int] = []
    if rules["bonus_tiles"]:
        flowers = rng.sample((1, 2, 3, 4), rng.randrange(5))
        seasons = rng.sample((1, 2, 3, 4), rng.randrange(5))
    key = canonical_key(shape, win, rules, flowers, seasons)

    hand: dict[str, Any] = {
        "tiles": _notation(rng, shape.concealed),
        "winning_tile": single(shape.winning_tile),
    }
    if shape.melds or rng.random() < 0.3:
        hand["melds"] = []
        for kind, tiles, hidden in shape.melds:
            meld: dict[str, Any] = {"kind": kind, "tiles": _notation(rng, tiles)}
            if hidden or (kind == "kong" and rng.random() < 0.5):
                meld["concealed"] = hidden
            hand["melds"].append(meld)
    if flowers or (rules["bonus_tiles"] and rng.random() < 0.5):
        hand["flowers"] = flowers
    if seasons or (rules["bonus_tiles"] and rng.random() < 0.5):
        hand["seasons"] = seasons
    payload: dict[str, Any] = {"hand": hand, "win": _sparse(rng, win, WIN_DEFAULTS)}
    sparse_rules = _sparse(rng, rules, RULE_DEFAULTS)
    if sparse_rules or rng.random() < 0.2:
        payload["rules"] = sparse_rules
    return Drawn(shape.family, key, payload)


def generate_labelled(n: int, seed: int = 0, families: dict[str, int] | None = None) -> list[Drawn]:
    """``n`` distinct requests with their families, the same for the same seed."""
    rng = random.Random(seed)
    weights = families or FAMILIES
    seen: set[str] = set()
    out: list[Drawn] = []
    for _ in range(50 * n + 1000):  # bounded: duplicates are rare, never that many
        if len(out) == n:
            return out
        drawn = draw(rng, _weighted(rng, weights))
        if drawn.key not in seen:
            seen.add(drawn.key)
            out.append(drawn)
    raise RuntimeError(f"only {len(out)} distinct hands after many draws; asked for {n}")


def generate(n: int, seed: int = 0) -> list[dict[str, Any]]:
    """``n`` distinct legal winning score requests, deterministic for a given ``seed``."""
    return [drawn.payload for drawn in generate_labelled(n, seed)]


# Hand analysis (POST /v1/discards): hands after their draw, of the three kinds a trainer
# meets, in equal parts: random deals (far from ready), near-ready hands (a winning hand with
# one tile swapped for another) and hands with melds (a winning hand's melds kept, one or
# two of its concealed tiles swapped).
ANALYSIS_KINDS = ("deal", "near_ready", "melds")


def draw_analysis(rng: Rng, kind: str) -> dict[str, Any]:
    """One legal /v1/discards request (14 tiles with the melds) of ``kind``."""
    if kind == "deal":
        wall = [tile for tile in range(34) for _ in range(4)]
        return {"hand": {"tiles": compact(sorted(rng.sample(wall, 14)))},
                "win": {"seat": rng.choice("ESWN")}}  # fmt: skip
    for _ in range(1000):
        shape = draw_shape(rng)
        if kind == "near_ready" or shape.melds:
            break
    counts = shape.counts()
    held = list(shape.concealed)
    for _ in range(1 if kind == "near_ready" else rng.choice((1, 2))):
        counts[held.pop(rng.randrange(len(held)))] -= 1
        tile = rng.choice([tile for tile in range(34) if counts[tile] < 4])
        counts[tile] += 1
        held.append(tile)
    melds = [
        {"kind": meld_kind, "tiles": compact(tiles), "concealed": hidden}
        for meld_kind, tiles, hidden in shape.melds
    ]
    return {"hand": {"tiles": compact(sorted(held)), "melds": melds},
            "win": {"seat": rng.choice("ESWN")}}  # fmt: skip


def generate_analysis(n: int, seed: int = 0) -> list[tuple[str, dict[str, Any]]]:
    """``n`` /v1/discards requests as (kind, payload), the kinds in turn, the same for a seed."""
    rng = random.Random(seed)
    return [(ANALYSIS_KINDS[i % 3], draw_analysis(rng, ANALYSIS_KINDS[i % 3])) for i in range(n)]
