"""Domain results as the response JSON of API.md.

A response is built for serialising, not for changing: its fragments that recur (a rule set,
a set's line, a pattern's line) are written once and shared by every response holding them,
so that a response costs what is particular to its hand. Copy one (``copy.deepcopy``) to
change it.
"""

from __future__ import annotations

from typing import Any, Final

from .domain.analysis.analysis import Analysis, Discard, Expectation
from .domain.analysis.expectation import Figures, Model, shown
from .domain.analysis.waits import Wait
from .domain.memo import IntMemo
from .domain.records.replay import Replayed
from .domain.records.review import GRADES, Decision, Option, Question, Reviewed
from .domain.rules import tiles as t
from .domain.rules.decompose import Arrangement
from .domain.rules.hand import SET_KINDS, Hand, Meld, Rules, Win, set_text, set_tiles, tile_keys
from .domain.rules.patterns import CATALOGUE, Counted
from .domain.rules.rulesets import RESOLVED, RESOLVED_SLOTS
from .domain.scoring.scoring import CHICKEN, Score
from .domain.sheets.claims import Claimed
from .domain.sheets.sheets import Settled


def rules(applied: Rules) -> dict[str, Any]:
    """Every field of the rules in force; ``profile`` only where one was named.

    Written once per ``Rules`` and shared by the responses of the same rules (rulesets keeps
    the rules that plain requests resolve to), as the responses' other fragments are.
    """
    # By identity: the table holds each Rules it has written, so no other can take its id.
    found = _WRITTEN_RULES.get(id(applied))
    if found is not None:
        return found[1]
    body = _RULES.copy()
    body["version"] = applied.version
    body["payoff"] = applied.payoff
    body["standard_value"] = applied.standard_value
    body["minimum"] = applied.minimum
    body["bonus_tiles"] = applied.bonus_tiles
    body["values"] = {id: value for id, value in applied.values}
    body["exclude"] = [id for id in applied.exclude]
    body["chicken"] = applied.chicken
    body["limit"] = applied.limit
    if applied.profile is not None:
        body["profile"] = applied.profile
    _WRITTEN_RULES.put(id(applied), (applied, body))
    return body


# Bounded as the rules kept are (~600 bytes each). Its slots (a prime's worth) find the rule
# sets most requests give with no object made.
_WRITTEN_RULES: Final[IntMemo[tuple[Rules, dict[str, Any]]]] = IntMemo(RESOLVED, RESOLVED_SLOTS)


def _pattern(counted: Counted) -> dict[str, Any]:
    line = counted.line  # written once, kept on the ``Counted`` the hands share
    if line is None:
        line = counted.line = _line(counted)
    return line


def _line(counted: Counted) -> dict[str, Any]:
    line = _PATTERN_LINES[counted.pattern.id].copy()
    line["value"] = counted.value
    line["count"] = counted.times
    line["points"] = counted.points
    line["reason"] = counted.reason
    return line


# Each pattern's line, its own fields written once and the hand's filled into a copy: a copy
# of a small dict costs about a third of one built key by key.
_PATTERN_LINES: Final = {
    p.id: {"id": p.id, "name": p.name, "chinese": p.chinese,
           "value": 0, "count": 0, "points": 0, "reason": ""}
    for p in (*CATALOGUE, CHICKEN)
}  # fmt: skip


def _hand(score: Score) -> dict[str, Any]:
    situation = score.situation
    form = score.arrangement.form
    text, glyphs = t.written(tile_keys(situation.hand.keys, situation.melds))
    hand = (_STANDARD_HAND if form == "standard" else _HANDS[form]).copy()
    hand["concealed"] = situation.concealed
    hand["tiles"] = text
    hand["glyphs"] = glyphs
    hand["winning_tile"] = t.repeated(situation.hand.winning_tile)
    _shape(score.arrangement, hand)
    return hand


def _shape(arrangement: Arrangement, into: dict[str, Any]) -> None:
    """The reading's own fields: ``sets`` and ``pair`` (standard form) or ``pairs``."""
    if arrangement.form == "standard":
        winning = arrangement.winning
        won = -1 if winning is None else winning
        a, b, c, d = arrangement.sets  # a standard reading's four: one list made whole
        into["sets"] = [_set(a, won == 0), _set(b, won == 1), _set(c, won == 2), _set(d, won == 3)]
        into["pair"] = t.repeated(arrangement.pair, 2)
    elif arrangement.form == "seven_pairs":
        into["pairs"] = [t.repeated(tile, 2) for tile in arrangement.pairs]


