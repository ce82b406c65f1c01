"""Rule sets: the fields a request (or a profile) gives, resolved into the ``Rules`` in force.

RULES.md §6 and API.md "House rules": the defaults, then the named profile's fields, then the
request's own. The operator's profiles are installed once per process, at start
(``install_profiles``), with their tables built there and then.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from mypy_extensions import i64

from ..memo import IntMemo, Memo
from . import tiles as t
from .hand import Rules
from .patterns import CATALOGUE, pin_tables
from .schemes import SCHEME_NUMBERS, SCHEMES
from .versions import VERSIONS

DEFAULT: Final = Rules()
_ORDER: Final = {pattern.id: index for index, pattern in enumerate(CATALOGUE)}

# Each profile's fields, as checked by the schema (service.profiles), by name.
_profiles: Final[dict[str, dict[str, Any]]] = {}


def resolve(given: dict[str, Any]) -> Rules:
    """The rules in force from the fields of a request's ``rules`` (already checked), by name:
    ``resolve_fields``."""
    return resolve_fields(**given)


def resolve_fields(
    version: str | None = None,
    payoff: str | None = None,
    standard_value: int | None = None,
    minimum: int | None = None,
    bonus_tiles: bool | None = None,
    values: dict[str, int] | None = None,
    exclude: list[str] | tuple[str, ...] | None = None,
    chicken: int | None = None,
    limit: int | None = None,
    profile: str | None = None,
) -> Rules:
    """The rules in force from the fields a request's ``rules`` gives (None: not given; JSON
    nulls are refused before).

    A named profile's fields apply first. The request's ``values`` add to the profile's,
    pattern by pattern; any other field it gives replaces the profile's (``exclude`` too, so
    that a request may play a pattern its profile leaves out). ``values`` keep only what
    differs from the version's table: one rule set, one spelling.

    Rules without house rules of their own are kept: a table sends the same rules with every
    hand, and the same ``Rules`` lets its response reuse their rendering (render.rules).
    """
    key: i64 = -1
    if values is None and exclude is None and profile is None:
        key = _plain(
            version, payoff, standard_value, minimum, bonus_tiles, chicken, limit, _DEFAULT_KEY
        )
        if key >= 0:
            found = _RESOLVED.get(key)
            if found is not None:
                return found
    fields: dict[str, Any] = _NO_PROFILE
    if profile is not None:
        fields = _profiles[profile]
        if values is not None and "values" in fields:
            values = {**fields["values"], **values}
        elif values is None:
            values = fields.get("values")
        if exclude is None:
            exclude = fields.get("exclude")
    version = version if version is not None else fields.get("version", DEFAULT.version)
    resolved = (
        version,
        payoff if payoff is not None else fields.get("payoff", DEFAULT.payoff),
        _given(standard_value, fields, "standard_value", DEFAULT.standard_value),
        _given(minimum, fields, "minimum", DEFAULT.minimum),
        bonus_tiles if bonus_tiles is not None else fields.get("bonus_tiles", DEFAULT.bonus_tiles),
        # Most requests set no house rule: no sorting for them.
        _changed(VERSIONS[version].values, values) if values else (),
        tuple(sorted(set(exclude), key=_ORDER.__getitem__)) if exclude else (),
        _given(chicken, fields, "chicken", DEFAULT.chicken),
        _given(limit, fields, "limit", DEFAULT.limit),
        profile,
    )
    if key >= 0:
        return _RESOLVED.put(key, Rules(*resolved))
    # House rules of the request's own: the same rules resolved before are kept by what
    # they resolve to, so that a table sending its house rules with every hand gets the one
    # ``Rules``, whose table and rendering are then found by identity (render.rules).
    found = _HOUSE_RULES.get(resolved)
    return found if found is not None else _HOUSE_RULES.put(resolved, Rules(*resolved))


_NO_PROFILE: Final[dict[str, Any]] = {}

# The rules resolved from the fields requests give, without values, exclude or a profile, by
# what they resolve to as one int (``_plain``): bounded, since clients choose them (~200 bytes
# each; ~600 more written, render.rules). Sized for the variety of a busy day's tables: a
# mix of 24,000 generated requests (tests/support/handgen.py) resolves to 1,344 rule sets.
RESOLVED: Final = 2048
RESOLVED_SLOTS: Final = 2039  # a prime
_RESOLVED: Final[IntMemo[Rules]] = IntMemo(RESOLVED, RESOLVED_SLOTS)


def _plain(
    version: str | None,
    payoff: str | None,
    standard_value: int | None,
    minimum: int | None,
    bonus_tiles: bool | None,
    chicken: int | None,
    limit: int | None,
    key: i64 = 0,
) -> i64:
    """``key`` with the bits of each field given replaced by its own: each field in bits of
    its own (one more than its value, or its number among the versions or schemes), or -1
    for a value that does not fit them: a limit past 1,022 (the schema bounds the others),
    whose rules are then kept as house rules are.

    From ``_DEFAULT_KEY``, the rules the fields resolve to (a field not given: its default),
    as ``resolve_fields`` keeps them: a default given or left out is one rule set, one
    ``Rules``, whose rendering its responses share. An int key costs no tuple made, hashed
    and compared item by item: every request resolves its rules. Native ints: compiled, no
    overflow checked on the way (the limit's bits reach bit 62)."""
    if version is not None:
        key = _field(key, _VERSION_NUMBERS.get(version, -1), 0, 2)
    if payoff is not None:
        key = _field(key, SCHEME_NUMBERS.get(payoff, -1), 2, 3)
    if bonus_tiles is not None:
        key = _field(key, 2 if bonus_tiles else 1, 5, 2)
    if minimum is not None:
        key = _field(key, _bits(minimum, 11), 7, 11)
    if standard_value is not None:
        key = _field(key, _bits(standard_value, 21), 18, 21)
    if chicken is not None:
        key = _field(key, _bits(chicken, 14), 39, 14)
    if limit is not None:
        key = _field(key, _bits(limit, 10), 53, 10)  # to bit 62: a key fits a machine word
    return key


def _field(key: i64, bits: i64, shift: i64, width: i64) -> i64:
    """``key`` with ``width`` bits from ``shift`` replaced by ``bits`` (a negative one, a
    value that does not fit, spoils the key: it stays negative)."""
    return key & ~(t.bit(width) - 1 << shift) | bits << shift


def _bits(value: int, width: i64) -> i64:
    """One more than ``value`` if that fits in ``width`` bits, else -1 (which spoils the key)."""
    return value + 1 if 0 <= value < t.bit(width) - 1 else -1


_VERSION_NUMBERS: Final = {name: number for number, name in enumerate(VERSIONS, 1)}
assert len(VERSIONS) < 4 and len(SCHEMES) < 8, "widen their bits in _plain"
_DEFAULT_KEY: Final = _plain(DEFAULT.version, DEFAULT.payoff, DEFAULT.standard_value,
                             DEFAULT.minimum, DEFAULT.bonus_tiles, DEFAULT.chicken,
                             DEFAULT.limit)  # fmt: skip
# And those with house rules of their own or a profile, by the fields they resolve to (~600
# bytes each).
_HOUSE_RULES: Final[Memo[tuple[Any, ...], Rules]] = Memo(RESOLVED)


def _given(value: int | None, fields: dict[str, Any], name: str, default: int) -> int:
    """A number the request gives, else its profile's, else the default."""
    if value is not None:
        return value
    found: int = fields.get(name, default)
    return found


def _changed(table: Mapping[str, int], values: dict[str, int]) -> tuple[tuple[str, int], ...]:
    """The values that differ from the version's ``table``, in catalogue order."""
    changed = sorted(
        [(_ORDER[id], id, value) for id, value in values.items() if table.get(id) != value]
    )
    return tuple([(id, value) for _, id, value in changed])


def install_profiles(profiles: Mapping[str, Mapping[str, Any]]) -> None:
    """Make these the process's profiles (each a ``rules`` object's fields, checked), in place
    of any installed before, and build their tables now rather than on a first hand."""
    _profiles.clear()
    _RESOLVED.cache_clear()  # rules resolved from the profiles replaced
    _HOUSE_RULES.cache_clear()
    _profiles.update({name: dict(fields) for name, fields in profiles.items()})
    pin_tables([resolve({"profile": name}) for name in _profiles])


def profiles() -> dict[str, Rules]:
    """Every installed profile, by name, as the rules it resolves to on its own."""
    return {name: resolve({"profile": name}) for name in _profiles}


def profile_names() -> list[str]:
    return list(_profiles)
