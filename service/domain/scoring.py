"""Scoring a won hand: every arrangement, every pattern, the best count and the limit."""

from __future__ import annotations

from functools import cache
from typing import Final, Literal

from . import tiles as t
from .decompose import Arrangement, Form, arrangements
from .errors import Problem
from .hand import Hand, Meld, Rules, Win, check_context, check_winning_tile, declared_melds
from .patterns import CATALOGUE, VERSIONS, Pattern, Predicate, Situation

LIMIT: Final = 320
Limit = Literal["none", "capped", "single_pattern"]


class Counted:
    """A pattern held by the hand: its value in the version in force, ``times`` over."""

    __slots__ = ("pattern", "reason", "times", "value")

    def __init__(self, pattern: Pattern, value: int, times: int, reason: str) -> None:
        self.pattern: Final = pattern
        self.value: Final = value
        self.times: Final = times
        self.reason: Final = reason

    @property
    def points(self) -> int:
        return self.value * self.times


CHICKEN = Pattern(
    "0", "Chicken Hand", "雞糊", "Chicken Hand", {v: 1 for v in VERSIONS},
    "A winning hand with no pattern scores 1 point.", lambda arrangement, hand: None,
)  # fmt: skip


class Score:
    """The best reading of a won hand and what it is worth."""

    __slots__ = ("arrangement", "limit", "not_counted", "patterns", "points", "score", "situation")

    def __init__(
        self,
        arrangement: Arrangement,
        situation: Situation,
        patterns: tuple[Counted, ...],
        not_counted: tuple[Counted, ...],
        points: int,
        limit: Limit,
        score: int,
    ) -> None:
        self.arrangement: Final = arrangement
        self.situation: Final = situation
        self.patterns: Final = patterns
        self.not_counted: Final = not_counted
        self.points: Final = points
        self.limit: Final = limit
        self.score: Final = score


_Step = tuple[Predicate, Pattern, int, bool]  # predicate, pattern, value, stacks
_PlanKey = tuple[str, Form, bool, int]  # version, form, bonus tiles, features


@cache
def _plan(key: _PlanKey) -> tuple[tuple[_Step, ...], ...]:
    """The patterns that can apply, as series in id order, each from its most valuable down.

    Patterns whose ``needs`` the hand lacks are left out. Stacking series (bonus tiles) keep
    id order: all their patterns count. Steps are plain tuples: this loop is the hottest of
    the service, and there are only a few dozen distinct plans.
    """
    version, form, bonus_tiles, features = key
    series: dict[str, list[Pattern]] = {}
    for pattern in CATALOGUE:
        if (
            pattern.applies_to(form, version)
            and (bonus_tiles or not pattern.bonus)
            and pattern.needs & features == pattern.needs
        ):
            series.setdefault(pattern.series, []).append(pattern)
    return tuple(
        tuple(
            (p.predicate, p, p.values[version], p.stacks)
            for p in (
                members if members[0].stacks else sorted(members, key=lambda p: -p.values[version])
            )
        )
        for members in series.values()
    )


def held_patterns(arrangement: Arrangement, hand: Situation) -> list[Counted]:
    """The patterns this arrangement holds, in id order: one per series but bonus tiles."""
    rules = hand.rules
    key = (rules.version, arrangement.form, rules.bonus_tiles, arrangement.features | hand.features)
    found = []
    for series in _plan(key):
        for predicate, pattern, value, stacks in series:
            hit = predicate(arrangement, hand)
            if hit is not None:
                found.append(Counted(pattern, value, hit.times, hit.reason))
                if not stacks:
                    break
    return found


def apply_limit(held: list[Counted]) -> tuple[tuple[Counted, ...], tuple[Counted, ...], Limit]:
    """Counted and not-counted patterns and the limit that applies (RULES.md §2).

    A pattern listed at 320 or more is scored alone: the highest, ties to the lowest id.
    """
    limit_patterns = [counted for counted in held if counted.value >= LIMIT]
    if limit_patterns:
        best = max(limit_patterns, key=lambda c: (c.value, [-n for n in c.pattern.key]))
        return (best,), tuple(c for c in held if c is not best), "single_pattern"
    if not held:
        return (Counted(CHICKEN, 1, 1, "no pattern"),), (), "none"
    if sum(counted.points for counted in held) > LIMIT:
        return tuple(held), (), "capped"
    return tuple(held), (), "none"


def score_arrangement(arrangement: Arrangement, hand: Situation) -> Score:
    counted, not_counted, limit = apply_limit(held_patterns(arrangement, hand))
    points = sum(c.points for c in counted)
    score = LIMIT if limit == "capped" else points
    return Score(arrangement, hand, counted, not_counted, points, limit, score)


def score(hand: Hand, win: Win, rules: Rules) -> Score:
    """The highest-scoring reading of a won hand; raises Problem for an illegal one."""
    melds = declared_melds(hand)
    check_winning_tile(hand)
    check_context(hand, melds, win, rules)
    return best_score(hand, melds, win, rules)


def best_score(hand: Hand, melds: tuple[Meld, ...], win: Win, rules: Rules) -> Score:
    """Freedom of count: every arrangement is scored and the best kept, never mixed.

    Ties keep the first reading found; triplets are tried before chows, so an equal-valued
    triplet reading is the one reported.
    """
    readings = arrangements(hand.tiles, melds, hand.winning_tile, on_discard=not win.self_drawn)
    if not readings:
        raise Problem.at(
            "not_a_winning_hand",
            "hand.tiles",
            f"{t.compact(hand.tiles)} with {len(melds)} melds forms no winning hand: four sets"
            " and a pair, Seven Pairs or Thirteen Terminals",
        )
    situation = Situation(hand, melds, win, rules)
    best: Score | None = None
    for arrangement in readings:
        candidate = score_arrangement(arrangement, situation)
        if best is None or (candidate.score, candidate.points) > (best.score, best.points):
            best = candidate
    assert best is not None
    if best.score < rules.minimum:
        raise BelowMinimum(best)
    return best


class BelowMinimum(Problem):
    """A won hand worth less than the minimum mod allows (RULES.md §4.16)."""

    def __init__(self, best: Score) -> None:
        minimum = best.situation.rules.minimum
        super().__init__(
            "below_minimum",
            f"the hand scores {best.score}, below the minimum of {minimum} (rules.minimum)",
            [{"path": "rules.minimum", "message": f"the hand scores {best.score} < {minimum}"}],
        )
        self.score = best
