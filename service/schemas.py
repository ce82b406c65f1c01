"""The request schemas: JSON in, domain objects out, strictly (unknown fields rejected).

marshmallow checks shape and types and parses the tile notation; what makes a hand legal
(counts, melds, context) is the domain's to judge, so its errors carry the domain's codes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import islice
from typing import Any

from marshmallow import Schema, ValidationError, fields, missing, post_load, validate

from .domain import tiles as t
from .domain.errors import Problem
from .domain.hand import Hand, MeldSpec, Rules, Win

MAX_BODY = 2 * 1024 * 1024  # bytes; the HTTP layer enforces it
MAX_TILE_STRING = 64
MAX_TILE_LIST = 18
MAX_MELDS = 4
MAX_BATCH = 1000
MAX_ERRORS = 20


def _one_of(*choices: str) -> validate.OneOf:
    return validate.OneOf(choices, error="must be one of: {choices}")


def _between(low: int, high: int) -> validate.Range:
    return validate.Range(low, high, error="must be from {min} to {max}")


SEAT = _one_of(*t.SEATS)


class BoundedList(fields.List):  # type: ignore[type-arg]
    """A list whose length is checked before its items, so a huge list costs one error."""

    def __init__(self, inner: fields.Field[Any], max_items: int, **kwargs: Any) -> None:
        super().__init__(inner, **kwargs)
        self.max_items = max_items

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, list) and len(value) > self.max_items:
            raise ValidationError(f"at most {self.max_items} items")
        return super()._deserialize(value, attr, data, **kwargs)


class Tiles(fields.Field[list[int]]):
    """Tiles as compact notation ("123m55z") or a list of single tiles (["1m", "5z"])."""

    def __init__(self, *, single: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.single = single

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> list[int]:
        if isinstance(value, str):
            if len(value) > MAX_TILE_STRING:
                raise ValidationError(f"at most {MAX_TILE_STRING} characters")
        elif isinstance(value, list):
            if len(value) > MAX_TILE_LIST:
                raise ValidationError(f"at most {MAX_TILE_LIST} tiles")
        else:
            raise ValidationError("tiles are a string like '123m55z' or a list like ['1m', '5z']")
        try:
            tiles = t.parse(value)
        except t.TileError as error:
            raise ValidationError(str(error)) from None
        if self.single and len(tiles) != 1:
            raise ValidationError("exactly one tile, e.g. '4s'")
        return tiles


class Bool(fields.Boolean):
    """JSON true or false only: no 1, "yes" or "true"."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise ValidationError("must be true or false")
        return value


