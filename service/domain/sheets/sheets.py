"""Score sheets (API.md "Score sheets"): a session's hands settled between its players.

A sheet is stateless: the client sends the whole session, each hand scored from its tiles,
claimed from its patterns, or drawn, and who sat where. Each hand is paid by seat (RULES.md
§5), then by player through that hand's seats; a sheet is settled whole or refused whole, at
the path of its first bad hand.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from ..errors import InconsistentRequest, InvalidRecord, ScoringError
from ..records import replay
from ..rules.hand import Hand, Rules, Win
from ..rules.tiles import SEATS
from ..scoring import scoring
from ..scoring.payments import payments
from . import claims

Seats = dict[str, str]  # seat -> player


@dataclass(frozen=True, slots=True)
class SheetHand:
    """One hand of a sheet as the client gave it: ``seats`` (None: as the hand before), and
    one of ``score`` (a hand and its win), ``claim`` (patterns and a win), ``draw`` or
    ``record`` (a hand as played, scored as replayed)."""

    seats: Seats | None = None
    score: tuple[Hand, Win] | None = None
    claim: tuple[tuple[claims.Entry, ...], Win] | None = None
    draw: bool = False
    record: replay.Record | None = None


@dataclass(frozen=True, slots=True)
class Settled:
    """A hand settled: its score and winner (None for a draw), and what each player got."""

    score: int | None
    winner: str | None
    payments: dict[str, int]


def settle(
    players: Sequence[str] | None,
    hands: Sequence[SheetHand],
    rules: Rules,
    pause: Callable[[], None] | None = None,
) -> tuple[list[Settled], dict[str, int]]:
    """Each hand's payments by player and the totals; ``pause`` is called between hands."""
    names = list(players) if players is not None else list(SEATS)
    seats = dict(zip(SEATS, names, strict=True))
    settled = []
    totals = dict.fromkeys(names, 0)
    for index, hand in enumerate(hands):
        if pause is not None:
            pause()
        if hand.seats is not None:
            seats = _checked_seats(hand.seats, names, index)
        result = _settled(hand, seats, rules, index)
        for player, amount in result.payments.items():
            totals[player] += amount
        settled.append(
            Settled(result.score, result.winner, {name: result.payments[name] for name in names})
        )
    return settled, totals


def _checked_seats(seats: Seats, names: list[str], index: int) -> Seats:
    for seat in SEATS:
        if seats[seat] not in names:
            raise InconsistentRequest.at(
                f"hands[{index}].seats.{seat}",
                f"{seats[seat]!r} is not one of the players: {', '.join(map(repr, names))}",
            )
    if len(set(seats.values())) != len(SEATS):
        raise InconsistentRequest.at(f"hands[{index}].seats", "each player sits in one seat")
    return seats


_KINDS: Final = ("score", "claim", "draw", "record")


def _drawn(seats: Seats) -> Settled:
    """A hand with no win: no payments."""
    return Settled(None, None, dict.fromkeys(seats.values(), 0))


def _settled(hand: SheetHand, seats: Seats, rules: Rules, index: int) -> Settled:
    given = [kind for kind in _KINDS if getattr(hand, kind)]
    if len(given) != 1:
        raise InconsistentRequest.at(
            f"hands[{index}]",
            "a hand is one of score, claim, draw or record"
            + (f" (it gives {' and '.join(given)})" if given else ""),
        )
    if hand.draw:
        return _drawn(seats)
    try:
        if hand.record is not None:
            replayed = replay.replay(hand.record, rules.bonus_tiles)
            if replayed.won is None:
                if replayed.end == replay.OPEN:
                    raise InvalidRecord.at(
                        "record.events",
                        "the record stops before the hand's end (a win, or a washout once the"
                        " wall is spent): a sheet settles hands that ended",
                    )
                return _drawn(seats)
            win = replayed.won.win
            value = replay.scored(replayed.won, rules).score
        elif hand.score is not None:
            won, win = hand.score
            value = scoring.score(won, win, rules).score
        else:
            assert hand.claim is not None
            entries, win = hand.claim
            value = claims.claim(entries, win, rules).score
    except ScoringError as error:
        # A record's paths start with "record" (as in a replay request's).
        prefix = f"hands[{index}]" if hand.record is not None else f"hands[{index}].{given[0]}"
        raise error.within(prefix) from None
    by_seat = payments(value, win, rules)
    return Settled(value, seats[win.seat], {seats[seat]: by_seat[seat] for seat in SEATS})
