"""The HTTP layer: a thin Flask app around ``service.engine``."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from flask import Flask

from .. import profiles
from ..request import MAX_BODY
from . import errors, headers, routes
from .json import OrjsonProvider

DEFAULTS = {
    # Large enough for a full batch of 1000 verbose requests, small enough to bound memory.
    "MAX_CONTENT_LENGTH": MAX_BODY,
    # Comma-separated browser origins allowed by CORS; "*" allows any (no credentials).
    "CORS_ORIGINS": "*",
    # A JSON file of house-rule profiles (service/profiles.py); none if empty.
    "PROFILES": "",
}


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    app = Flask(__name__)
    app.json = OrjsonProvider(app)
    app.config.update(DEFAULTS)
    if "ZJ_CORS_ORIGINS" in os.environ:
        app.config["CORS_ORIGINS"] = os.environ["ZJ_CORS_ORIGINS"]
    if "ZJ_MAX_CONTENT_LENGTH" in os.environ:
        app.config["MAX_CONTENT_LENGTH"] = int(os.environ["ZJ_MAX_CONTENT_LENGTH"])
    if "ZJ_PROFILES" in os.environ:
        app.config["PROFILES"] = os.environ["ZJ_PROFILES"]
    if config:
        app.config.update(config)
    # The house-rule profiles of the process (raises ProfileError for a bad file).
    profiles.install(app.config["PROFILES"])
    headers.init_app(app)
    errors.init_app(app)
    app.register_blueprint(routes.bp)
    return app
