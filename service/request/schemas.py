"""The request schemas: JSON in, domain objects out, strictly (unknown fields rejected).

marshmallow checks shape and types and parses the tile notation; what makes a hand legal
(counts, melds, context) is the domain's to judge, so its errors carry the domain's codes.
These declarations are the authority on a request; ``loading.py`` derives the fast path
from them.
"""

from __future__ import annotations

import re
from typing import Any

from marshmallow import Schema, ValidationError, fields, post_load, validate

from ..domain.rules import tiles as t
from ..domain.rules.hand import Rules
from ..domain.rules.patterns import BY_ID, CATALOGUE
from ..domain.rules.rulesets import profile_names, resolve_fields
from ..domain.rules.schemes import SCHEMES
from ..domain.rules.versions import VERSIONS
from . import models
from .fast import shorten
from .limits import (
    MAX_BATCH,
    MAX_CLAIMED,
    MAX_COUNT,
    MAX_DRAWS_LEFT,
    MAX_EVENTS,
    MAX_GO_AROUND,
    MAX_MELDS,
    MAX_NAME,
    MAX_PATTERN_ID,
    MAX_SEEN_LIST,
    MAX_SEEN_STRING,
    MAX_SHEET_HANDS,
    MAX_VALUE,
    MAX_WALL,
)
from .models import read_held, read_tiles


def _one_of(*choices: str) -> validate.OneOf:
    return validate.OneOf(choices, error="must be one of: {choices}")


def _between(low: float, high: float) -> validate.Range:
    return validate.Range(low, high, error="must be from {min} to {max}")


SEAT = _one_of(*t.SEATS)
VERSION = _one_of(*VERSIONS)


class Hinted(validate.OneOf):
    """One of ``choices``, where some wrong values clients send (``hints``) are answered with
    how to write what they mean."""

    def __init__(self, choices: tuple[str, ...], hints: dict[str, str]) -> None:
        super().__init__(choices, error="must be one of: {choices}")
        self.hints = hints

    def __call__(self, value: Any) -> Any:
        if value in self.hints:
            raise ValidationError(self.hints[value])
        return super().__call__(value)


# Other scorers (and this service's CLI) have a concealed kong option of its own.
MELD_KIND = Hinted(
    ("chow", "pung", "kong"),
    {"concealed_kong": 'a concealed kong is written "kind": "kong", "concealed": true'},
)


class BoundedList(fields.List):  # type: ignore[type-arg]
    """A list whose length is checked before its items, so a huge list costs one error."""

    def __init__(self, inner: fields.Field[Any], max_items: int, **kwargs: Any) -> None:
        super().__init__(inner, **kwargs)
        self.max_items = max_items

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, list) and len(value) > self.max_items:
            raise ValidationError(f"at most {self.max_items} items")
        return super()._deserialize(value, attr, data, **kwargs)


