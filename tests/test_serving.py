"""Hostile traffic against a real gunicorn on loopback (issue #14): the drills of bench.drills.

Each drill starts the shipped configuration with a 2 s client timeout, bounds its own loops
and stops its server in a ``finally``; together they take about 45 s. The figures they print
(``make bench``) are the same runs.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import gevent
import orjson
import pytest

from bench import drills, server
from service import worker
from service.api.lane import PAUSE
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
    assert turns.take(turns.scores, None)  # another request is computing
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
    assert turns.waited(turns.scores) == 0.0  # the one that gave up left the line


def test_scores_go_before_a_paused_batch_and_batches_run_one_at_a_time() -> None:
    done: list[str] = []

    def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        name = environ["name"]
        if environ["PATH_INFO"] != worker.BATCH_PATH:
            done.append(name)
            return [b""]
        for step in range(3):
            done.append(f"{name}{step}")
            environ[PAUSE]()
        return [b""]

    turns = worker.Turns(app, wait=10, budget=worker.Budget(1000))

    def request(name: str, path: str) -> gevent.Greenlet:
        environ = {"REQUEST_METHOD": "POST", "PATH_INFO": path, "name": name}
        return gevent.spawn(lambda: list(turns(environ, lambda status, headers: None)))

    gevent.joinall(
        [
            request("A", worker.BATCH_PATH),  # computes first, pauses while others arrive
            request("B", worker.BATCH_PATH),
            request("s", "/v1/score"),
            request("t", "/v1/waits"),
        ],
        timeout=5,
        raise_error=True,
    )
    # A gives its turn to the scores that wait at its second pause; B starts when A is done.
    assert done == ["A0", "A1", "s", "t", "A2", "B0", "B1", "B2"]
    assert turns.holder is None


@pytest.mark.parametrize(
    ("waiting", "first"),
    [
        ({"paused": 0.01, "scores": 0.0, "batches": 0.5}, "scores"),
        ({"paused": 0.2, "scores": 0.0}, "paused"),  # paused for longer than the wait
        ({"paused": 0.01, "batches": 0.5}, "paused"),  # one batch at a time
        ({"batches": 0.0, "scores": 0.0}, "scores"),
        ({"batches": 0.0}, "batches"),
    ],
)
def test_the_turn_goes_to_scores_then_the_paused_batch_then_a_new_one(
    waiting: dict[str, float], first: str
) -> None:
    turns = worker.Turns(lambda environ, start: [], wait=0.1, budget=worker.Budget(1000))
    assert turns.take(turns.scores, None)
    gone = worker.Waiter(0.0)
    gone.gone = True  # a score that gave up waiting is passed over
    turns.scores.append(gone)
    now = time.monotonic()
    waiters = {line: worker.Waiter(now - ago) for line, ago in waiting.items()}
    for line, waiter in waiters.items():
        getattr(turns, line).append(waiter)
    turns.give()
    assert [line for line, waiter in waiters.items() if waiter.event.is_set()] == [first]
    assert turns.holder is waiters[first].greenlet


@pytest.mark.slow
def test_requests_that_waited_in_the_backlog_are_refused_unread_and_probes_answered() -> None:
    """The door: a request that waited past half of ZJ_QUEUE_TIMEOUT (0.2 s) before the
    worker took its connection is answered 503 without being read; a probe is answered."""
    upload = drills.batch_body([{"hand": {"tiles": "1m" * 60_000}}])  # ~1.3 MB, never parsed
    with server.gunicorn(workers=1, env=drills.ENV) as srv:
        [pid] = srv.workers()
        score = socket.create_connection((server.HOST, srv.port), timeout=10)
        livez = socket.create_connection((server.HOST, srv.port), timeout=10)
        uploader = socket.create_connection((server.HOST, srv.port), timeout=10)
        os.kill(pid, signal.SIGSTOP)  # the worker takes no connection for a while
        try:
            score.sendall(
                drills.head("POST", "/v1/score", srv.port, length=len(drills.SCORE_BODY))
                + drills.SCORE_BODY
            )
            livez.sendall(b"GET /livez HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            sending = threading.Thread(
                target=uploader.sendall,
                args=(
                    drills.head("POST", worker.BATCH_PATH, srv.port, length=len(upload)) + upload,
                ),
            )
            sending.start()  # blocks until the worker drains it
            time.sleep(0.3)
        finally:
            os.kill(pid, signal.SIGCONT)
        sending.join(timeout=10)
        answered = {
            name: drills.answers(drills.read_until_closed(sock, 10))
            for name, sock in (("score", score), ("livez", livez), ("upload", uploader))
        }
        for sock in (score, livez, uploader):
            sock.close()
        log = srv.log()
    [(status, _, _)] = answered["livez"]
    assert status == 200
    for name in ("score", "upload"):
        [(status, headers, body)] = answered[name]
        document = orjson.loads(body)
        PROBLEM.validate(document)
        assert (status, document["code"]) == (503, "overloaded")
        assert headers["retry-after"] == "1" and headers["connection"] == "close"
        assert document["detail"] == (
            "the service is saturated (requests wait over 0.1 s for a turn); retry after 1 s"
        )
    # One line for both: the door logs at most once a second, with the count since.
    assert log.count("refused unread") == 1
    assert "503 overloaded: 1 request(s) refused unread" in log
    assert "Traceback" not in log


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
        f"ZJ_QUEUE_TIMEOUT={value!r}: must be a positive number (default 0.2)"
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
