"""A review of a hand record's decisions (API.md "Hand records", RULES.md §8 and §9): each
discard and each claim chance of a seat whose tiles are known, set against the best play of
the expected-score model ``solo-v1``.

A decision is a choice among options, each valued as the analysis endpoints value it, so that
its ``Question`` sent to them answers the same figures: a discard by ``/v1/discards`` on the
seat's tiles at that moment; a claim chance (a discard the seat could win on, pung, kong or
chow) by its options: passing (``/v1/waits`` on the 13 tiles as they stand), a pung or chow
(``/v1/discards`` after the meld: its best discard), a kong (``/v1/waits`` on the tiles
after it, the replacement draw one draw more) and a win (``/v1/score`` by discard: won for
certain). The model weighs the seat's own hand only: it does not judge defence.

The decisions of one seat share most of the hands their searches meet: they share one
``Outlooks`` (its tables bounded as one search's budget is), and each analysis has the
state budget of one request, so the review's memory does not grow with the record. A
question asked twice (a pung or chow claimed, then the discard made after it) is answered once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal

from ..analysis import analysis
from ..analysis.expectation import Figures, Model, Outlooks, Pause
from ..errors import InconsistentRequest, ScoringError
from ..rules import tiles as t
from ..rules.hand import CHOW, KONG, PUNG, Hand, Meld, Rules, Win, declared_meld
from ..scoring import scoring
from . import replay as replays

Kind = Literal["discard", "claim"]
Endpoint = Literal["discards", "waits", "score"]

GRADES: Final = ("best", "good", "inaccuracy", "mistake", "blunder", "not_assessed")
NOT_ASSESSED: Final = "not_assessed"
# The loss under which a play is ``good`` whatever its share of the best: points of
# expected score, or win chance (API.md "Grades").
CLOSE: Final = {"expected_score": 0.25, "win_probability": 0.01}
# Each grade's share of the best's figure lost, below which it holds.
SHARES: Final = ((0.10, "good"), (0.25, "inaccuracy"), (0.50, "mistake"))
PASS: Final = "pass"
WIN: Final = "win"
# A claim's options in the order they are listed (and preferred among equals).
_ORDER: Final = {WIN: 0, KONG: 1, PUNG: 2, CHOW: 3, PASS: 4}
# What takes the discard before what (RULES.md §9): a win, then a pung or kong, then a chow.
_PRECEDENCE: Final = {WIN: 2, KONG: 1, PUNG: 1, CHOW: 0}


class Question:
    """What an option asks an endpoint (``discards``, ``waits`` or ``score``): the hand, the
    win (the seat's; a win's by discard), the tiles seen and the draws still coming."""

    __slots__ = ("draws_left", "endpoint", "hand", "visible", "win")

    def __init__(
        self, endpoint: Endpoint, hand: Hand, win: Win, visible: tuple[int, ...], draws_left: int
    ) -> None:
        self.endpoint: Final = endpoint
        self.hand: Final = hand
        self.win: Final = win
        self.visible: Final = visible
        self.draws_left: Final = draws_left

    def position(self) -> tuple[object, ...]:
        """What the answer depends on (a hand's tiles and ``visible`` counted, in no order)."""
        return self.hand, self.win, tuple(sorted(self.visible)), self.draws_left


class Option:
    """One play a decision offered (``play``: a discard's tile written, or ``pass``, ``win``,
    ``pung``, ``kong``, ``chow 345p``), its figures (the shanten and useful tiles it leaves,
    and the model's ``expected``: None where it has none) and the question that values it."""

    __slots__ = ("expected", "play", "question", "shanten", "useful_remaining")

    def __init__(
        self,
        play: str,
        shanten: int,
        useful_remaining: int,
        expected: Figures | None,
        question: Question,
    ) -> None:
        self.play: Final = play
        self.shanten: Final = shanten
        self.useful_remaining: Final = useful_remaining
        self.expected: Final = expected
        self.question: Final = question


class Decision:
    """A reviewed decision: the event it was made at, its kind, the draws still coming, the
    options (``best`` first, by the objective), the one ``played``, the ``fastest`` (lowest
    shanten, most useful tiles), the played one's ``rank`` by the objective, the objective's
    ``loss`` (None: not assessed) and the ``grade``."""

    __slots__ = ("draws_left", "event", "fastest", "grade", "kind", "loss", "options", "played",
                 "rank")  # fmt: skip

    def __init__(
        self,
        event: int,
        kind: Kind,
        draws_left: int,
        options: Sequence[Option],
        played: Option,
        fastest: Option,
        objective: str,
    ) -> None:
        self.event: Final = event
        self.kind: Final = kind
        self.draws_left: Final = draws_left
        self.options: Final = tuple(options)
        self.played: Final = played
        self.fastest: Final = fastest
        mine = value(played.expected, objective)
        self.rank: Final = 1 + sum(
            1
            for option in options
            if (figure := value(option.expected, objective)) is not None
            and (mine is None or figure > mine)
        )
        self.loss, self.grade = graded(value(self.best.expected, objective), mine, objective)

    @property
    def best(self) -> Option:
        return self.options[0]


class Reviewed:
    """A seat's decisions in the order made, and what they add up to."""

    __slots__ = ("decisions", "seat")

    def __init__(self, seat: str, decisions: list[Decision]) -> None:
        self.seat: Final = seat
        self.decisions: Final = decisions

    def grades(self) -> dict[str, int]:
        counted = dict.fromkeys(GRADES, 0)
        for decision in self.decisions:
            counted[decision.grade] += 1
        return counted

    def expected_lost(self) -> float:
        """The objective's figure lost over the assessed decisions."""
        return round(sum(d.loss for d in self.decisions if d.loss is not None), 4)


def value(figures: Figures | None, objective: str) -> float | None:
    """The objective's figure as the answer shows it (4 decimals): what ranks and grades read,
    so that a client checks them from the figures it is shown."""
    if figures is None:
        return None
    figure = figures.win_probability if objective == "win_probability" else figures.expected_score
    return round(figure, 4)


def graded(best: float | None, played: float | None, objective: str) -> tuple[float | None, str]:
    """The loss and grade of a play worth ``played`` where the best is worth ``best``
    (API.md "Grades"): by the share of the best's figure lost, a loss under ``CLOSE`` good."""
    if best is None or played is None:
        return None, NOT_ASSESSED
    loss = round(max(0.0, best - played), 4)
    if loss == 0:
        return 0.0, "best"
    if loss < CLOSE[objective]:
        return loss, "good"
    share = loss / best
    for below, grade in SHARES:
        if share < below:
            return loss, grade
    return loss, "blunder"


def seats_asked(record: replays.Record, seats: Sequence[str] | None) -> tuple[str, ...]:
    """The seats to review: those asked (each known, else the fault at its path), or every
    seat whose tiles are known."""
    if seats is None:
        known = zip(t.SEATS, record.deal, strict=True)
        return tuple(seat for seat, dealt in known if dealt is not None)
    for index, seat in enumerate(seats):
        if record.deal[t.SEATS.index(seat)] is None:
            raise InconsistentRequest.at(
                f"review.seats[{index}]",
                f"{seat}'s tiles are hidden (record.deal.{seat} is null): only a seat whose"
                " tiles are known can be reviewed",
            )
    return tuple(seats)


def review(
    record: replays.Record,
    rules: Rules,
    seats: Sequence[str],
    model: Model,
    pause: Pause | None = None,
) -> list[Reviewed]:
    """Each seat's decisions in ``record`` (a record ``replay`` has checked), under ``model``
    (its ``discard_rate``, ``objective`` and budget; the draws left are each decision's)."""
    return [_Reviewer(record, rules, seat, model, pause).run() for seat in seats]


class _Reviewer:
    """One seat's review: the record played again, each of its decisions valued."""

    def __init__(
        self, record: replays.Record, rules: Rules, seat: str, model: Model, pause: Pause | None
    ) -> None:
        self.record = record
        self.rules = rules
        self.seat = seat
        self.at = t.SEATS.index(seat)
        self.model = model
        self.pause = pause
        # One budget's worth of hands and wins kept across the seat's decisions.
        self.kept = Outlooks(model.budget)
        # Each /v1/discards question's answer, by its position: a meld claimed asks what the
        # discard made after it asks again (searched once; one entry a decision at most).
        self.discarded: dict[tuple[object, ...], list[analysis.Discard]] = {}
        self.decisions: list[Decision] = []

    def run(self) -> Reviewed:
        table = replays.Table(self.record, self.rules.bonus_tiles)
        # Another seat's discard the seat could claim: valued once the next event says what
        # was done with it.
        chance: _Chance | None = None
        for index, event in enumerate(self.record.events):
            if chance is not None:
                self._claim_decision(chance, event)
                chance = None
            discards = event.given[0] == replays.DISCARD
            if discards and event.seat == self.seat:
                self._discard_decision(index, table, event)
            table.apply(index, event)
            if discards and event.seat != self.seat:
                chance = self._chance(index, table)
        if chance is not None and table.ended().end == replays.WASHOUT:
            self._claim_decision(chance, None)
        return Reviewed(self.seat, self.decisions)

    # Discards

    def _discard_decision(self, index: int, table: replays.Table, event: replays.Event) -> None:
        position = table.position(self.seat)
        assert position.tiles is not None and event.tiles is not None
        hand = Hand(
            position.tiles,
            position.melds,
            0,
            tuple(table.flowers[self.at]),
            tuple(table.seasons[self.at]),
        )
        question = Question(
            "discards", hand, Win(seat=self.seat), position.visible, position.draws_left
        )
        options, fastest = self._discards(question)
        played = next(option for option in options if option.play == t.repeated(event.tiles[0]))
        self.decisions.append(
            Decision(
                index,
                "discard",
                position.draws_left,
                options,
                played,
                fastest,
                self.model.objective,
            )
        )

    def _discards(self, question: Question) -> tuple[list[Option], Option]:
        """Each discard as ``/v1/discards`` ranks it (the objective first), and the fastest."""
        key = question.position()
        found = self.discarded.get(key)
        if found is None:
            _, found, _ = analysis.discards(
                question.hand,
                question.win,
                self.rules,
                question.visible,
                self._model(question.draws_left),
                self.pause,
                self.kept,
            )
            self.discarded[key] = found
        options = [
            Option(
                t.repeated(discard.tile),
                discard.analysis.shanten,
                discard.analysis.useful_remaining,
                discard.expected,
                question,
            )
            for discard in found
        ]
        fastest = min(range(len(found)), key=lambda i: found[i].rank())
        return options, options[fastest]

    def _model(self, draws_left: int) -> Model:
        model = self.model
        return Model(draws_left, model.discard_rate, model.objective, model.budget)

    # Claims

    def _chance(self, index: int, table: replays.Table) -> _Chance | None:
        """The seat's chance on the discard just made, if it may claim it (RULES.md §9)."""
        held = table.hands[self.at]
        assert held is not None
        discarder, tile, _ = table.discards[-1]
        found: list[_Claim] = []
        melds = tuple(table.melds[self.at])
        won = Hand(
            tuple(sorted([*_listed(held), tile])),
            melds,
            tile,
            tuple(table.flowers[self.at]),
            tuple(table.seasons[self.at]),
        )
        # A win as the model counts it (no incidental pattern); failing that, one that reaches
        # the minimum only with the moment's (the last tile, Blessing of Earth), as the record
        # would score it, is a win all the same.
        first_turn = discarder == 0 and len(table.discards) == 1 and table.claims == 0
        for by_discard in (
            Win("discard", self.seat, t.SEATS[discarder]),
            Win(
                "discard",
                self.seat,
                t.SEATS[discarder],
                last_tile=table.wall_left == 0,
                first_turn=first_turn,
            ),
        ):
            try:
                scored = scoring.score(won, by_discard, self.rules)
            except ScoringError:
                continue
            found.append(_Claim(WIN, None, float(scored.score), won, by_discard))
            break
        if table.wall_left == 0:  # the discard after the last tile: only a win may claim it
            return _Chance(index, discarder, found, table, self.at) if found else None
        if held[tile] >= 3 and table.replacements < replays.REPLACEMENTS:
            found.append(_Claim(KONG, _meld(KONG, (tile,) * 4)))
        if held[tile] >= 2:
            found.append(_Claim(PUNG, _meld(PUNG, (tile,) * 3)))
        if self.at == (discarder + 1) % 4 and tile < t.EAST:
            place = tile % 9
            for low in range(max(0, place - 2), min(6, place) + 1):
                run = tuple(range(tile - place + low, tile - place + low + 3))
                if all(held[other] for other in run if other != tile):
                    found.append(_Claim(CHOW, _meld(CHOW, run)))
        return _Chance(index, discarder, found, table, self.at) if found else None

    def _claim_decision(self, before: _Chance, event: replays.Event | None) -> None:
        """The seat's options on a discard, once ``event`` (None: the hand's washout) says who
        took it: options a claim made by another seat overrides were never the seat's."""
        claims = before.claims
        action = event.given[0] if event is not None else PASS
        taken = action if action in _PRECEDENCE else PASS
        if event is not None and event.seat == self.seat and taken != PASS:
            chosen = taken if taken != CHOW else _chow_play(event)
        else:
            chosen = PASS
            if taken != PASS:
                assert event is not None
                claims = [
                    claim
                    for claim in claims
                    if _PRECEDENCE[claim.kind] > _PRECEDENCE[taken]
                    or (claim.kind == WIN == taken and self._sooner(event.seat, before.discarder))
                ]
                if not claims:
                    return
        options = [self._valued(claim, before) for claim in claims]
        options.append(self._passing(before))
        objective = self.model.objective
        # Best first by the objective; among equals the faster, then the order of ``_ORDER``.
        options.sort(
            key=lambda o: (
                -(figure if (figure := value(o.expected, objective)) is not None else -1.0),
                o.shanten,
                -o.useful_remaining,
                _ORDER[o.play.split()[0]],
            )
        )
        fastest = min(
            options, key=lambda o: (o.shanten, -o.useful_remaining, _ORDER[o.play.split()[0]])
        )
        played = next(option for option in options if option.play == chosen)
        self.decisions.append(
            Decision(before.event, "claim", before.draws_left, options, played, fastest, objective)
        )

    def _sooner(self, other: str, discarder: int) -> bool:
        """Whether the seat comes before ``other`` in turn after ``discarder``: of two wins on
        one discard, it takes it."""
        return (self.at - discarder) % 4 < (t.SEATS.index(other) - discarder) % 4

    def _valued(self, claim: _Claim, before: _Chance) -> Option:
        """A claim option's figures: a win's score, certain; a meld's best play after it."""
        if claim.kind == WIN:
            assert claim.won is not None and claim.by_discard is not None and claim.score >= 0
            certain = Figures(1.0, 1.0, claim.score, claim.score, 0.0, 1.0)
            question = Question("score", claim.won, claim.by_discard, before.visible, 0)
            return Option(WIN, -1, 0, certain, question)
        meld = claim.meld
        assert meld is not None
        kept = list(before.tiles)
        held = list(meld.tiles)
        held.remove(before.tile)
        for tile in held:
            kept.remove(tile)
        # The claimed tile leaves the table for the meld; the claimer discards at once (a
        # kong after its replacement draw, one draw more).
        visible = list(before.visible)
        visible.remove(before.tile)
        hand = Hand(tuple(kept), (*before.melds, meld), 0, before.flowers, before.seasons)
        play = claim.kind if claim.kind != CHOW else f"{CHOW} {meld.text}"
        win = Win(seat=self.seat)
        if claim.kind == KONG:
            question = Question("waits", hand, win, tuple(visible), before.after_claim + 1)
            return self._waits(play, question)
        question = Question("discards", hand, win, tuple(visible), before.after_claim)
        options, _ = self._discards(question)
        top = options[0]
        return Option(play, top.shanten, top.useful_remaining, top.expected, question)

    def _passing(self, before: _Chance) -> Option:
        """Passing: the 13 tiles as they stand, the draws still coming."""
        hand = Hand(before.tiles, before.melds, 0, before.flowers, before.seasons)
        question = Question("waits", hand, Win(seat=self.seat), before.visible, before.draws_left)
        return self._waits(PASS, question)

    def _waits(self, play: str, question: Question) -> Option:
        found, _, figures, _ = analysis.waits_analysis(
            question.hand,
            question.win,
            self.rules,
            question.visible,
            self._model(question.draws_left),
            self.pause,
            self.kept,
        )
        return Option(play, found.shanten, found.useful_remaining, figures, question)


class _Claim:
    """A claim the seat may make: its kind, the meld it makes (None for a win), and for a win
    the hand won, the win and its score."""

    __slots__ = ("by_discard", "kind", "meld", "score", "won")

    def __init__(
        self,
        kind: str,
        meld: Meld | None,
        score: float = -1.0,
        won: Hand | None = None,
        by_discard: Win | None = None,
    ) -> None:
        self.kind: Final = kind
        self.meld: Final = meld
        self.score: Final = score
        self.won: Final = won
        self.by_discard: Final = by_discard


class _Chance:
    """A discard the seat may claim: the event, the discarder, the claims open to the seat,
    and what they read of the table, taken when the discard lies (the table moves on before
    the next event says what was done): the seat's tiles, melds and bonus tiles, the discard,
    what the seat sees, the draws coming to it if it passes, and if it claims and discards."""

    __slots__ = ("after_claim", "claims", "discarder", "draws_left", "event", "flowers",
                 "melds", "seasons", "tile", "tiles", "visible")  # fmt: skip

    def __init__(
        self, event: int, discarder: int, claims: list[_Claim], table: replays.Table, at: int
    ) -> None:
        position = table.position(t.SEATS[at])
        assert position.tiles is not None
        self.event: Final = event
        self.discarder: Final = discarder
        self.claims: Final = claims
        self.tiles: Final = position.tiles
        self.melds: Final = position.melds
        self.flowers: Final = tuple(table.flowers[at])
        self.seasons: Final = tuple(table.seasons[at])
        self.tile: Final = table.discards[-1][1]
        self.visible: Final = position.visible
        self.draws_left: Final = position.draws_left
        # Having claimed and discarded, the seat is the last to draw of the next round.
        self.after_claim: Final = table.wall_left // 4


def _meld(kind: str, tiles: tuple[int, ...]) -> Meld:
    meld = declared_meld(kind, tiles, False)
    assert isinstance(meld, Meld)
    return meld


def _chow_play(event: replays.Event) -> str:
    assert event.tiles is not None
    return f"{CHOW} {_meld(CHOW, tuple(sorted(event.tiles))).text}"


def _listed(counts: list[int]) -> list[int]:
    return [tile for tile in range(t.KINDS) for _ in range(counts[tile])]
