"""Fixtures: the app, and a test client whose every response is checked against openapi.yaml."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import settings

from service import create_app

from .support.contract import ContractClient

# CI replays the same examples every run (a red build is then always reproducible); local runs
# keep exploring new ones.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture
def app() -> Flask:
    return create_app({"TESTING": True})


@pytest.fixture
def client(app: Flask) -> Iterator[FlaskClient]:
    app.test_client_class = ContractClient
    with app.test_client() as client:
        yield client
