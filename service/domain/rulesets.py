"""Rule sets: the fields a request (or a profile) gives, resolved into the ``Rules`` in force.

RULES.md §6 and API.md "House rules": the defaults, then the named profile's fields, then the
request's own. The operator's profiles are installed once per process, at start
(``install_profiles``), with their tables built there and then.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from .hand import Rules
from .patterns import CATALOGUE, pin_tables
from .versions import VERSIONS

DEFAULT: Final = Rules()
_ORDER: Final = {pattern.id: index for index, pattern in enumerate(CATALOGUE)}

# Each profile's fields, as checked by the schema (service.profiles), by name.
_profiles: Final[dict[str, dict[str, Any]]] = {}


def resolve(given: dict[str, Any]) -> Rules:
    """The rules in force from the fields of a request's ``rules`` (already checked).

    A named profile's fields apply first. The request's ``values`` add to the profile's,
    pattern by pattern; any other field it gives replaces the profile's (``exclude`` too, so
    that a request may play a pattern its profile leaves out). ``values`` keep only what
    differs from the version's table: one rule set, one spelling.
    """
    # dict, not Mapping: compiled, dict.get is a direct call, and this runs per request.
    name: str | None = given.get("profile")
    fields = given
    if name is not None:
        profile = _profiles[name]
        fields = {**profile, **given}
        if "values" in profile and "values" in given:
            fields["values"] = {**profile["values"], **given["values"]}
    elif not given:
        return DEFAULT
    version: str = fields.get("version", DEFAULT.version)
    # Most requests set no house rule: no sorting for them.
    values: dict[str, int] | None = fields.get("values")
    exclude: list[str] | None = fields.get("exclude")
    return Rules(
        version,
        fields.get("payoff", DEFAULT.payoff),
        fields.get("standard_value", DEFAULT.standard_value),
        fields.get("minimum", DEFAULT.minimum),
        fields.get("bonus_tiles", DEFAULT.bonus_tiles),
        _changed(VERSIONS[version].values, values) if values else (),
        tuple(sorted(set(exclude), key=_ORDER.__getitem__)) if exclude else (),
        fields.get("chicken", DEFAULT.chicken),
        fields.get("limit", DEFAULT.limit),
        name,
    )


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
    _profiles.update({name: dict(fields) for name, fields in profiles.items()})
    pin_tables([resolve({"profile": name}) for name in _profiles])


def profiles() -> dict[str, Rules]:
    """Every installed profile, by name, as the rules it resolves to on its own."""
    return {name: resolve({"profile": name}) for name in _profiles}


def profile_names() -> list[str]:
    return list(_profiles)
