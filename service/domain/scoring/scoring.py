"""Scoring a won hand: every arrangement, every pattern, the best count and the limit."""

from __future__ import annotations

from typing import Final, Literal

from mypy_extensions import i64

from ..errors import NotAWinningHand, ScoringError
from ..rules import tiles as t
from ..rules.decompose import Arrangement, arrangements
from ..rules.features import PLANNED
from ..rules.hand import Hand, Meld, Rules, Win, check_context, check_winning_tile, declared_melds
from ..rules.patterns import Counted, Example, Hit, Pattern, Predicate, Situation, count

Limit = Literal["none", "capped", "single_pattern"]


class _NoPattern(Predicate):
    """The Chicken Hand's, never asked: a hand is one when no other pattern holds."""

    def hit(self, arrangement: Arrangement, hand: Situation) -> Hit | None:
        return None


CHICKEN = Pattern(
    "0", "Chicken Hand", "雞糊", "Chicken Hand",
    "A winning hand with no pattern scores 1 point (rules.chicken).",
    _NoPattern(),
    Example("456p789s55s222z", "5s", melds=(("chow", "123m"),)),
)  # fmt: skip
_NO_PATTERN: Final = Hit(1, "no pattern")


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


def held_patterns(arrangement: Arrangement, hand: Situation) -> list[Counted]:
    """The patterns this arrangement holds, in id order: one per series but bonus tiles."""
    table = hand.table
    features: i64 = arrangement.features | hand.features  # native: checked at every step
    key = features & PLANNED | arrangement.plan_bits | hand.plan_bits
    plan = table.plans.get(key)
    if plan is None:
        plan = table.plan(key)
    found = []
    for series in plan:
        for step in series:
            checks = step.checks
            if checks & features != checks:
                continue
            hit = step.predicate.hit(arrangement, hand)
            if hit is not None:
                found.append(step.counted(hit))
                if not step.stacks:
                    break
    return found


def apply_limit(
    held: list[Counted], rules: Rules
) -> tuple[tuple[Counted, ...], tuple[Counted, ...], Limit]:
    """Counted and not-counted patterns and the limit that applies (RULES.md §2, §6).

    A hand with no pattern is a Chicken Hand worth ``rules.chicken``. A pattern valued at the
    limit or more is scored alone: the one worth the most points (value x count: they differ
    for 3.1 and 11.1.x only), ties to the lowest id; ``held`` is in id order.
    """
    if not held:
        held = [count(_NO_PATTERN, CHICKEN, rules.chicken)]
    limit = rules.limit
    best: Counted | None = None
    for counted in held:
        if counted.value >= limit and (best is None or counted.points > best.points):
            best = counted
    if best is not None:
        return (best,), tuple([c for c in held if c is not best]), "single_pattern"
    every = tuple(held)
    return every, (), "capped" if _points(every) > limit else "none"


def _points(counted: tuple[Counted, ...]) -> int:
    total = 0
    for each in counted:  # a loop: compiled, a generator costs more than the sum
        total += each.points
    return total


def score_arrangement(arrangement: Arrangement, hand: Situation) -> Score:
    rules = hand.rules
    counted, not_counted, limit = apply_limit(held_patterns(arrangement, hand), rules)
    points = _points(counted)
    score = rules.limit if limit == "capped" else points
    return Score(arrangement, hand, counted, not_counted, points, limit, score)


def score(hand: Hand, win: Win, rules: Rules) -> Score:
    """The highest-scoring reading of a won hand; raises a ScoringError for an illegal one."""
    melds = declared_melds(hand)
    check_winning_tile(hand)
    check_context(hand, melds, win, rules)
    return best_score(hand, melds, win, rules)


def best_score(hand: Hand, melds: tuple[Meld, ...], win: Win, rules: Rules) -> Score:
    """Freedom of count: every arrangement is scored and the best kept, never mixed.

    Ties keep the first reading found; triplets are tried before chows, so an equal-valued
    triplet reading is the one reported.
    """
    situation = Situation(hand, melds, win, rules)
    best: Score | None = None
    for arrangement in readings(situation):
        candidate = score_arrangement(arrangement, situation)
        if (
            best is None
            or candidate.score > best.score
            or (candidate.score == best.score and candidate.points > best.points)
        ):
            best = candidate
    assert best is not None
    if best.score < rules.minimum:
        raise BelowMinimum(best)
    return best


def readings(situation: Situation) -> list[Arrangement]:
    """Every arrangement of the hand that wins under its rules; raises ``not_a_winning_hand``
    if there is none."""
    hand = situation.hand
    found = arrangements(
        hand.held, situation.melds, hand.winning_tile, not situation.win.self_drawn
    )
    wins = situation.table.wins
    if len(wins) < len(WAYS):  # an irregular hand excluded, or missing from the version
        found = [reading for reading in found if reading.form in wins]
    if not found:
        ways = [way for form, way in WAYS.items() if form in wins]
        melds = len(situation.melds)
        raise NotAWinningHand.at(
            "hand.tiles",
            f"{t.compact(hand.tiles)} with {melds} meld{'' if melds == 1 else 's'} forms no"
            " winning hand: "
            + (f"{', '.join(ways[:-1])} or {ways[-1]}" if len(ways) > 1 else ways[0]),
        )
    return found


def ranked(situation: Situation) -> list[Score]:
    """Every reading of the hand scored, best first: the first is the one ``best_score``
    keeps (the sort is stable, so ties stay in the order found, as there), the others are
    what an explained score shows against it.

    Readings differ in their sets or in which set the winning tile completed; two identical
    sets the winning tile could complete make one reading, not two (``arrangements``).
    """
    scored = [score_arrangement(arrangement, situation) for arrangement in readings(situation)]
    scored.sort(key=_worth, reverse=True)
    return scored


def _worth(score: Score) -> tuple[int, int]:
    return score.score, score.points


WAYS: Final = {
    "standard": "four sets and a pair",
    "seven_pairs": "Seven Pairs",
    "thirteen_terminals": "Thirteen Terminals",
}


class BelowMinimum(ScoringError):
    """A won hand worth less than the minimum mod allows (RULES.md §4.16); ``score`` is its
    best reading, which the answer shows."""

    code = "below_minimum"

    def __init__(self, best: Score) -> None:
        minimum = best.situation.rules.minimum
        super().__init__(
            f"the hand scores {best.score}, below the minimum of {minimum} (rules.minimum)",
            [{"path": "rules.minimum", "message": f"the hand scores {best.score} < {minimum}"}],
        )
        self.score = best
