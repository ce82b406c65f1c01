"""Hostile traffic against a real gunicorn on loopback (issue #14): the drills of bench.drills.

Each drill starts the shipped configuration with a 2 s client timeout, bounds its own loops
and stops its server in a ``finally``; together they take about 45 s. The figures they print
(``make bench``) are the same runs.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import orjson
import pytest

from bench import drills, server
from service import worker
from service.problems import Problem

from .test_openapi_spec import validator

PROBLEM = validator("/components/schemas/Problem")


@pytest.mark.slow
@pytest.mark.parametrize(
    "drill",
    [
        pytest.param(lambda: drills.slow_clients(seconds=4), id="slow-and-idle-clients"),
        pytest.param(drills.keepalive_and_pipelining, id="keep-alive-and-pipelining"),
        pytest.param(lambda: drills.memory(seconds=8), id="memory-bound"),
        pytest.param(lambda: drills.overload(seconds=4), id="overload-shed-livez-answers"),
        pytest.param(drills.framing, id="framing-errors-are-client-errors"),
    ],
)
def test_drill_holds(drill: Callable[[], drills.Drill]) -> None:
    """Each drill of bench/drills.py against a real gunicorn (see there for what it checks)."""
    outcome = drill()
    assert outcome.ok, outcome


# --- the worker's own answers, against the contract ----------------------------------------


@pytest.mark.parametrize(
    ("problem", "status"),
    [
        (
            Problem("request_timeout", "the body did not arrive in full within 10 s", status=408),
            408,
        ),
        (Problem("bad_request", "the body ended before it was complete", status=400), 400),
        (Problem("payload_too_large", "at most 2097152 bytes", status=413), 413),
        (Problem("overloaded", "too many request bodies held in memory", status=503), 503),
    ],
    ids=lambda value: getattr(value, "code", str(value)),
)
def test_answers_given_before_the_app_are_problem_documents(problem: Problem, status: int) -> None:
    raw = worker.problem_bytes(problem, "client-id-1")
    [(got, headers, body)] = drills.answers(raw)
    document = orjson.loads(body)
    PROBLEM.validate(document)
    assert got == status == document["status"]
    assert headers["content-type"] == "application/problem+json"
    assert headers["connection"] == "close"
    assert headers["x-request-id"] == document["request_id"] == "client-id-1"
    assert ("retry-after" in headers) is (status == 503)


def test_a_request_without_a_turn_is_answered_503_with_retry_after() -> None:
    budget = worker.Budget(1000)
    turns = worker.Turns(lambda environ, start: [b"scored"], wait=0.01, budget=budget)
    turns.turn.acquire()  # another request is computing
    seen: dict[str, Any] = {}
    body = turns(
        {"REQUEST_METHOD": "POST", "HTTP_X_REQUEST_ID": "bad id!"},
        lambda status, headers: seen.update(status=status, headers=dict(headers)),
    )
    document = orjson.loads(b"".join(body))
    PROBLEM.validate(document)
    assert seen["status"] == "503 Service Unavailable"
    assert seen["headers"]["Retry-After"] == "1"
    assert document["code"] == "overloaded"
    assert seen["headers"]["X-Request-ID"] == document["request_id"] != "bad id!"


def test_an_answer_counts_against_the_budget_until_it_is_written() -> None:
    budget = worker.Budget(1000)
    turns = worker.Turns(lambda environ, start: [b"12345", b"678"], wait=1, budget=budget)
    answer = turns({"REQUEST_METHOD": "POST"}, lambda status, headers: None)
    assert list(answer) == [b"12345", b"678"] and budget.held == 8
    answer.close()  # type: ignore[attr-defined]
    assert budget.held == 0
    assert budget.take(1000) and not budget.take(1)


@pytest.mark.parametrize("value", ["abc", "0", "-1", "nan", "inf"])
def test_a_bad_serving_setting_stops_with_one_line(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv(worker.QUEUE_TIMEOUT, value)
    with pytest.raises(SystemExit) as stopped:
        worker.setting(worker.QUEUE_TIMEOUT)
    assert str(stopped.value) == (
        f"ZJ_QUEUE_TIMEOUT={value!r}: must be a positive number (default 0.5)"
    )


def test_serving_settings_read_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(worker.CLIENT_TIMEOUT, " 2.5 ")
    assert worker.setting(worker.CLIENT_TIMEOUT) == 2.5
    monkeypatch.delenv(worker.BUFFER_BYTES, raising=False)
    assert worker.setting(worker.BUFFER_BYTES) == 8 * 1024 * 1024


def test_gunicorn_with_a_bad_serving_setting_stops_at_once_with_one_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "gunicorn", "--config", str(server.CONFIG), server.APP],
        env={**os.environ, "ZJ_BUFFER_BYTES": "lots", "PORT": str(server.free_port())},
        cwd=server.SERVICE_ROOT,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode != 0
    assert done.stderr.strip() == (
        "ZJ_BUFFER_BYTES='lots': must be a positive number (default 8388608)"
    )


def test_gunicorn_s_own_501_is_a_bad_request_problem() -> None:
    ours, theirs = socket.socketpair()
    with ours, theirs:
        worker.write_error(ours, 501, "Not Implemented", "Unsupported transfer coding: 'gzip'")
        ours.close()
        [(status, _, body)] = drills.answers(drills.read_until_closed(theirs, 5))
    document = orjson.loads(body)
    PROBLEM.validate(document)
    assert status == 501 and document["code"] == "bad_request"
