"""The HTTP floor of ``POST /v1/score``: the same exchange with the work taken out (bench only).

The share target compares ``POST /v1/score`` with ``GET /livez``, but a score request differs
from livez in more than the scoring: a POST with a body, two more headers, a response of about
a kilobyte. This app is the service's own (same config, middleware and JSON provider) plus two
routes that answer the benchmark's requests with their precomputed responses:

    POST /bench/answer     reads the body, answers (no parsing, no validation, no scoring)
    POST /bench/validate   reads, parses and validates the body (``load``), answers

so that the benchmark can say how much of livez's rate the exchange itself leaves, and how
much of the rest is validation and how much scoring. It is served only by the benchmark
(``gunicorn 'bench.floor:create_app(1000, 7)'``); the service never registers these routes.
"""

from __future__ import annotations

from typing import Any

import orjson
from flask import Flask, request

import service
from service import engine
from service.request import ScoreRequestSchema, load
from tests.support import handgen

from . import wrk


def create_app(hands: int, seed: int) -> Flask:
    """The service's app, with the two floor routes for ``handgen.generate(hands, seed)``."""
    app = service.create_app()
    # Keyed by the exact bytes wrk sends for each hand (wrk.post_json).
    answers = {
        wrk.post_json("/v1/score", hand).body.encode(): engine.score(hand)
        for hand in handgen.generate(hands, seed)
    }
    schema = ScoreRequestSchema()

    def body() -> bytes:
        environ = request.environ
        data: bytes = environ["wsgi.input"].read(int(environ["CONTENT_LENGTH"]))
        return data

    @app.post("/bench/answer")
    def answer() -> dict[str, Any]:
        return answers[body()]

    @app.post("/bench/validate")
    def validate() -> dict[str, Any]:
        data = body()
        load(schema, orjson.loads(data))
        return answers[data]

    return app
