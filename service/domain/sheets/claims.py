"""Claimed hands (API.md "Score sheets"): a hand scored from the patterns a table agreed on,
without its tiles, by the same rules as a hand with tiles (RULES.md §2-§6).

A claim is checked before it is scored: every entry must be a pattern the rules in force count,
at most one of a series (bonus tiles stack), with a count only where a pattern counts per set
or per tile and no more than a hand can hold, an irregular hand only with the patterns it can
hold, a win-related pattern only where the win allows it, and bonus tiles only under their mod.
Each fault is an ``InvalidClaim`` at the offending entry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final

from ..errors import ScoringError
from ..rules.decompose import Form
from ..rules.hand import Rules, Win, check_go_around, check_way
from ..rules.patterns import BY_ID, Counted, Pattern, table_for
from ..scoring.scoring import CHICKEN, Limit, apply_limit

# The most of each countable pattern a hand can hold: a pung or kong of each dragon and of the
# seat wind (3.1); the flowers and seasons not proper to the seat, and the two that are (11.1).
MOST: Final = {"3.1": 4, "11.1.1": 6, "11.1.2": 2}
BONUS_TILES: Final = 8  # flowers and seasons in all


@dataclass(frozen=True, slots=True)
class Entry:
    """One claimed pattern: its id and, for a per-set or per-tile pattern, how many."""

    id: str
    count: int | None = None


@dataclass(frozen=True, slots=True)
class Claimed:
    """A claim scored: as a won hand's score, without the hand."""

    patterns: tuple[Counted, ...]
    not_counted: tuple[Counted, ...]
    points: int
    limit: Limit
    score: int
    rules: Rules


class InvalidClaim(ScoringError):
    """Patterns no hand could hold together, or that the rules in force do not count."""

    code = "invalid_claim"


class ClaimBelowMinimum(ScoringError):
    """A claim worth less than the minimum mod allows; ``claimed`` is shown with it."""

    code = "below_minimum"

    def __init__(self, claimed: Claimed) -> None:
        minimum = claimed.rules.minimum
        super().__init__(
            f"the claim scores {claimed.score}, below the minimum of {minimum} (rules.minimum)",
            [{"path": "rules.minimum", "message": f"the claim scores {claimed.score} < {minimum}"}],
        )
        self.claimed = claimed


def claim(entries: tuple[Entry, ...], win: Win, rules: Rules) -> Claimed:
    """The claim's score (one pattern per series, the limit, the chicken hand); raises
    ``InvalidClaim`` at the first entry no hand could hold, ``ClaimBelowMinimum`` under the
    minimum."""
    check_way(win)
    check_go_around(win, None)
    held = check(entries, win, rules)
    counted, not_counted, limit = apply_limit(held, rules)
    points = sum(c.points for c in counted)
    claimed = Claimed(
        counted, not_counted, points, limit, rules.limit if limit == "capped" else points, rules
    )
    if claimed.score < rules.minimum:
        raise ClaimBelowMinimum(claimed)
    return claimed


def check(entries: tuple[Entry, ...], win: Win, rules: Rules) -> list[Counted]:
    """The claimed patterns as counted ones, in id order, or the first fault."""
    if any(entry.id == CHICKEN.id for entry in entries):
        entries = _chicken(entries)
    table = table_for(rules)
    series: dict[str, int] = {}
    found: list[tuple[int, Pattern, int]] = []  # (entry index, pattern, count)
    for index, entry in enumerate(entries):
        pattern = BY_ID.get(entry.id)
        if pattern is None:
            raise _fault(index, "id", f"{entry.id!r} is not a pattern id (GET /v1/patterns)")
        if not table.counts(entry.id):
            why = "excluded" if entry.id in table.excluded else f"not part of v{rules.version}"
            raise _fault(index, "id", f"{_named(pattern)} is {why}")
        if any(pattern is seen for _, seen, _ in found):
            raise _fault(index, "id", f"{_named(pattern)} is claimed twice: give a count")
        if pattern.bonus and not rules.bonus_tiles:
            raise _fault(
                index, "id", f"{_named(pattern)} counts only with the bonus-tile mod:"
                " set rules.bonus_tiles to true"
            )  # fmt: skip
        if not pattern.stacks and pattern.series in series:
            other = entries[series[pattern.series]].id
            raise _fault(
                index, "id", f"{_named(pattern)} and {_named(BY_ID[other])} are of one series"
                f" ({pattern.series}): a hand counts one of them"
            )  # fmt: skip
        series.setdefault(pattern.series, index)
        found.append((index, pattern, _count(index, entry, pattern)))
    _check_bonus_tiles(found)
    _check_form(found, table.forms)
    _check_win(found, win, all(table.counts(id) for id in _KONGS))
    found.sort(key=lambda item: _ORDER[item[1].id])
    return [
        Counted(pattern, table.values[pattern.id], times, "claimed") for _, pattern, times in found
    ]