class Tiles(fields.Field[tuple[int, ...] | t.Held]):
    """Tiles as compact notation ("123m55z") or a list of single tiles (["1m", "5z"]);
    ``counted``: a hand's tiles, loaded counted (``models.read_held``)."""

    def __init__(
        self,
        *,
        single: bool = False,
        longest: tuple[int, int] = models.HELD,
        counted: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.single = single
        self.longest = longest
        self.counted = counted

    def _deserialize(
        self, value: Any, attr: Any, data: Any, **kwargs: Any
    ) -> tuple[int, ...] | t.Held:
        try:
            if self.counted:
                return read_held(value, self.longest)
            return read_tiles(value, self.single, self.longest)
        except t.TileError as error:
            raise ValidationError(str(error)) from None


class Bool(fields.Boolean):
    """JSON true or false only: no 1, "yes" or "true"."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise ValidationError("must be true or false")
        return value


class Int(fields.Integer):
    """A JSON integer only: no 25.0, 1e3, "25" or true."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> int:
        if isinstance(value, float) and value.is_integer():
            raise ValidationError(self._written_as_float(value))
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValidationError("must be an integer")
        return value

    def _written_as_float(self, value: float) -> str:
        """What is wrong with a whole number read as a float: written with an exponent or a
        decimal point (1e3, 25.0), or an integer beyond 64 bits (orjson reads those as
        floats), which is out of any field's range, and then the range is said."""
        if _INT64[0] <= value < _INT64[1]:
            return f"must be an integer, written without an exponent or point (as {value:.0f})"
        try:
            for check in self.validators:  # a range: it says which
                check(value)
        except ValidationError as error:
            return str(error.messages[0])
        return "must be an integer, and this one is out of range"


_INT64 = (-(2.0**63), 2.0**64)  # the integers orjson reads as integers


def _bonus() -> BoundedList:
    return BoundedList(Int(validate=_between(1, 4)), 4, validate=_distinct, load_default=list)


def _distinct(values: list[int]) -> None:
    if len(set(values)) != len(values):
        raise ValidationError("each number at most once")


class _Model(Schema):
    """A schema that loads into a domain object: ``model`` makes it from the loaded fields,
    given as keywords (the fast path gives them in the order of its parameters: loading.py)."""

    model: Any = None

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> Any:
        return type(self).model(**data)


class MeldSchema(_Model):
    model = staticmethod(models.make_meld)
    kind = fields.String(required=True, validate=MELD_KIND)
    tiles = Tiles(required=True)
    concealed = Bool(load_default=False)


class WaitingHandSchema(_Model):
    model = staticmethod(models.make_hand)
    tiles = Tiles(required=True, counted=True)
    melds = BoundedList(fields.Nested(MeldSchema), MAX_MELDS, load_default=list)
    flowers = _bonus()
    seasons = _bonus()


class HandSchema(WaitingHandSchema):
    winning_tile = Tiles(required=True, single=True)


class WaitingWinSchema(_Model):
    model = staticmethod(models.make_win)
    seat = fields.String(required=True, validate=SEAT)
    last_tile = Bool(load_default=False)
    kong_replacement = Bool(load_default=False)
    robbing_kong = Bool(load_default=False)
    first_turn = Bool(load_default=False)


class DiscardSchema(_Model):
    """One discard of the go-around: who, and which tile."""

    model = staticmethod(models.make_discard)
    seat = fields.String(required=True, validate=SEAT)
    tile = Tiles(required=True, single=True)


class WinSchema(WaitingWinSchema):
    by = fields.String(required=True, validate=_one_of("self_draw", "discard"))
    discarder = fields.String(validate=SEAT)
    responsible = fields.String(validate=SEAT)
    pay_as_self_draw = Bool(load_default=False)
    go_around = BoundedList(fields.Nested(DiscardSchema), MAX_GO_AROUND, load_default=tuple)


class PatternId(validate.OneOf):
    """A pattern id of the catalogue; the message for another names the ids near it."""

    def __init__(self) -> None:
        super().__init__(list(BY_ID))

    def __call__(self, value: Any) -> Any:
        if value not in BY_ID:
            raise ValidationError(_not_a_pattern(str(value)))
        return value


def _not_a_pattern(value: str) -> str:
    parent = value.rsplit(".", 1)[0] + "."
    near = [p.id for p in CATALOGUE if p.id.startswith(parent)]
    return (
        f"{shorten(repr(value), 20)} is not a pattern id: the ids are those of GET"
        f" /v1/patterns, {CATALOGUE[0].id} to {CATALOGUE[-1].id}"
        + (f" ({parent}x: {', '.join(near)})" if near else "")
    )


PATTERN_ID = PatternId()


class PatternValues(fields.Field[dict[str, int]]):
    """``{"<pattern id>": points}``; each fault is reported at its id (rules.values.2.1.9)."""

    points = Int(validate=_between(0, MAX_VALUE))

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> dict[str, int]:
        if not isinstance(value, dict):
            raise ValidationError('must be an object of pattern ids and points: {"2.1.2": 100}')
        if len(value) > len(CATALOGUE):
            raise ValidationError(f"at most {len(CATALOGUE)} entries, one per pattern")
        errors: dict[str, Any] = {}
        for key, points in value.items():
            try:
                PATTERN_ID(key)
                self.points.deserialize(points)
            except ValidationError as error:
                errors[key] = error.messages
        if errors:
            raise ValidationError(errors)
        return value


def _known_profile(name: str) -> None:
    names = profile_names()
    if name not in names:
        loaded = f"one of: {', '.join(names)}" if names else "it loaded none"
        raise ValidationError(f"not a profile of this server ({loaded}; GET /v1/rules lists them)")


class ProfileSchema(Schema):
    """What a house-rule profile may set: every field of ``rules`` but ``profile``. Nothing
    has a default here: a field left out is filled in by ``rulesets.resolve``, after the
    profile's."""

    version = fields.String(validate=VERSION)
    payoff = fields.String(validate=_one_of(*SCHEMES))
    standard_value = Int(validate=_between(1, 1_000_000))
    minimum = Int(validate=_between(0, 1_000))
    bonus_tiles = Bool()
    values = PatternValues()
    # A pattern listed twice is excluded once. (marshmallow takes declared fields off the class,
    # so this field does not hide Schema.exclude; mypy cannot know.)
    exclude = BoundedList(fields.String(validate=PATTERN_ID), len(CATALOGUE))  # type: ignore[assignment]
    chicken = Int(validate=_between(0, MAX_VALUE))
    limit = Int(validate=_between(1, MAX_VALUE))


class RulesSchema(ProfileSchema, _Model):
    model = staticmethod(resolve_fields)
    profile = fields.String(validate=_known_profile)


class PatternsQuerySchema(_Model):
    """The query of GET /v1/patterns: the rules' version and profile, checked as a request's."""

    model = staticmethod(resolve_fields)
    version = fields.String(validate=VERSION)
    profile = fields.String(validate=_known_profile)


class ScoredHandSchema(Schema):
    """A won hand and its win: a score request, or a score sheet's scored hand."""

    hand = fields.Nested(HandSchema, required=True)
    win = fields.Nested(WinSchema, required=True)


class ScoreRequestSchema(ScoredHandSchema, _Model):
    model = staticmethod(models.make_score_request)
    rules = fields.Nested(RulesSchema, load_default=Rules)
    explain = Bool(load_default=False)


class Number(fields.Float):
    """A JSON number only: no "0.5" or true."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> float:
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise ValidationError("must be a number")
        return float(value)


class ReviewExpectSchema(Schema):
    """A review's question to the model: ``expect`` without ``draws_left``, which each
    decision takes from the record."""

    discard_rate = Number(load_default=0.0, validate=_between(0, 1))
    objective = fields.String(
        load_default="expected_score", validate=_one_of("expected_score", "win_probability")
    )


class ExpectSchema(_Model, ReviewExpectSchema):
    """``expect``: the solo model's question (RULES.md §8): a review's, and the draws left."""

    model = staticmethod(models.make_expect)
    draws_left = Int(load_default=17, validate=_between(0, MAX_DRAWS_LEFT))


class WaitsRequestSchema(Schema):
    """POST /v1/waits (13 tiles) and POST /v1/discards (14): a hand to analyse; with
    ``expect``, each discard's expected score too."""

    hand = fields.Nested(WaitingHandSchema, required=True)
    win = fields.Nested(WaitingWinSchema, required=True)
    rules = fields.Nested(RulesSchema, load_default=Rules)
    visible = Tiles(longest=(MAX_SEEN_STRING, MAX_SEEN_LIST), load_default=tuple)
    expect = fields.Nested(ExpectSchema, load_default=None, allow_none=False)


class ClaimWinSchema(_Model):
    """A claim's win: how and by whom, the go-around; the win's own patterns (category 9)
    are among the claimed ones."""

    model = staticmethod(models.make_claimed_win)
    by = fields.String(required=True, validate=_one_of("self_draw", "discard"))
    seat = fields.String(required=True, validate=SEAT)
    discarder = fields.String(validate=SEAT)
    responsible = fields.String(validate=SEAT)
    pay_as_self_draw = Bool(load_default=False)
    go_around = BoundedList(fields.Nested(DiscardSchema), MAX_GO_AROUND, load_default=tuple)


class ClaimedPatternSchema(_Model):
    """A claimed pattern: its id (checked against the rules in force, see claims.py) and, for
    3.1 and 11.1.x, how many."""

    model = staticmethod(models.make_entry)
    id = fields.String(
        required=True,
        validate=validate.Length(max=MAX_PATTERN_ID, error="at most {max} characters"),
    )
    count = Int(validate=_between(1, MAX_COUNT))


class ClaimedHandSchema(Schema):
    """A hand scored from the patterns a table agreed on: a claim, or a sheet's claimed hand."""

    patterns = BoundedList(fields.Nested(ClaimedPatternSchema), MAX_CLAIMED, load_default=tuple)
    win = fields.Nested(ClaimWinSchema, required=True)


class ClaimRequestSchema(ClaimedHandSchema):
    """POST /v1/claim."""

    rules = fields.Nested(RulesSchema, load_default=Rules)


class PlayerName(validate.Length):
    """A player's name: 1 to ``MAX_NAME`` characters, none of them a control character or a
    bidirectional control, since a sheet is shown to other people (U+202E would turn the
    rest of a line round)."""

    def __init__(self) -> None:
        super().__init__(1, MAX_NAME, error="a name of {min} to {max} characters")

    def __call__(self, value: Any) -> Any:
        super().__call__(value)
        if found := _UNSHOWABLE.search(value):
            raise ValidationError(
                "must not hold a control character or bidirectional control"
                f" (U+{ord(found[0]):04X} at character {found.start() + 1})"
            )
        return value


# Control characters (C0, DEL, C1), the line and paragraph separators, and the bidirectional
# controls (marks, embeddings, overrides, isolates), as openapi.yaml's PlayerName lists them.
_UNSHOWABLE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")


PLAYER = PlayerName()


def _four_players(names: list[str]) -> None:
    if len(names) != len(t.SEATS) or len(set(names)) != len(names):
        raise ValidationError("four different names, one per seat")


class SeatsSchema(Schema):
    """Who sits where: a player's name at each seat."""

    E = fields.String(required=True, validate=PLAYER)
    S = fields.String(required=True, validate=PLAYER)
    W = fields.String(required=True, validate=PLAYER)
    N = fields.String(required=True, validate=PLAYER)


class DealSchema(Schema):
    """A hand record's deal: each seat's tiles, or null for a seat whose tiles are hidden."""

    E = Tiles(required=True, allow_none=True)
    S = Tiles(required=True, allow_none=True)
    W = Tiles(required=True, allow_none=True)
    N = Tiles(required=True, allow_none=True)


class EventSchema(_Model):
    """One event of a hand record: a seat and its action (exactly one: the replay checks it,
    at the event's path); ``tiles``, a hidden winner's, with its win."""

    model = staticmethod(models.make_event)
    seat = fields.String(required=True, validate=SEAT)
    draw = Tiles(single=True, allow_none=True)
    discard = Tiles(single=True)
    chow = Tiles()
    pung = Tiles()
    kong = Tiles()
    concealed_kong = Tiles()
    added_kong = Tiles(single=True)
    flower = Int(validate=_between(1, 4))
    season = Int(validate=_between(1, 4))
    win = Tiles(single=True)
    tiles = Tiles()


class RecordSchema(_Model):
    """A hand as played (API.md "Hand records")."""

    model = staticmethod(models.make_record)
    deal = fields.Nested(DealSchema, required=True)
    wall = Int(validate=_between(0, MAX_WALL))
    events = BoundedList(fields.Nested(EventSchema), MAX_EVENTS, load_default=tuple)


def _seats_once(seats: list[str]) -> None:
    if len(set(seats)) != len(seats):
        raise ValidationError("each seat at most once")


class ReviewSchema(Schema):
    """``review``: the seats whose decisions are reviewed (default: every seat whose tiles
    are known) and the model's question."""

    seats = BoundedList(fields.String(validate=SEAT), len(t.SEATS), validate=_seats_once)
    expect = fields.Nested(ReviewExpectSchema, load_default=None)


class ReplayRequestSchema(Schema):
    """POST /v1/replay: a hand record checked, its end scored; with ``review``, the decisions
    of its seats reviewed."""

    record = fields.Nested(RecordSchema, required=True)
    rules = fields.Nested(RulesSchema, load_default=Rules)
    review = fields.Nested(ReviewSchema, load_default=None)


class SheetHandSchema(_Model):
    """One hand of a score sheet: one of score, claim, draw or record, and the seats if they
    moved."""

    model = staticmethod(models.make_sheet_hand)
    seats = fields.Nested(SeatsSchema)
    score = fields.Nested(ScoredHandSchema)
    claim = fields.Nested(ClaimedHandSchema)
    draw = Bool()
    record = fields.Nested(RecordSchema)


class SettleRequestSchema(Schema):
    """POST /v1/settle: a session's hands settled between its players."""

    players = BoundedList(fields.String(validate=PLAYER), len(t.SEATS), validate=_four_players)
    rules = fields.Nested(RulesSchema, load_default=Rules)
    hands = BoundedList(fields.Nested(SheetHandSchema), MAX_SHEET_HANDS, required=True)


class BatchRequestSchema(Schema):
    # Any JSON value, null included: each item is validated on its own, as a score request.
    items = BoundedList(fields.Raw(allow_none=True), MAX_BATCH, required=True)
