"""The fast path of request loading: a schema's fields as small compiled converters.

marshmallow (``schemas.py``) is the authority on what a request may be and on every error
message, but it is slow for what it does here (hooks, error accumulation, partial loading) on
the hottest path of the service. ``loading.py`` turns each schema into these converters once;
they load a well-formed request directly and, at the first doubt (an unknown or missing
field, a null, a wrong type, a failed check), raise ``Doubt``. A request in doubt is then
explained (``Record.explain``): the records are walked here, each wrong value explained by its
marshmallow field, so that a bad request costs about what a good one does; what cannot be
explained that way goes through marshmallow whole. Property tests hold both paths to the same
results and the same errors. The module imports no marshmallow, so that mypyc compiles it
(setup.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from mypy_extensions import i64

from ..domain.rules import tiles as t
from .limits import MAX_ERRORS
from .models import Maker, read_held, read_tiles


class Doubt(Exception):
    """The fast path met something it leaves to marshmallow."""


# What a field's messages are when a value is wrong: marshmallow's own messages for it, the
# same shape as ``ValidationError.messages`` (a list of strings, or a dict of them by key or
# index), or None when the value is fine.
Messages = list[str] | dict[Any, Any]
Explain = Callable[[object], Messages | None]


class Converter:
    """One field: its JSON value in, the loaded value out, or ``Doubt``; and, for a value in
    doubt, what is wrong with it in marshmallow's words (``explain``), given to it by
    loading.py, or ``Doubt`` again when it cannot tell."""

    def load(self, value: object) -> object:
        raise NotImplementedError

    def explain(self, value: object) -> Messages | None:
        raise Doubt


def _said(message: str | None) -> Messages:
    if message is None:
        raise Doubt
    return [message]


class Choice(Converter):
    """A string, one of ``choices`` (or any string when there are none)."""

    def __init__(
        self,
        choices: frozenset[str] | None,
        not_a_string: str | None = None,
        not_a_choice: str | None = None,
    ) -> None:
        self.choices = choices
        self.not_a_string = not_a_string
        self.not_a_choice = not_a_choice

    def load(self, value: object) -> object:
        if not isinstance(value, str) or (self.choices is not None and value not in self.choices):
            raise Doubt
        return value

    def explain(self, value: object) -> Messages | None:
        if not isinstance(value, str):
            return _said(self.not_a_string)
        if self.choices is not None and value not in self.choices:
            return _said(self.not_a_choice)
        return None


class Flag(Converter):
    """JSON true or false."""

    def __init__(self, not_a_flag: str | None = None) -> None:
        self.not_a_flag = not_a_flag

    def load(self, value: object) -> object:
        if not isinstance(value, bool):
            raise Doubt
        return value

    def explain(self, value: object) -> Messages | None:
        return None if isinstance(value, bool) else _said(self.not_a_flag)


class Number(Converter):
    """A JSON integer (not a bool) from ``low`` to ``high``."""

    def __init__(
        self,
        low: int,
        high: int,
        not_an_integer: str | None = None,
        out_of_range: str | None = None,
    ) -> None:
        self.low = low
        self.high = high
        self.not_an_integer = not_an_integer
        self.out_of_range = out_of_range

    def load(self, value: object) -> object:
        if not isinstance(value, int) or isinstance(value, bool):
            raise Doubt
        if not self.low <= value <= self.high:
            raise Doubt
        return value

    def explain(self, value: object) -> Messages | None:
        if isinstance(value, float):
            raise Doubt  # 1e3, 25.0, an integer beyond 64 bits: the field says which (Int)
        if not isinstance(value, int) or isinstance(value, bool):
            return _said(self.not_an_integer)
        if not self.low <= value <= self.high:
            return _said(self.out_of_range)
        return None


class Tiles(Converter):
    """Tile notation (see ``read_tiles``); ``counted``: a hand's tiles, read into a
    ``tiles.Held`` (``read_held``)."""

    def __init__(self, single: bool, longest: tuple[int, int], counted: bool = False) -> None:
        self.single = single
        self.longest = longest
        self.counted = counted

    def load(self, value: object) -> object:
        try:
            return self._read(value)
        except t.TileError:
            raise Doubt from None

    def explain(self, value: object) -> Messages | None:
        try:
            self._read(value)
        except t.TileError as error:
            return [str(error)]
        return None

    def _read(self, value: object) -> object:
        if self.counted:
            return read_held(value, self.longest)
        return read_tiles(value, self.single, self.longest)


class Items(Converter):
    """A list of at most ``longest`` items, each loaded by ``item``; ``distinct`` items."""

    def __init__(
        self,
        item: Converter,
        longest: int,
        distinct: bool,
        words: tuple[str | None, str | None, str | None] = (None, None, None),
    ) -> None:
        self.item = item
        self.longest = longest
        self.distinct = distinct
        # What marshmallow says of a value that is no list, too long, or with repeated items.
        self.not_a_list, self.too_long, self.repeated = words

    def load(self, value: object) -> object:
        if not isinstance(value, list) or len(value) > self.longest:
            raise Doubt
        item = self.item
        out = [item.load(x) for x in value]
        if self.distinct and _repeats(out):
            raise Doubt
        return out

    def explain(self, value: object) -> Messages | None:
        if not isinstance(value, list):
            return _said(self.not_a_list)
        if len(value) > self.longest:
            return _said(self.too_long)
        errors: dict[int, Messages] = {}
        out = []
        for index, x in enumerate(value):
            if x is None:
                errors[index] = _NULL
                continue
            try:
                out.append(self.item.load(x))
            except Doubt:
                found = self.item.explain(x)
                if found:
                    errors[index] = found
        if errors:
            return errors
        if self.distinct and _repeats(out):
            return _said(self.repeated)
        return None


def _repeats(items: list[object]) -> bool:
    """Whether some item is there twice. The lists that must not repeat are a hand's
    flowers or seasons, at most four numbers: compared in pairs, which costs less than making
    a set of them (a set still for a longer list)."""
    n = len(items)
    if n > 8:
        return len(set(items)) != n
    for i in range(1, n):
        for j in range(i):
            if items[i] == items[j]:
                return True
    return False


class Checked(Converter):
    """Any other field: loaded by the field itself (its ``deserialize``, validators included).

    The field's refusal (marshmallow's ValidationError, given as ``refused``: this module
    imports no marshmallow) is a doubt like any other, so that the records and lists holding
    the field explain it alike.
    """

    def __init__(self, deserialize: Callable[[object], object], refused: type[Exception]) -> None:
        self.deserialize = deserialize
        self.refused = refused

    def load(self, value: object) -> object:
        try:
            return self.deserialize(value)
        except self.refused:
            raise Doubt from None


class Field:
    """One key of a ``Record``: the key, the attribute it loads into, its converter, whether
    the key is required, how to explain a wrong value (``Explain``; None for a nested record,
    which explains itself), its place among the record's values (``index``; ``bit``, the
    same as a bit of a mask), and whether it may be null (``nullable``: a hand record's hidden
    seat; ``load`` leaves a null to marshmallow, ``explain`` finds nothing wrong with it)."""

    def __init__(
        self,
        key: str,
        name: str,
        converter: Converter,
        required: bool,
        explain: Explain | None,
        index: int,
        nullable: bool = False,
    ) -> None:
        self.key: Final = key
        self.name: Final = name
        self.converter: Final = converter
        self.required: Final = required
        self.explain: Final = explain
        self.index: Final[i64] = index
        self.bit: Final[i64] = 1 << index
        self.nullable: Final = nullable


# A value left out, without a default: absent from the record's dict.
ABSENT: Final = object()


class Record(Converter):
    """A JSON object with known keys: ``fields`` maps each key to its ``Field``.

    Its values are loaded into a list, one place per ``names`` (``Field.index``), which starts
    as ``defaults`` (never changed: tuples, not lists; ``ABSENT`` where a key has none). The
    domain's object is made from them by ``make``: with them as its arguments, in their order
    (``positional``: a list is cheaper to fill than a dict, and arguments than look-ups), or
    as keywords, those given and defaulted (a maker taking ``**fields``, which tells a field
    left out from one given); without ``make``, the record is the dict of those. A positional
    ``make`` may come with its ``maker``, which calls it natively.
    """

    def __init__(
        self,
        fields: dict[str, Field],
        names: tuple[str, ...],
        defaults: list[object],
        make: Callable[..., object] | None,
        positional: bool,
        maker: Maker | None = None,
    ) -> None:
        self.fields = fields
        # Looked up in this order, the required first: most records stop early, once every
        # key given is found.
        self.order = tuple(sorted(fields.values(), key=lambda field: not field.required))
        self.names = names
        self.required: i64 = sum([field.bit for field in fields.values() if field.required])
        self.optional: i64 = sum([field.bit for field in fields.values() if not field.required])
        self.defaults = defaults
        self.make = make
        self.positional = positional
        self.maker = maker
        # The fields that may be null (a hand record's hidden seat), as bits: a null is left
        # unfound by the look-ups, which take it for a key left out.
        self.nullable: i64 = sum([field.bit for field in fields.values() if field.nullable])
        self.spare: list[object] | None = None
        self.stale: i64 = 0  # the optional fields whose values the spare list still holds

    def load(self, value: object) -> object:
        if not isinstance(value, dict):
            raise Doubt
        given_object: dict[object, object] = value  # typed once: compiled, never checked again
        # The values' list of the last load, given back, else a new one: most requests hold
        # each record once, and a list made and freed costs more than putting back defaults.
        spare = self.spare
        out: list[object]
        stale: i64 = 0
        if spare is None:
            out = self.defaults.copy()
        else:
            out = spare
            stale = self.stale
            self.spare = None  # taken: a load inside this one (never its own record) makes its own
        # Each field's key looked up, rather than the object's items walked: a look-up by a
        # key whose hash is kept costs a third of a step of the walk, and the walk would
        # still have to find each key's field. What is left unfound (``left``) is a key
        # of no field, or a null.
        left: i64 = len(given_object)
        given: i64 = 0  # the fields given, as bits
        for field in self.order:
            if left == 0:
                break
            item = given_object.get(field.key)
            if item is not None:
                out[field.index] = field.converter.load(item)
                given |= field.bit
                left -= 1
        if left:
            nulls = self._nulls(given_object, out)
            given |= nulls
            left -= t.bit_count(nulls)
            if left:
                raise Doubt
        if given & self.required != self.required:
            raise Doubt
        # What the last load gave and this one does not goes back to its default: a client
        # sends the same fields with every hand, so that mostly nothing does.
        stale &= ~given
        if stale:
            self._reset(out, stale)
        maker, make = self.maker, self.make
        if maker is not None:
            made = maker.make(out)
        elif make is None:
            made = self._given(out)
        else:
            made = _called(make, out) if self.positional else make(**self._given(out))
        # Its values are held until the next load: a required field's (it overwrites them
        # all) and an optional field's given (``stale``), one request's worth.
        self.stale = given & self.optional
        self.spare = out
        return made

    def _nulls(self, given: dict[object, object], values: list[object]) -> i64:
        """The nullable fields given as null, as bits, their values set to None."""
        found: i64 = 0
        if self.nullable:
            for field in self.order:
                if field.nullable and field.key in given and given[field.key] is None:
                    values[field.index] = None
                    found |= field.bit
        return found

    def _reset(self, values: list[object], stale: i64) -> None:
        """The places of the fields ``stale`` back to their defaults (a slice assigned costs
        five times as much: a slice object made, its bounds checked, every place copied)."""
        defaults = self.defaults
        index: i64 = 0
        while stale:
            if stale & 1:
                values[index] = defaults[index]
            stale >>= 1
            index += 1

    def _given(self, values: list[object]) -> dict[str, object]:
        """The values given or defaulted, by name."""
        names = self.names
        return {names[i]: value for i, value in enumerate(values) if value is not ABSENT}

    def explain(self, value: object, room: int = MAX_ERRORS) -> Messages:
        """What is wrong with ``value``, as marshmallow says it (empty if nothing is): its
        first ``room`` messages, all that a problem lists (see ``flatten``).

        The walk marshmallow's schemas make, without their cost: a nested schema merges its
        errors into copies at every field, which made a request with a hundred unknown keys
        cost ~0.2 ms. Fields are explained in their declared order, then unknown keys, as
        marshmallow lists them (it lists unknown keys in no fixed order).
        """
        if not isinstance(value, dict):
            return ["Invalid input type."]
        errors: dict[str, Messages] = {}
        for key, field in self.fields.items():
            if room <= 0:
                return errors
            found: Messages | None
            if key not in value:
                found = _MISSING if field.required else None
            elif value[key] is None:
                found = None if field.nullable else _NULL
            elif isinstance(field.converter, Record):
                found = field.converter.explain(value[key], room)
            else:
                try:
                    found = field.converter.explain(value[key])
                except Doubt:  # only marshmallow can tell: its field explains
                    found = None if field.explain is None else field.explain(value[key])
            if found:
                errors[key] = found
                room -= _count(found)
        for key in value:
            if room <= 0:
                break
            if key not in self.fields:
                errors[key] = _UNKNOWN
                room -= 1
        return errors


def _called(make: Callable[..., object], v: list[object]) -> object:
    """``make(*v)``, its arguments listed: compiled, a call with listed arguments is a vector
    call, where ``*v`` first copies them into a tuple (records have two to ten fields)."""
    n = len(v)
    if n == 2:
        return make(v[0], v[1])
    if n == 3:
        return make(v[0], v[1], v[2])
    if n == 4:
        return make(v[0], v[1], v[2], v[3])
    if n == 5:
        return make(v[0], v[1], v[2], v[3], v[4])
    if n == 6:
        return make(v[0], v[1], v[2], v[3], v[4], v[5])
    if n == 10:
        return make(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9])
    return make(*v)


class Loader:
    """One schema's ``load`` (loading.py), compiled: the fast path (``record``), and for a
    request in doubt, the rest of ``load`` (``slow``), so that a request the fast path loads
    never leaves compiled code."""

    def __init__(self, record: Record, slow: Callable[[object], Any]) -> None:
        self.record: Final = record
        self.slow: Final = slow

    def load(self, payload: object) -> Any:
        try:
            return self.record.load(payload)
        except Doubt:
            return self.slow(payload)


def keys(value: object) -> int:
    """How many keys the objects in the JSON ``value`` hold, all told (api/lane.py counts
    them against the body's colons, to find a key given twice). Compiled, 0.4-0.6 µs for a
    score request, a quarter of its parse (walked with a list of what is left to walk: 1.5;
    measured); interpreted, a body nested near orjson's 1024 levels is past Python's
    recursion limit (RecursionError)."""
    if isinstance(value, dict):
        return _in_object(value)
    if isinstance(value, list):
        return _in_array(value)
    return 0


def _in_object(value: dict[Any, Any]) -> int:
    n = len(value)
    for item in value.values():
        if isinstance(item, dict):
            n += _in_object(item)
        elif isinstance(item, list):
            n += _in_array(item)
    return n


def _in_array(value: list[Any]) -> int:
    n = 0
    for item in value:
        if isinstance(item, dict):
            n += _in_object(item)
        elif isinstance(item, list):
            n += _in_array(item)
    return n


def _count(messages: object) -> int:
    """How many errors ``messages`` flatten to."""
    if isinstance(messages, dict):
        return sum(_count(inner) for inner in messages.values())
    if isinstance(messages, list):
        return sum(_count(inner) for inner in messages)
    return 1


# Shared, never changed: a hostile request may hold a hundred unknown keys.
_MISSING: Final = ["Missing data for required field."]
_NULL: Final = ["Field may not be null."]
_UNKNOWN: Final = ["Unknown field."]


_PLAIN: Final = {
    "Unknown field.": "unknown field: remove it",
    "Missing data for required field.": "required",
    "Field may not be null.": "must not be null",
    "Invalid input type.": "wrong type: expected an object",
    "Not a valid list.": "must be a list",
    "Not a valid string.": "must be a string",
}


def shorten(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def flatten(messages: object, path: str, limit: int = 1 << 30) -> list[dict[str, str]]:
    """``messages`` (``Messages``) as the problem's ``errors``: at most ``limit`` of them, in
    order, each with its dotted path (``hand.melds[0].tiles``) and a plain message."""
    errors: list[dict[str, str]] = []
    _flatten(messages, path, limit, errors)
    return errors


def _flatten(messages: object, path: str, limit: int, errors: list[dict[str, str]]) -> None:
    if isinstance(messages, dict):
        for key, value in messages.items():
            if len(errors) >= limit:
                return
            if key == "_schema":
                _flatten(value, path, limit, errors)
            elif isinstance(key, int):
                _flatten(value, f"{path}[{key}]", limit, errors)
            else:
                name = shorten(str(key))
                _flatten(value, f"{path}.{name}" if path else name, limit, errors)
    elif isinstance(messages, list):
        for message in messages:
            if len(errors) >= limit:
                return
            _flatten(message, path, limit, errors)
    else:
        text = str(messages)
        errors.append({"path": path or "$", "message": shorten(_PLAIN.get(text, text), 200)})
