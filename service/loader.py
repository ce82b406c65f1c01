"""The fast path of request loading: a schema's fields as small compiled converters.

marshmallow (``schemas.py``) is the authority on what a request may be and on every error
message, but it is slow for what it does here (hooks, error accumulation, partial loading) on
the hottest path of the service. ``schemas.py`` turns each schema into these converters once;
they load a well-formed request directly and never report an error: at the first doubt (an
unknown or missing field, a null, a wrong type, a failed check) they raise ``Doubt`` and the
request goes through marshmallow, which says what is wrong. A property test holds both to the
same results. The module imports no marshmallow, so that mypyc compiles it (setup.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from .domain import tiles as t
from .domain.hand import Hand, MeldSpec, Rules, Win
from .domain.rulesets import resolve

MAX_TILE_STRING: Final = 64
MAX_TILE_LIST: Final = 18


class Doubt(Exception):
    """The fast path met something it leaves to marshmallow."""


def read_tiles(value: object, single: bool) -> list[int]:
    """Tiles as JSON gives them: compact notation or a list of single tiles.

    Raises ``TileError`` saying what is wrong; ``single``: exactly one tile.
    """
    if isinstance(value, str):
        if len(value) > MAX_TILE_STRING:
            raise t.TileError(f"at most {MAX_TILE_STRING} characters")
        tiles = t.parse(value)
    elif isinstance(value, list):
        if len(value) > MAX_TILE_LIST:
            raise t.TileError(f"at most {MAX_TILE_LIST} tiles")
        tiles = t.parse(value)
    else:
        raise t.TileError("tiles are a string like '123m55z' or a list like ['1m', '5z']")
    if single and len(tiles) != 1:
        raise t.TileError("exactly one tile, e.g. '4s'")
    return tiles


# The domain objects a loaded request is made of, from its fields (both paths use these).


def make_meld(data: dict[str, Any]) -> MeldSpec:
    return MeldSpec(data["kind"], tuple(data["tiles"]), data["concealed"])


def make_hand(data: dict[str, Any]) -> Hand:
    winning = data.get("winning_tile")  # absent in a waits request
    return Hand(
        tuple(data["tiles"]),
        tuple(data["melds"]),
        winning[0] if winning else 0,
        tuple(data["flowers"]),
        tuple(data["seasons"]),
    )


def make_win(data: dict[str, Any]) -> Win:
    # Positional: keywords would cost a native constructor more than all its checks. A waits
    # request has no ``by`` and no discarder.
    return Win(
        data.get("by", "self_draw"),
        data["seat"],
        data.get("discarder"),
        data["last_tile"],
        data["kong_replacement"],
        data["robbing_kong"],
        data["first_turn"],
        data.get("responsible"),
        data.get("pay_as_self_draw", False),
    )


def make_rules(data: dict[str, Any]) -> Rules:
    # No defaults are filled in before: a field left out must not hide a profile's.
    return resolve(data)


class Converter:
    """One field: its JSON value in, the loaded value out, or ``Doubt``."""

    def load(self, value: object) -> object:
        raise NotImplementedError


class Choice(Converter):
    """A string, one of ``choices`` (or any string when there are none)."""

    def __init__(self, choices: frozenset[str] | None) -> None:
        self.choices = choices

    def load(self, value: object) -> object:
        if not isinstance(value, str) or (self.choices is not None and value not in self.choices):
            raise Doubt
        return value


class Flag(Converter):
    """JSON true or false."""

    def load(self, value: object) -> object:
        if not isinstance(value, bool):
            raise Doubt
        return value


class Number(Converter):
    """A JSON integer (not a bool) from ``low`` to ``high``."""

    def __init__(self, low: int, high: int) -> None:
        self.low = low
        self.high = high

    def load(self, value: object) -> object:
        if not isinstance(value, int) or isinstance(value, bool):
            raise Doubt
        if not self.low <= value <= self.high:
            raise Doubt
        return value


class Tiles(Converter):
    """Tile notation (see ``read_tiles``)."""

    def __init__(self, single: bool) -> None:
        self.single = single

    def load(self, value: object) -> object:
        try:
            return read_tiles(value, self.single)
        except t.TileError:
            raise Doubt from None


class Items(Converter):
    """A list of at most ``longest`` items, each loaded by ``item``; ``distinct`` items."""

    def __init__(self, item: Converter, longest: int, distinct: bool) -> None:
        self.item = item
        self.longest = longest
        self.distinct = distinct

    def load(self, value: object) -> object:
        if not isinstance(value, list) or len(value) > self.longest:
            raise Doubt
        item = self.item
        out = [item.load(x) for x in value]
        if self.distinct and len(set(out)) != len(out):
            raise Doubt
        return out


class Checked(Converter):
    """Any other field: its own deserializer and validators, as plain calls.

    They raise marshmallow's ValidationError, which the caller takes as a doubt too.
    """

    def __init__(
        self, deserialize: Callable[[object], object], checks: list[Callable[[object], object]]
    ) -> None:
        self.deserialize = deserialize
        self.checks = checks

    def load(self, value: object) -> object:
        out = self.deserialize(value)
        for check in self.checks:
            check(out)
        return out


class Field:
    """One key of a ``Record``: the attribute it loads into, its converter, and whether the
    key is required."""

    def __init__(self, name: str, converter: Converter, required: bool) -> None:
        self.name: Final = name
        self.converter: Final = converter
        self.required: Final = required


class Record(Converter):
    """A JSON object with known keys: ``fields`` maps each key to its ``Field``.

    ``defaults`` hold the attributes of the keys that may be left out, with values that are
    never changed (tuples, not lists); ``make`` turns the loaded attributes into the domain's
    object.
    """

    def __init__(
        self,
        fields: dict[str, Field],
        defaults: dict[str, object],
        make: Callable[[dict[str, Any]], object] | None,
    ) -> None:
        self.fields = fields
        self.required = sum(field.required for field in fields.values())
        self.defaults = defaults
        self.make = make

    def load(self, value: object) -> object:
        if not isinstance(value, dict):
            raise Doubt
        fields = self.fields
        out = self.defaults.copy()
        required = 0
        for key, item in value.items():
            field = fields.get(key)
            if field is None or item is None:
                raise Doubt
            out[field.name] = field.converter.load(item)
            required += field.required
        if required != self.required:  # keys are distinct: every required one was given
            raise Doubt
        return out if self.make is None else self.make(out)
