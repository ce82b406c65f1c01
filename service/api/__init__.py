"""The HTTP layer: a thin Flask app around ``service.engine``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask

from .. import metrics, profiles, settings
from . import docs, errors, headers, lane, playground, routes
from .json import OrjsonProvider

# Flask config key -> the environment variable that sets it (service.settings checks it).
FROM_ENVIRONMENT = {
    # The largest request body: a full batch of 1000 verbose requests fits the default.
    "MAX_CONTENT_LENGTH": settings.MAX_CONTENT_LENGTH,
    # Comma-separated browser origins allowed by CORS; "*" allows any (no credentials).
    "CORS_ORIGINS": settings.CORS_ORIGINS,
    # A JSON file of house-rule profiles (service/profiles.py); none if empty.
    "PROFILES": settings.PROFILES,
    # GET /metrics and the counting behind it (service/metrics.py).
    "METRICS": settings.METRICS,
    # GET /: the playground page and its files (playground.py).
    "PLAYGROUND": settings.PLAYGROUND,
}


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    app = Flask(__name__)
    app.json = OrjsonProvider(app)
    app.config.update({key: settings.setting(name) for key, name in FROM_ENVIRONMENT.items()})
    # The per-client rate the worker enforces (service/turns.py), shown by GET /v1/rules.
    app.config["CLIENT_RATE"] = settings.client_rate()
    if config:
        app.config.update(config)
    # The house-rule profiles of the process (raises ProfileError for a bad file).
    profiles.install(app.config["PROFILES"])
    errors.init_app(app)
    app.register_blueprint(routes.bp)
    docs.init_app(app)
    if app.config["PLAYGROUND"]:
        playground.init_app(app)
    app.wsgi_app = lane.Lane(app.wsgi_app, app.config["MAX_CONTENT_LENGTH"])  # type: ignore[method-assign]
    if app.config["METRICS"]:
        counted = metrics.enable()
        app.add_url_rule("/metrics", "metrics", routes.metrics_view)
        app.wsgi_app = metrics.Counted(app.wsgi_app, counted)  # type: ignore[method-assign]
    # Outermost, so that every answer carries them, the metrics' too.
    envelope = headers.Envelope(
        app.wsgi_app,
        app.config["CORS_ORIGINS"],
        playground.owns if app.config["PLAYGROUND"] else lambda path: False,
    )
    app.wsgi_app = envelope  # type: ignore[method-assign]
    return app
