"""Fault drills on a real gunicorn (loopback only): the quick variants of ``bench.faults``.

Slow (about 15 s in all) because each drill starts its own server; every drill bounds its
own loops and waits, and stops its server in a ``finally``.
"""

from __future__ import annotations

import pytest

from bench import faults

# Serial (alone, see test_serving.py): the drills under load, and SIGTERM's, timed by sleeps.
pytestmark = [pytest.mark.slow, pytest.mark.server]


@pytest.mark.serial
def test_a_killed_worker_is_replaced_and_requests_keep_succeeding() -> None:
    drill = faults.kill_worker(seconds=4.5)
    assert drill.ok, drill


def test_an_upload_stalled_past_the_client_timeout_gets_a_408_not_a_hang() -> None:
    drill = faults.stalled_upload(client_timeout=1)
    assert drill.ok, drill


@pytest.mark.serial
@pytest.mark.parametrize("mid_upload", [True, False], ids=["mid-upload", "mid-scoring"])
def test_sigterm_lets_the_in_flight_batch_complete(mid_upload: bool) -> None:
    drill = faults.sigterm(mid_upload)
    assert drill.ok, drill


def test_errors_gunicorn_answers_itself_are_problem_documents() -> None:
    drill = faults.server_level_errors()
    assert drill.ok, drill


@pytest.mark.serial
def test_sigterm_closes_a_keep_alive_connection_between_requests_at_once() -> None:
    drill = faults.sigterm_between_requests()
    assert drill.ok, drill
