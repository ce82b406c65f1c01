"""The shipped gunicorn for tests about answers, pages and clients, not about overload.

Those tests run beside other test processes (pytest-xdist) on a two-core machine, with a
browser or Node besides: a request there can wait for its turn past production's 0.2 s and
be answered 503 overloaded, which is the server doing its job, not what the test checks. So
their server waits up to 10 s for a turn. The drills (test_serving.py, test_faults.py) keep the
production value and run alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

from bench import server

PATIENT: Final = {"ZJ_QUEUE_TIMEOUT": "10"}


@contextmanager
def gunicorn(workers: int = 1, **env: str) -> Iterator[server.Server]:
    """``bench.server.gunicorn`` with ``PATIENT`` turns, plus the test's own ``env``."""
    with server.gunicorn(workers=workers, env={**PATIENT, **env}) as running:
        yield running
