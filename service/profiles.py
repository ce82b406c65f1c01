"""The operator's house-rule profiles: a JSON file named by ``ZJ_PROFILES``, read at start.

The file maps each profile's name to a ``rules`` object (API.md "House rules"), checked by the
same schema as a request's ``rules`` (less ``profile``: a profile does not name another). A
fault stops the start with one line naming it: ``ProfileError``'s message, which
``exit_if_bad`` prints before exiting with status 1 (gunicorn.conf.py calls it, so that the
server stops before any worker starts, whatever the worker class).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from marshmallow import ValidationError

from .domain.rules.rulesets import install_profiles
from .request import ProfileSchema
from .request.fast import flatten

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
_SCHEMA = ProfileSchema()


class ProfileError(ValueError):
    """A bad profiles file; the message is one line naming the fault."""


def read(path: str) -> dict[str, dict[str, Any]]:
    """The profiles of the file at ``path``, each one's fields checked."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ProfileError(f"{path}: cannot be read: {_one_line(error)}") from None
    try:
        document = json.loads(text)
    except ValueError as error:
        raise ProfileError(f"{path}: not valid JSON: {error}") from None
    if not isinstance(document, dict):
        raise ProfileError(
            f"{path}: must be a JSON object mapping each profile's name to a rules object,"
            ' e.g. {"club": {"minimum": 5, "values": {"2.1.2": 100}}}'
        )
    profiles = {}
    for name, fields in document.items():
        if not NAME.fullmatch(name):
            raise ProfileError(
                f"{path}: profile name {_one_line(repr(name))[:70]} must be 1-64 letters, digits,"
                " '_', '-' or '.', starting with a letter or digit"
            )
        try:
            profiles[name] = _SCHEMA.load(fields)
        except ValidationError as error:
            faults = flatten(error.messages, name, 3)
            listed = "; ".join(f"{fault['path']}: {fault['message']}" for fault in faults)
            raise ProfileError(f"{path}: {_one_line(listed)}") from None
    return profiles


def install(path: str | None) -> None:
    """Read and install the profiles of ``path`` (none if it is empty or None)."""
    install_profiles(read(path) if path else {})


def exit_if_bad(path: str) -> None:
    """Exit with status 1 and one line on stderr if the profiles file at ``path`` is bad."""
    try:
        read(path)
    except ProfileError as error:
        sys.exit(f"zj-service: ZJ_PROFILES: {error}")


def _one_line(text: object) -> str:
    return " ".join(str(text).split())
