"""Zung Jung scoring service.

``service.domain`` is the pure scoring domain; ``service.engine`` turns request JSON into
response JSON; ``service.api`` is the Flask layer, built by :func:`create_app`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

__version__ = "3.0.13"


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """The WSGI application (gunicorn serves ``service:create_app()``)."""
    # Imported here so that the domain and the CLI never load Flask.
    from .api import create_app as build

    return build(config)
