"""Hostile traffic against a real gunicorn on loopback (issue #14): the drills of bench.drills.

Each drill starts the shipped configuration with a 2 s client timeout, bounds its own loops
and stops its server in a ``finally``; together they take about 45 s. The figures they print
(``make bench``) are the same runs.
"""

from __future__ import annotations

import pytest

from bench import drills

pytestmark = pytest.mark.slow


def test_slow_and_idle_clients_do_not_starve_fresh_ones() -> None:
    drill = drills.slow_clients(seconds=4)
    assert drill.ok, drill


def test_pipelined_requests_on_a_kept_connection_are_answered_in_order() -> None:
    drill = drills.keepalive_and_pipelining()
    assert drill.ok, drill


def test_a_stream_of_distinct_hands_keeps_workers_under_the_memory_bound() -> None:
    drill = drills.memory(seconds=8)
    assert drill.ok, drill


def test_saturation_is_shed_and_livez_keeps_answering() -> None:
    drill = drills.overload(seconds=4)
    assert drill.ok, drill


def test_framing_errors_are_client_errors_without_traceback() -> None:
    drill = drills.framing()
    assert drill.ok, drill
