"""Fixtures: the app, and a test client whose every response is checked against openapi.yaml."""

from __future__ import annotations

import itertools
import os
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from _pytest.mark.expression import Expression
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import settings

from service import create_app

from .support.contract import ContractClient

# CI explores new examples on every run, as local runs do (hypothesis' own "ci" profile, less its
# derandomize), from one seed for the whole run that the report's header prints: a red build
# replays with `pytest --hypothesis-seed=<seed>`. The tests that must draw the same inputs on
# every run (test_hostile_input.py, test_contract.py) derandomize themselves.
settings.register_profile("ci", settings.get_profile("ci"), derandomize=False, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.hookimpl(tryfirst=True)  # before hypothesis' own, which reads the seed
def pytest_configure(config: pytest.Config) -> None:
    given = getattr(config, "workerinput", {}).get("hypothesis_seed")
    if given is not None:  # a pytest-xdist worker: the seed its controller printed
        config.option.hypothesis_seed = given
    elif os.environ.get("CI") and config.getoption("hypothesis_seed") is None:
        config.option.hypothesis_seed = str(random.SystemRandom().getrandbits(32))


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's: each worker parses the command line anew
def pytest_configure_node(node: Any) -> None:
    node.workerinput["hypothesis_seed"] = node.config.getoption("hypothesis_seed")


# The modules that hold the drills marked ``serial``: `make test` runs them alone, collecting
# only these (the whole suite takes ~15 s to collect); a serial test elsewhere would be missed.
SERIAL_MODULES = frozenset({"test_serving.py", "test_faults.py"})


# Modules whose every test carries one mark (their ``pytestmark``): a run whose ``-m``
# deselects that mark does not even import them. For test_contract.py that is schemathesis
# building its cases, ~11 s of CPU in each pytest process (each pytest-xdist worker collects).
MARKED_MODULES = {
    "test_contract.py": "client_side",
    "test_generated_client.py": "client_side",
    "test_playground.py": "client_side",
    "test_typescript.py": "client_side",
    "test_serving.py": "server",
    "test_faults.py": "server",
    "test_http_hygiene.py": "server",
}


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    mark = MARKED_MODULES.get(collection_path.name)
    chosen = config.getoption("markexpr")
    return True if mark and chosen and _never_chooses(chosen, mark) else None


def _never_chooses(chosen: str, mark: str) -> bool:
    """Whether ``-m chosen`` deselects every test carrying ``mark``, whatever else it carries:
    the expression, read as pytest reads it, is false for each set of the other marks it names."""
    expression = Expression.compile(chosen)
    others = sorted(set(re.findall(r"[\w:+\-.\[\]\\/]+", chosen)) - {"and", "or", "not", mark})
    return not any(
        expression.evaluate(_carrying({mark, *carried}))
        for size in range(len(others) + 1)
        for carried in itertools.combinations(others, size)
    )


def _carrying(marks: set[str]) -> Callable[..., bool]:
    return lambda name, **_: name in marks


# The marks of tests that take seconds each: the fuzzing, the expected score's sweeps, the rest.
LONG_MARKS = ("fuzz", "sweep", "slow")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # A drill run last (alone) is one of the serial ones: else the compiled suite runs it too.
    astray = [
        item.nodeid
        for item in items
        if (item.get_closest_marker("serial") and item.path.name not in SERIAL_MODULES)
        or (item.get_closest_marker("alone") and not item.get_closest_marker("serial"))
    ]
    if astray:
        raise pytest.UsageError(
            f"marked serial outside {sorted(SERIAL_MODULES)} (conftest.py and the Makefile's"
            f" SERIAL and ALONE name them), or alone and not serial: {astray}"
        )
    unmarked = [
        item.nodeid
        for item in items
        if item.path.name in MARKED_MODULES
        and not item.get_closest_marker(MARKED_MODULES[item.path.name])
    ]
    if unmarked:
        raise pytest.UsageError(f"not marked as conftest.py's MARKED_MODULES says: {unmarked}")
    # Longest first: pytest-xdist hands out the tests in this order (after its groups, biggest
    # first), so a worker that starts a long test last does not finish alone while the others
    # idle. The order is otherwise kept: the sort is stable.
    items.sort(key=lambda item: not any(item.get_closest_marker(mark) for mark in LONG_MARKS))


def pytest_report_header(config: pytest.Config) -> str | None:
    seed = config.getoption("hypothesis_seed")
    return None if seed is None else f"hypothesis seed: {seed} (pytest --hypothesis-seed={seed})"


@pytest.fixture
def app() -> Flask:
    return create_app({"TESTING": True})


@pytest.fixture
def client(app: Flask) -> Iterator[FlaskClient]:
    app.test_client_class = ContractClient
    with app.test_client() as client:
        yield client