_ORDER: Final = {id: order for order, id in enumerate(BY_ID)}


def _chicken(entries: tuple[Entry, ...]) -> tuple[Entry, ...]:
    """A claimed Chicken Hand (``0``, as a score names it): a hand of no pattern, so claimed
    alone, once, it is the claim of no patterns."""
    for index, entry in enumerate(entries):
        if entry.id != CHICKEN.id:
            continue
        if len(entries) > 1:
            raise _fault(
                index, "id", "the Chicken Hand (0) is a hand with no other pattern: claim it"
                " alone, or claim no patterns"
            )  # fmt: skip
        if entry.count is not None:
            raise _fault(index, "count", "the Chicken Hand (0) is counted once: give no count")
    return ()


def _fault(index: int, field: str, message: str) -> InvalidClaim:
    return InvalidClaim.at(f"patterns[{index}].{field}", message)


def _named(pattern: Pattern) -> str:
    return f"{pattern.id} {pattern.name}"


def _count(index: int, entry: Entry, pattern: Pattern) -> int:
    most = MOST.get(pattern.id)
    if entry.count is None:
        return 1
    if most is None:
        raise _fault(
            index, "count", f"{_named(pattern)} is counted once: a count is only for"
            f" {', '.join(MOST)} (per set, per tile)"
        )  # fmt: skip
    if entry.count > most:
        raise _fault(index, "count", f"a hand holds at most {most} of {_named(pattern)}")
    return entry.count


def _check_bonus_tiles(found: list[tuple[int, Pattern, int]]) -> None:
    tiles = 0
    for index, pattern, times in found:
        if pattern.id in MOST and pattern.bonus:
            tiles += times
            if tiles > BONUS_TILES:
                raise _fault(index, "count", f"{tiles} flowers and seasons: there are 8")


def _check_form(
    found: list[tuple[int, Pattern, int]], forms: Mapping[str, frozenset[Form]]
) -> None:
    """An irregular hand (10.1, 10.2) holds only the patterns that apply to it (RULES.md
    §4.5-4.7), and a hand is one irregular hand at most."""
    irregular = [(index, p) for index, p, _ in found if p.irregular_hand is not None]
    if not irregular:
        return
    first, hand = irregular[0]
    form = hand.irregular_hand
    for index, pattern, _ in found:
        if index != first and form not in forms[pattern.id]:
            raise _fault(index, "id", f"{_named(hand)} cannot hold {_named(pattern)}")


# What each win-related pattern needs of the win (RULES.md §4.11-4.13), as a check and the
# message when the win contradicts it.
_WINS: Final[dict[str, tuple[Callable[[Win], bool], str]]] = {
    "9.1.1": (lambda w: w.self_drawn, "Final Draw is a self-drawn win: win.by is discard"),
    "9.1.2": (lambda w: not w.self_drawn, "Final Discard is a win on a discard: win.by is"
              " self_draw"),
    "9.2": (lambda w: w.self_drawn, "Win on Kong is a self-drawn win: win.by is discard"),
    "9.3": (lambda w: not w.self_drawn, "Robbing a Kong is a win on a discard: win.by is"
            " self_draw"),
    "9.4.1": (lambda w: w.seat == "E" and w.self_drawn, "Blessing of Heaven is East's"
              " self-drawn win on the dealt tiles"),
    "9.4.2": (lambda w: w.seat != "E" and not w.self_drawn and w.discarder == "E",
              "Blessing of Earth is another seat's win on East's first discard"),
}  # fmt: skip


# One to Four Kong: a hand with kongs holds the one of them for their number.
_KONGS: Final = tuple(id for id in BY_ID if id.startswith("4.3."))


def _check_win(found: list[tuple[int, Pattern, int]], win: Win, kongs_count: bool) -> None:
    """``kongs_count``: the rules count every kong pattern, so a hand's kongs show in the
    claim (a table that excludes one, Two Kong say, may win on two kongs and not say so)."""
    ids = {pattern.id: index for index, pattern, _ in found}
    for index, pattern, _ in found:
        rule = _WINS.get(pattern.id)
        if rule is not None and not rule[0](win):
            raise _fault(index, "id", rule[1])
    kongs = [id for id in ids if id in _KONGS]
    if "9.2" in ids and kongs_count and not kongs:
        raise _fault(ids["9.2"], "id", "Win on Kong needs a kong: claim 4.3.x too")
    for blessing in ("9.4.1", "9.4.2"):
        if blessing in ids and kongs:
            raise _fault(
                ids[blessing], "id", "a blessing is won with the dealt tiles, before any kong"
            )