def _set(meld: Meld, completed: bool) -> dict[str, Any]:
    """A set's line, as completed by the win or not. (Not ``[completed]``: compiled, a pair
    of lines is a C struct, boxed into a tuple to be read at an index known only when it
    runs.)"""
    line = _SET_LINES[meld.code]
    return line[1] if completed else line[0]


def _set_lines(code: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """A set's line of a response (``hand.sets``), not completed by the win and completed."""
    concealed = code % 2 == 1
    kind = SET_KINDS[code // 2 // t.KINDS]
    tile = code // 2 % t.KINDS
    text = glyphs = ""
    if set_tiles(kind, tile)[-1] < t.KINDS:  # never asked for otherwise (a chow from 9m)
        text, glyphs = set_text(kind, tile), t.glyphs(set_tiles(kind, tile))
    line = {"kind": kind, "tiles": text, "glyphs": glyphs, "concealed": concealed}
    return {**line, "completed_by_win": False}, {**line, "completed_by_win": True}


# Every set's lines, written once and shared by the responses.
_SET_LINES: Final = tuple(_set_lines(code) for code in range(2 * len(SET_KINDS) * t.KINDS))


def reading(score: Score) -> dict[str, Any]:
    """Another reading of the hand, as an explained score lists it (API.md ``alternatives``):
    its shape and what it is worth, without what it shares with the chosen one."""
    body: dict[str, Any] = {"form": score.arrangement.form}
    _shape(score.arrangement, body)
    body["patterns"] = [_pattern(c) for c in score.patterns]
    body["points"] = score.points
    body["limit"] = score.limit
    body["score"] = score.score
    return body


def breakdown(score: Score) -> dict[str, Any]:
    """The score response without payments (waits, and below-minimum problems)."""
    body = _BREAKDOWN.copy()
    body["rules"] = rules(score.situation.rules)
    body["hand"] = _hand(score)
    _tally(score, body)
    return body


# The response's objects, their keys in order, copied and filled rather than built key by
# key (a third of the cost, measured; a dict built from a few keys also grows on the way).
_RULES: Final[dict[str, Any]] = dict.fromkeys(
    ["version", "payoff", "standard_value", "minimum", "bonus_tiles", "values", "exclude",
     "chicken", "limit"]
)  # fmt: skip
_HANDS: Final[dict[str, dict[str, Any]]] = {
    form: {"form": form, **dict.fromkeys(["concealed", "tiles", "glyphs", "winning_tile", *shape])}
    for form, shape in (
        ("standard", ("sets", "pair")), ("seven_pairs", ("pairs",)), ("thirteen_terminals", ())
    )
}  # fmt: skip
_STANDARD_HAND: Final = _HANDS["standard"]  # most hands: no look-up by form
_NONE: Final[list[dict[str, Any]]] = []
_BREAKDOWN: Final[dict[str, Any]] = dict.fromkeys(
    ["rules", "hand", "patterns", "not_counted", "points", "limit", "score"]
)


def _tally(result: Score | Claimed, into: dict[str, Any]) -> None:
    """What a scored hand or claim counts, and is worth, added to ``into`` (one dict built,
    not two merged)."""
    into["patterns"] = [_pattern(c) for c in result.patterns]
    # Most hands have none: one empty list, shared as the other fragments are.
    into["not_counted"] = [_pattern(c) for c in result.not_counted] if result.not_counted else _NONE
    into["points"] = result.points
    into["limit"] = result.limit
    into["score"] = result.score


def score_response(score: Score, payments: dict[str, int]) -> dict[str, Any]:
    body = breakdown(score)
    body["payments"] = payments
    return body


def waits_response(
    analysis: Analysis,
    waits: list[Wait],
    figures: Figures | None = None,
    expectation: Expectation | None = None,
) -> dict[str, Any]:
    answer = {
        "waits": [
            {
                "tile": t.repeated(wait.tile),
                "glyph": t.GLYPHS[wait.tile],
                "remaining": wait.remaining,
                "self_draw": breakdown(wait.self_draw) if wait.self_draw else None,
                "discard": breakdown(wait.discard) if wait.discard else None,
            }
            for wait in waits
        ],
        **_analysis(analysis),
    }
    if expectation is not None:
        answer["expected"] = _figures(figures)
        answer["expectation"] = _expectation(expectation)
    return answer


def discards_response(
    shanten: int, discards: list[Discard], expectation: Expectation | None = None
) -> dict[str, Any]:
    answer = {
        "shanten": shanten,
        "discards": [_discard(discard, expectation is not None) for discard in discards],
    }
    if expectation is not None:
        answer["expectation"] = _expectation(expectation)
    return answer


def _figures(figures: Figures | None) -> dict[str, Any] | None:
    """A play's figures (API.md ``expected``), to 4 decimals."""
    if figures is None:
        return None
    return {
        "win_probability": shown(figures.win_probability),
        "ready_probability": shown(figures.ready_probability),
        "expected_score": shown(figures.expected_score),
        "score_if_win": None if figures.score_if_win is None else shown(figures.score_if_win),
        "win_by": {
            "self_draw": shown(figures.self_draw),
            "discard": shown(figures.discard),
        },
    }


def _expectation(expectation: Expectation) -> dict[str, Any]:
    model = expectation.model
    return {
        "model": "solo-v1",
        "draws_left": model.draws_left,
        "discard_rate": model.discard_rate,
        "objective": model.objective,
        "unseen": expectation.unseen,
        "states": expectation.states,
        "search": "exhaustive" if expectation.exhaustive else "bounded",
        "limited": expectation.limited,
    }


def _discard(discard: Discard, expected: bool = False) -> dict[str, Any]:
    rendered = {
        "tile": t.repeated(discard.tile),
        "glyph": t.GLYPHS[discard.tile],
        **_analysis(discard.analysis),
    }
    if expected:
        rendered["expected"] = _figures(discard.expected)
    if discard.analysis.shanten == 0:
        rendered["waits"] = [
            {
                "tile": t.repeated(wait.tile),
                "glyph": t.GLYPHS[wait.tile],
                "remaining": wait.remaining,
                "self_draw": _compact(wait.self_draw),
                "discard": _compact(wait.discard),
            }
            for wait in discard.waits
        ]
    return rendered


def _analysis(analysis: Analysis) -> dict[str, Any]:
    useful = []
    for u in analysis.useful:
        entry = _USEFUL[u.tile].copy()
        entry["remaining"] = u.remaining
        useful.append(entry)
    return {
        "shanten": analysis.shanten,
        "useful": useful,
        "useful_remaining": analysis.useful_remaining,
    }


# A useful tile's entry by kind, copied and its copies left set: a dict built from a literal
# costs ~800 instructions, a copy and one value less than half (a discard lists up to ~20).
_USEFUL: Final = tuple(
    {"tile": t.repeated(tile), "glyph": t.GLYPHS[tile], "remaining": 0} for tile in range(t.KINDS)
)


def _compact(score: Score | None) -> dict[str, Any] | None:
    """A wait's score in a discard's analysis: what it is worth and which patterns count."""
    if score is None:
        return None
    return {
        "score": score.score,
        "points": score.points,
        "limit": score.limit,
        "patterns": [counted.pattern.id for counted in score.patterns],
    }


def claim_breakdown(claimed: Claimed) -> dict[str, Any]:
    """A claim's score as a score response has it, without the hand."""
    body = {"rules": rules(claimed.rules)}
    _tally(claimed, body)
    return body


def claim_response(claimed: Claimed, payments: dict[str, int]) -> dict[str, Any]:
    return {**claim_breakdown(claimed), "payments": payments}


def settle_response(
    applied: Rules, settled: list[Settled], totals: dict[str, int]
) -> dict[str, Any]:
    return {
        "rules": rules(applied),
        "hands": [
            {"draw": True} if hand.winner is None
            else {"score": hand.score, "winner": hand.winner, "payments": hand.payments}
            for hand in settled
        ],
        "totals": totals,
    }  # fmt: skip


def score_request(hand: Hand, win: Win) -> dict[str, Any]:
    """The ``/v1/score`` body (without ``rules``) of a won hand and its win: what a hand
    record amounts to, every flag given."""
    body: dict[str, Any] = {"by": win.by, "seat": win.seat}
    if win.discarder is not None:
        body["discarder"] = win.discarder
    body["last_tile"] = win.last_tile
    body["kong_replacement"] = win.kong_replacement
    body["robbing_kong"] = win.robbing_kong
    body["first_turn"] = win.first_turn
    if win.discarder is not None:
        body["go_around"] = [
            {"seat": seat, "tile": t.repeated(tile)} for seat, tile in win.go_around
        ]
    return {
        "hand": {
            "tiles": t.compact(hand.tiles),
            "melds": [
                {"kind": meld.kind, "tiles": meld.text, "concealed": meld.concealed}
                for meld in hand.melds
                if isinstance(meld, Meld)
            ],
            "winning_tile": t.repeated(hand.winning_tile),
            "flowers": list(hand.flowers),
            "seasons": list(hand.seasons),
        },
        "win": body,
    }


def replay_response(
    applied: Rules, replayed: Replayed, score: Score | None, payments: dict[str, int] | None
) -> dict[str, Any]:
    """A record replayed: how it ended and, for a win, its score and the request it is."""
    body: dict[str, Any] = {
        "rules": rules(applied),
        "events": replayed.events,
        "wall_left": replayed.wall_left,
        "end": replayed.end,
    }
    won = replayed.won
    if won is not None and score is not None and payments is not None:
        body["score"] = score_response(score, payments)
        body["request"] = score_request(won.hand, won.win)
    return body


# What judged a review, in words (API.md "Hand records"): the model's reach and its limits.
JUDGED: Final = (
    "solo-v1 (the expected-score model) weighs the reviewed seat's own hand only: the tiles"
    " it may still draw and the discards it may win on. It does not judge defence (whether a"
    " discard is safe against another seat's hand) nor read what the others hold; its figures"
    " are a lower bound where its search was bounded."
)


def review(reviewed: list[Reviewed], model: Model, rules: Any) -> dict[str, Any]:
    """A record's review: what judged, and each seat's decisions and summary; each position
    carries the request's own ``rules`` as given (``rules``: None if none was given)."""
    return {
        "model": "solo-v1",
        "judged": JUDGED,
        "discard_rate": model.discard_rate,
        "objective": model.objective,
        "seats": {
            seat.seat: {
                "summary": _summary(seat),
                "decisions": [_decision(decision, model, rules) for decision in seat.decisions],
            }
            for seat in reviewed
        },
    }


def _summary(seat: Reviewed) -> dict[str, Any]:
    grades = seat.grades()
    return {
        "decisions": len(seat.decisions),
        "assessed": len(seat.decisions) - grades[GRADES[-1]],
        "best": grades["best"],
        "expected_lost": seat.expected_lost(),
        "grades": grades,
    }


def _decision(decision: Decision, model: Model, rules: Any) -> dict[str, Any]:
    played = decision.played
    rendered: dict[str, Any] = {
        "event": decision.event,
        "kind": decision.kind,
        "draws_left": decision.draws_left,
        "played": played.play,
        "best": decision.best.play,
        "fastest": decision.fastest.play,
        "rank": decision.rank,
        "of": len(decision.options),
        "played_figures": _option_figures(played),
        "best_figures": _option_figures(decision.best),
        "loss": decision.loss,
        "grade": decision.grade,
        "position": position(played.question, model, rules),
    }
    if decision.kind == "claim":
        rendered["options"] = [
            {"play": option.play, **_option_figures(option)} for option in decision.options
        ]
    return rendered


def _option_figures(option: Option) -> dict[str, Any]:
    return {
        "shanten": option.shanten,
        "useful_remaining": option.useful_remaining,
        "expected": _figures(option.expected),
    }


def position(question: Question, model: Model, rules: Any) -> dict[str, Any]:
    """The body that asks ``question`` of its endpoint (``/v1/discards``, ``/v1/waits`` with
    ``expect``; ``/v1/score`` for a win)."""
    hand = question.hand
    written: dict[str, Any] = {
        "tiles": t.compact(hand.tiles),
        "melds": [
            {"kind": meld.kind, "tiles": meld.text, "concealed": meld.concealed}
            for meld in hand.melds
            if isinstance(meld, Meld)
        ],
    }
    if hand.flowers:
        written["flowers"] = list(hand.flowers)
    if hand.seasons:
        written["seasons"] = list(hand.seasons)
    win = question.win
    if question.endpoint == "score":
        written["winning_tile"] = t.repeated(hand.winning_tile)
        body: dict[str, Any] = {
            "hand": written,
            "win": {"by": win.by, "seat": win.seat, "discarder": win.discarder},
        }
        # The moment's flags only where the win needs them to stand (review.py).
        if win.last_tile:
            body["win"]["last_tile"] = True
        if win.first_turn:
            body["win"]["first_turn"] = True
    else:
        body = {"hand": written, "win": {"seat": win.seat}}
        if question.visible:
            body["visible"] = t.compact(question.visible)
        body["expect"] = {
            "draws_left": question.draws_left,
            "discard_rate": model.discard_rate,
            "objective": model.objective,
        }
    if rules is not None:
        body["rules"] = rules
    return body
