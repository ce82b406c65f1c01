"""The service's one entry point per operation, from request JSON to response JSON.

The HTTP endpoints, the batch endpoint and the CLI all call these, so they answer alike.
Client errors are raised as ``Problem``: the domain's own errors are turned into one here.
A response shares its recurring fragments with others (render.py): read it, don't change it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from . import render
from .domain.analysis import analysis
from .domain.analysis.expectation import Model
from .domain.errors import ScoringError
from .domain.records import replay as replays
from .domain.records import review as reviews
from .domain.scoring import payments as pay
from .domain.scoring import scoring
from .domain.sheets import claims, sheets
from .problems import Problem
from .request import (
    MAX_ALTERNATIVES,
    MAX_BATCH,
    BatchRequestSchema,
    ClaimRequestSchema,
    ReplayRequestSchema,
    ScoreRequest,
    ScoreRequestSchema,
    SettleRequestSchema,
    WaitsRequestSchema,
    loader,
)
from .request.models import make_expect
from .settings import EXPECT_STATES, setting

# Each operation's request loader, made once (Final: compiled, read as a constant, not looked
# up among the module's names at each request).
_SCORE: Final = loader(ScoreRequestSchema())
_WAITS: Final = loader(WaitsRequestSchema())
_BATCH: Final = loader(BatchRequestSchema())
_CLAIM: Final = loader(ClaimRequestSchema())
_SETTLE: Final = loader(SettleRequestSchema())
_REPLAY: Final = loader(ReplayRequestSchema())

__all__ = [
    "MAX_BATCH", "Problem", "batch", "claim", "discards", "replay", "score", "settle", "waits"
]  # fmt: skip


def score(payload: Any) -> dict[str, Any]:
    """POST /v1/score: the best reading of a won hand, its breakdown and the payments; with
    ``explain``, the other readings too."""
    request: ScoreRequest = _SCORE.load(payload)
    rules = request.rules
    try:
        best = scoring.score(request.hand, request.win, rules)
    except ScoringError as error:
        raise Problem.of(error) from None
    body = render.score_response(best, pay.payments(best.score, request.win, rules))
    if request.explain:
        # Scored again, all of them: the cost falls on the requests that ask for it.
        others = scoring.ranked(best.situation)[1 : 1 + MAX_ALTERNATIVES]
        body["alternatives"] = [render.reading(other) for other in others]
    return body


def waits(payload: Any, pause: Callable[[], None] | None = None) -> dict[str, Any]:
    """POST /v1/waits: every tile completing a hand one short, scored both ways; the hand's
    shanten and useful tiles; with ``expect``, the figures of its best play."""
    return _analysed(payload, pause, analysis.waits_analysis, render.waits_response)


def discards(payload: Any, pause: Callable[[], None] | None = None) -> dict[str, Any]:
    """POST /v1/discards: a hand after its draw, each discard's shanten, useful tiles and
    scored waits, best first; with ``expect``, each discard's figures, best first."""
    return _analysed(payload, pause, analysis.discards, render.discards_response)


def _analysed(
    payload: Any,
    pause: Callable[[], None] | None,
    analyse: Callable[..., tuple[Any, ...]],
    answer: Callable[..., dict[str, Any]],
) -> dict[str, Any]:
    """A hand analysis (waits, discards): the same request, the domain's ``analyse``, and
    ``answer`` to render what it found. ``pause``: the server's, for a search (``expect``)."""
    request = _WAITS.load(payload)
    model: Model | None = request["expect"]
    if model is not None:
        model = model.within(setting(EXPECT_STATES))
    try:
        found = analyse(
            request["hand"], request["win"], request["rules"], request["visible"], model, pause
        )
    except ScoringError as error:
        raise Problem.of(error) from None
    return answer(*found)


def claim(payload: Any) -> dict[str, Any]:
    """POST /v1/claim: a hand scored from its claimed patterns, and the payments."""
    request = _CLAIM.load(payload)
    rules = request["rules"]
    try:
        claimed = claims.claim(tuple(request["patterns"]), request["win"], rules)
    except ScoringError as error:
        raise Problem.of(error) from None
    return render.claim_response(claimed, pay.payments(claimed.score, request["win"], rules))


def replay(payload: Any, pause: Callable[[], None] | None = None) -> dict[str, Any]:
    """POST /v1/replay: a hand record checked event by event; how it ended and, for a win,
    its score (as ``score`` answers the request it amounts to, payments included) and that
    request; with ``review``, its seats' decisions reviewed (``pause``: the server's, as for
    ``expect``)."""
    request = _REPLAY.load(payload)
    rules = request["rules"]
    record = request["record"]
    asked = request["review"]
    try:
        replayed = replays.replay(record, rules.bonus_tiles)
        won = replayed.won
        best = None if won is None else replays.scored(won, rules)
        if asked is not None:
            seats = reviews.seats_asked(record, asked.get("seats"))
            question = asked["expect"] or {}
            model = make_expect(
                discard_rate=question.get("discard_rate", 0.0),
                objective=question.get("objective", "expected_score"),
            ).within(setting(EXPECT_STATES))
            reviewed = reviews.review(record, rules, seats, model, pause)
    except ScoringError as error:
        raise Problem.of(error) from None
    if won is None or best is None:
        body = render.replay_response(rules, replayed, None, None)
    else:
        body = render.replay_response(
            rules, replayed, best, pay.payments(best.score, won.win, rules)
        )
    if asked is not None:
        given = payload.get("rules")
        body["review"] = render.review(reviewed, model, given)
    return body


def settle(payload: Any, pause: Callable[[], None] | None = None) -> dict[str, Any]:
    """POST /v1/settle: a session's hands settled by player, and the totals; ``pause`` as for
    a batch."""
    request = _SETTLE.load(payload)
    try:
        settled, totals = sheets.settle(
            request.get("players"), request["hands"], request["rules"], pause
        )
    except ScoringError as error:
        raise Problem.of(error) from None
    return render.settle_response(request["rules"], settled, totals)


def batch(payload: Any, pause: Callable[[], None] | None = None) -> dict[str, Any]:
    """POST /v1/score/batch: each item scored on its own; a bad item fails alone.

    ``pause``, if given, is called before each item: the server's chance to answer others
    while a long batch computes.
    """
    items = _BATCH.load(payload)["items"]
    # Looked up when it runs, as operations.py does: what replaces ``score`` (a test's fault)
    # is what runs; compiled, a direct call would pass it by.
    score_item: Callable[[Any], dict[str, Any]] = globals()["score"]
    results = []
    for index, item in enumerate(items):
        if pause is not None:
            pause()
        try:
            if not isinstance(item, dict):
                raise _not_an_object(index)
            results.append({"status": 200, "body": score_item(item)})
        except Problem as problem:
            results.append({"status": problem.status, "body": problem.body()})
    return {"results": results}


def _not_an_object(index: int) -> Problem:
    """The problem of a batch item that is no score request at all: its path is the item's
    own (``$``), as its other errors' paths are, and the detail says which it is."""
    message = "the item must be a JSON object (a score request)"
    return Problem(
        "invalid_request", f"items[{index}]: {message}", [{"path": "$", "message": message}]
    )
