"""Loading a request: the fast path first, marshmallow for what it alone can say.

The fast path's converters (fast.py, compiled) are made from the schemas (schemas.py) by
reading their fields, once per schema class, so that the two cannot drift apart.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from typing import Any

from marshmallow import Schema, ValidationError, fields, missing, validate

from ..problems import Problem
from . import fast
from .limits import MAX_ERRORS
from .models import MAKERS
from .schemas import Bool, BoundedList, Int, Tiles, _distinct


def load(schema: Schema, payload: Any) -> dict[str, Any]:
    """Validate ``payload``; a failure is an ``invalid_request`` Problem listing every field."""
    converter = fast_loader(schema)
    try:
        return converter.load(payload)  # type: ignore[return-value]
    except (fast.Doubt, ValidationError):
        return _in_doubt(schema, converter, payload)


def loader(schema: Schema) -> fast.Loader:
    """``load`` for one schema, as one compiled call (the engine's)."""
    converter = fast_loader(schema)
    return fast.Loader(converter, functools.partial(_in_doubt, schema, converter))


def _in_doubt(schema: Schema, converter: fast.Record, payload: Any) -> dict[str, Any]:
    """``load`` of a request the fast path doubted: explained, or loaded by marshmallow."""
    if not isinstance(payload, Mapping):
        raise Problem.at("invalid_request", "$", "the body must be a JSON object")
    messages = explain(converter, payload)
    if not messages:  # the fast path doubted what it cannot explain: marshmallow decides
        try:
            return schema.load(payload)  # type: ignore[no-any-return]
        except ValidationError as error:
            messages = error.messages
    # Capped, so that a problem never grows with a hostile input.
    errors = fast.flatten(messages, "", MAX_ERRORS)
    detail = "; ".join(f"{e['path']}: {e['message']}" for e in errors[:5])
    raise Problem("invalid_request", detail, errors)


def explain(converter: fast.Record, payload: Mapping[str, Any]) -> fast.Messages:
    """The fast path's account of what is wrong (see fast.py), empty if it has none."""
    try:
        return converter.explain(payload)
    except fast.Doubt:
        return {}


def fast_loader(schema: Schema) -> fast.Record:
    """The compiled converters for ``schema`` (see fast.py), made once per schema class: its
    instances all load alike (none is made with ``only`` or ``exclude``)."""
    converter = _converters.get(type(schema))
    if converter is None:
        converter = _converters[type(schema)] = _record(schema)
    return converter


_converters: dict[type[Schema], fast.Record] = {}


def _record(schema: Schema) -> fast.Record:
    """The converter of a record: its fields, and how its model (if any) is made from them.

    A model taking each field as a parameter is given the fields' values in the order of its
    parameters, its own defaults for those left out; a model taking ``**fields``, those given
    and defaulted. Checked here, once: a schema and its model cannot disagree unseen.
    """
    model = getattr(schema, "model", None)
    loaded = schema.load_fields
    parameters = inspect.signature(model).parameters if model else {}
    positional = bool(parameters) and all(
        parameter.kind is parameter.POSITIONAL_OR_KEYWORD for parameter in parameters.values()
    )
    if positional:
        unknown = [name for name in loaded if name not in parameters]
        unset = [
            name
            for name, parameter in parameters.items()
            if parameter.default is parameter.empty
            and not (name in loaded and loaded[name].required)
        ]
        if unknown or unset:
            raise TypeError(f"{model} does not take the fields of {type(schema).__name__}")
        order = list(parameters)
        defaults = [parameter.default for parameter in parameters.values()]
    else:
        order = list(loaded)
        defaults = [fast.ABSENT] * len(order)
    for name, field in loaded.items():
        if field.load_default is not missing:
            defaults[order.index(name)] = _constant(field.load_default)
    return fast.Record(
        {
            (key := field.data_key or name): fast.Field(
                key,
                name,
                _converter(field),
                field.required,
                _explainer(field),
                order.index(name),
                field.allow_none,
            )
            for name, field in loaded.items()
        },
        tuple(order),
        defaults,
        model,
        positional,
        MAKERS.get(model) if positional and model is not None else None,
    )


def _said(check: Callable[[Any], Any], *wrong: Any) -> str | None:
    """The one message ``check`` gives for each of the ``wrong`` values, when it is the same
    for all (no echo of the value): what a converter may then say without asking it."""
    said = set()
    for value in wrong:
        try:
            check(value)
        except ValidationError as error:
            messages = error.messages
            said.add(messages[0] if isinstance(messages, list) and len(messages) == 1 else None)
        else:
            said.add(None)
    return said.pop() if len(said) == 1 else None


def _explainer(field: fields.Field[Any]) -> fast.Explain | None:
    """marshmallow's messages for a wrong value of ``field`` (a nested record explains itself)."""
    if isinstance(field, fields.Nested):
        return None

    def explain(value: object) -> fast.Messages | None:
        try:
            field.deserialize(value)
        except ValidationError as error:
            return error.messages
        return None

    return explain


def _constant(default: Any) -> Any:
    """A field's default as one shared value: called once if callable, a list as a tuple
    (the models take tuples), so that no request can change it for the next."""
    value = default() if callable(default) else default
    return tuple(value) if isinstance(value, list) else value


def _converter(field: fields.Field[Any]) -> fast.Converter:
    """The converter doing what ``field`` does to a well-formed value."""
    validators = list(field.validators)
    if isinstance(field, fields.Nested):
        return _record(field.schema)
    if isinstance(field, BoundedList) and all(check is _distinct for check in validators):
        words = (
            _said(field.deserialize, 5, "5"),
            _said(field.deserialize, [None] * (field.max_items + 1)),
            _said(_distinct, [1, 1]),
        )
        return fast.Items(_converter(field.inner), field.max_items, bool(validators), words)
    if isinstance(field, Tiles) and not validators:
        return fast.Tiles(field.single, field.longest, field.counted)
    elif isinstance(field, Bool) and not validators:
        return fast.Flag(_said(field.deserialize, 5, "true"))
    elif type(field) is fields.String and len(validators) <= 1:
        not_a_string = _said(field.deserialize, 5, [])
        if not validators:
            return fast.Choice(None, not_a_string)
        if isinstance(validators[0], validate.OneOf):
            # A hinted value has its own message: then the fast path leaves it to marshmallow.
            hinted = getattr(validators[0], "hints", {})
            not_a_choice = _said(validators[0], "\x00", "\x01", *hinted)
            return fast.Choice(frozenset(validators[0].choices), not_a_string, not_a_choice)
    elif isinstance(field, Int) and len(validators) == 1:
        bounds = validators[0]
        if isinstance(bounds, validate.Range) and bounds.min_inclusive and bounds.max_inclusive:
            not_an_integer = _said(field.deserialize, "5", 5.5)
            out_of_range = _said(bounds, bounds.min - 1, bounds.max + 1)
            return fast.Number(bounds.min, bounds.max, not_an_integer, out_of_range)
    # Anything else: the field's own code, unchanged.
    return fast.Checked(field.deserialize, ValidationError)