class Int(fields.Integer):
    """A JSON integer only: no 25.0, "25" or true."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValidationError("must be an integer")
        return value


def _bonus() -> BoundedList:
    return BoundedList(Int(validate=_between(1, 4)), 4, validate=_distinct, load_default=list)


def _distinct(values: list[int]) -> None:
    if len(set(values)) != len(values):
        raise ValidationError("each number at most once")


class MeldSchema(Schema):
    kind = fields.String(required=True, validate=_one_of("chow", "pung", "kong"))
    tiles = Tiles(required=True)
    concealed = Bool(load_default=False)

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> MeldSpec:
        return MeldSpec(data["kind"], tuple(data["tiles"]), data["concealed"])


class WaitingHandSchema(Schema):
    tiles = Tiles(required=True)
    melds = BoundedList(fields.Nested(MeldSchema), MAX_MELDS, load_default=list)
    flowers = _bonus()
    seasons = _bonus()

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> Hand:
        return Hand(
            tuple(data["tiles"]),
            tuple(data["melds"]),
            data["winning_tile"][0] if "winning_tile" in data else 0,
            tuple(data["flowers"]),
            tuple(data["seasons"]),
        )


class HandSchema(WaitingHandSchema):
    winning_tile = Tiles(required=True, single=True)


class WaitingWinSchema(Schema):
    seat = fields.String(required=True, validate=SEAT)
    last_tile = Bool(load_default=False)
    kong_replacement = Bool(load_default=False)
    robbing_kong = Bool(load_default=False)
    first_turn = Bool(load_default=False)

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> Win:
        return Win(**data)


class WinSchema(WaitingWinSchema):
    by = fields.String(required=True, validate=_one_of("self_draw", "discard"))
    discarder = fields.String(validate=SEAT)
    responsible = fields.String(validate=SEAT)
    pay_as_self_draw = Bool(load_default=False)


class RulesSchema(Schema):
    version = fields.String(load_default="3.3", validate=_one_of("3.3", "2.51"))
    payoff = fields.String(
        load_default="formal",
        validate=_one_of("formal", "uniform", "discarder_pays_all", "discarder_pays_double"),
    )
    standard_value = Int(load_default=25, validate=_between(1, 1_000_000))
    minimum = Int(load_default=0, validate=_between(0, 1_000))
    bonus_tiles = Bool(load_default=False)

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> Rules:
        return Rules(**data)


class ScoreRequestSchema(Schema):
    hand = fields.Nested(HandSchema, required=True)
    win = fields.Nested(WinSchema, required=True)
    rules = fields.Nested(RulesSchema, load_default=Rules)


class WaitsRequestSchema(Schema):
    hand = fields.Nested(WaitingHandSchema, required=True)
    win = fields.Nested(WaitingWinSchema, required=True)
    rules = fields.Nested(RulesSchema, load_default=Rules)


class BatchRequestSchema(Schema):
    # Any JSON value, null included: each item is validated on its own, as a score request.
    items = BoundedList(fields.Raw(allow_none=True), MAX_BATCH, required=True)


def load(schema: Schema, payload: Any) -> dict[str, Any]:
    """Validate ``payload``; a failure is an ``invalid_request`` Problem listing every field."""
    try:
        return _fast_loader(schema)(payload)  # type: ignore[no-any-return]
    except (_Doubt, ValidationError):
        pass
    if not isinstance(payload, Mapping):
        raise Problem.at("invalid_request", "$", "the body must be a JSON object")
    try:
        return schema.load(payload)  # type: ignore[no-any-return]
    except ValidationError as error:
        # Capped, so that a problem never grows with a hostile input.
        errors = list(islice(_flatten(error.messages, ""), MAX_ERRORS))
        detail = "; ".join(f"{e['path']}: {e['message']}" for e in errors[:5])
        raise Problem("invalid_request", detail, errors) from None


class _Doubt(Exception):
    """The fast loader met something it leaves to marshmallow."""


_Loader = Callable[[Any], Any]
_loaders: dict[int, _Loader] = {}


def _fast_loader(schema: Schema) -> _Loader:
    """``schema.load`` for well-formed input, without marshmallow's per-call bookkeeping.

    marshmallow spends most of a load on machinery (hooks, error accumulation, partial
    loading). This runs the schema's own field deserializers, validators and ``make``
    post-load directly, and gives up at the first doubt (an unknown or missing field, a null,
    a failed check), so that ``schema.load`` reports every error as usual. A property test
    holds the two to the same results.
    """
    loader = _loaders.get(id(schema))
    if loader is None:
        loader = _loaders[id(schema)] = _compile(schema)
    return loader


def _compile(schema: Schema) -> _Loader:
    fields_by_key = {
        field.data_key or name: (name, _convert(field))
        for name, field in schema.load_fields.items()
    }
    required = frozenset(
        field.data_key or name for name, field in schema.load_fields.items() if field.required
    )
    defaults = [
        (field.data_key or name, name, field.load_default)
        for name, field in schema.load_fields.items()
        if field.load_default is not missing
    ]
    make = getattr(schema, "make", None)

    def load(data: Any) -> Any:
        if type(data) is not dict or not required.issubset(data):
            raise _Doubt
        out = {}
        for key, value in data.items():
            entry = fields_by_key.get(key)
            if entry is None or value is None:
                raise _Doubt
            out[entry[0]] = entry[1](value)
        for key, name, default in defaults:
            if key not in data:
                out[name] = default() if callable(default) else default
        return make(out) if make else out

    return load


def _convert(field: fields.Field[Any]) -> _Loader:
    if isinstance(field, fields.Nested):
        return _compile(field.schema)
    checks = [_check(validator) for validator in field.validators]
    if isinstance(field, fields.List):
        inner = _convert(field.inner)
        longest = getattr(field, "max_items", None)

        def convert_list(value: Any) -> Any:
            if type(value) is not list or (longest is not None and len(value) > longest):
                raise _Doubt
            out = [inner(item) for item in value]
            for check in checks:
                check(out)
            return out

        return convert_list
    if type(field) is fields.String:
        # String._deserialize hands a str back unchanged: skip the call.
        def convert_string(value: Any) -> Any:
            if type(value) is not str:
                raise _Doubt
            for check in checks:
                check(value)
            return value

        return convert_string
    deserialize = field._deserialize

    def convert(value: Any) -> Any:
        out = deserialize(value, None, None)
        for check in checks:
            check(out)
        return out

    return convert


def _check(validator: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """A validator as a plain call; OneOf as a set look-up (on the str values it guards)."""
    if isinstance(validator, validate.OneOf):
        allowed = frozenset(validator.choices)

        def one_of(value: Any) -> None:
            if value not in allowed:
                raise _Doubt

        return one_of
    return validator


def _shorten(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


_PLAIN = {
    "Unknown field.": "unknown field: remove it",
    "Missing data for required field.": "required",
    "Field may not be null.": "must not be null",
    "Invalid input type.": "wrong type: expected an object",
    "Not a valid list.": "must be a list",
    "Not a valid string.": "must be a string",
}


def _flatten(messages: Any, path: str) -> Any:
    if isinstance(messages, dict):
        for key, value in messages.items():
            if key == "_schema":
                yield from _flatten(value, path)
            elif isinstance(key, int):
                yield from _flatten(value, f"{path}[{key}]")
            else:
                name = _shorten(str(key))
                yield from _flatten(value, f"{path}.{name}" if path else name)
    elif isinstance(messages, list):
        for message in messages:
            yield from _flatten(message, path)
    else:
        message = _shorten(_PLAIN.get(str(messages), str(messages)), 200)
        yield {"path": path or "$", "message": message}
