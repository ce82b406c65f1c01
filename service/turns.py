"""The turns at the CPU (the production worker's second room): one request computes at a
time, scores before batches, probes and scrapes aside, and nothing waits long.

``Turns`` is WSGI middleware the worker (worker.py) puts in front of the app; docs/DESIGN.md
("Serving") says why and what was measured.
"""

from __future__ import annotations

import io
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any, Final

import gevent
from gevent.event import Event

from . import metrics
from .api.lane import PAUSE
from .clients import Identity, Rates, retry_after
from .fair import Line
from .operations import OPERATIONS
from .problems import Problem
from .reading import Budget, overload_problem, problem_answer

StartResponse = Callable[..., Any]
App = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]

# Seconds the loop may go without looking for I/O (Turns.share_loop): at 2 ms, 16 persistent
# connections looping scores were served 5% fewer a second; at 10 ms, within the VM's noise.
SLICE: Final = 0.010
# A timer's delay (seconds) for a greenlet to resume once the loop has looked for I/O: unlike
# sleep(0), a timer fires only after the next poll. It must be already due when the loop next
# computes how long to wait, so that the poll does not block: libev rounds a wait under 1 ms
# up to 1 ms (at 0.1 ms, a batch's pauses left the worker idle: 37,086 hands/s against 46,577).
RESUME: Final = 1e-6
# Paths whose requests skip the queue (Turns): probes, which must answer while the worker is
# saturated (the API's promise for /livez), and the scrapes that show the saturation.
UNQUEUED: Final = frozenset({"/livez", "/readyz", "/metrics"})
# Requests of one client a worker lets wait for a turn at once: the client's next ones wait for
# one of those to end, unqueued, with no queue timeout (``Turns.enter``).
SHARE: Final = 8
# Methods without a body: the door lets them in, and they wait for their turn with no time
# limit (they are cheap, and the API answers them without 503s).
BODILESS: Final = frozenset({"GET", "HEAD", "OPTIONS"})


class Turns:
    """WSGI middleware: requests compute one at a time, probes and scrapes aside (``UNQUEUED``).

    A request with a body waits for its first turn at most ``wait`` seconds, then is answered
    503; one without (a GET of the catalogue) waits for its turn, however long. Scoring
    requests and GETs go first, each line taking its clients in turn (fair.py), and the two
    lines take turns when both wait: a crowd of either leaves the other half of the turns
    (GETs queued with the scores, 1,500 connections looping scores and GETs held most scores
    past their wait: 503s for 81% of the requests). A batch is background work: it starts when
    none waits, one batch at a time, and gives its turn away at each of its pauses (every few
    milliseconds) while others wait; it resumes when none is left, or once it has been paused
    for ``wait``, so that it always moves on. A single score thus waits for the turns of the
    clients ahead of it, not for a thousand hands nor for one client's thousand requests.

    Each request is charged to its client (``identity``) in its line for the time it held the
    turn. With ``rates``, a client past its rate is answered 429 before it waits. A client
    with ``SHARE`` requests in the worker already waits for one of them to end before its next
    one queues (``enter``), for at most ``hold`` seconds (else 503): a client looping requests
    on hundreds of connections is slowed to its share, instead of each of its requests
    timing out in the queue and being refused, which invited the next at once and spent the
    worker on refusals (900 such connections: over 4,000 503s a second, and polite clients
    waited for the loop for seconds; measured).
    Every long work of the table of operations (operations.py) waits as a batch does: a
    settlement, and a hand analysis with ``expect`` (told by its body, read by then).

    Each computed answer is held in memory until the client has taken it, so its size counts
    against the worker's budget until the server closes the answer.
    """

    def __init__(
        self,
        app: App,
        wait: float,
        budget: Budget,
        identity: Identity | None = None,
        rates: Rates | None = None,
        hold: float = 10.0,
    ) -> None:
        self.app = app
        self.wait = wait
        self.budget = budget
        self.identity = identity or Identity()
        self.rates = rates
        self.hold = hold
        self.inside: dict[str, int] = {}  # each client's requests queued or computing
        self.held: dict[str, deque[Event]] = {}  # its requests waiting to be let in (enter)
        self.holder: Any = None  # the greenlet computing, if any
        self.serving: tuple[Line[Waiter], str] = (Line(), "")  # its line and client
        self.since = 0.0  # when it took the turn
        self.scores: Line[Waiter] = Line()  # requests waiting for their turn
        self.batches: Line[Waiter] = Line()  # batches waiting to start
        self.paused: deque[Waiter] = deque()  # the batch that gave its turn away, if any
        self.gets: Line[Waiter] = Line()  # requests without a body waiting for their turn
        self.get_next = False  # when scores and GETs both wait, a GET goes next
        # When the loop last looked for I/O: stamped by a watcher run right after each poll.
        self.polled = time.monotonic()
        self.poll_watcher = gevent.get_hub().loop.check(ref=False)
        self.poll_watcher.start(self._stamp)

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        environ[PAUSE] = self.pause
        path = environ.get("PATH_INFO", "")
        if path in UNQUEUED:
            return self.app(environ, start_response)
        client = self.identity.of(
            environ.get("REMOTE_ADDR", ""), environ.get("HTTP_X_FORWARDED_FOR")
        )
        if self.rates is not None:
            early = self.rates.admit(client)
            if early:
                return limited(environ, start_response, early)
        if not self.enter(client):
            why = f"this client's requests waited over {self.hold:g} s to be let in"
            return overloaded(environ, start_response, why)
        try:
            line = self.line(environ["REQUEST_METHOD"], path, _body(environ, path))
            if not self.take(line, client, None if line is self.gets else self.wait):
                return overloaded(environ, start_response, f"no turn within {self.wait:g} s")
            try:
                answer = self.app(environ, start_response)
                try:
                    chunks = list(answer)
                finally:
                    close = getattr(answer, "close", None)
                    if close is not None:
                        close()
            finally:
                self.give()
        finally:
            self.leave(client)
        held = sum(len(chunk) for chunk in chunks)
        self.budget.force(held)
        return _Held(chunks, self.budget, held)

    def enter(self, client: str) -> bool:
        """Lets a request of ``client`` in to queue: at once while it has fewer than ``SHARE``
        in, else when one of them leaves it its place (in order), within ``hold`` seconds."""
        inside = self.inside.get(client, 0)
        if inside < SHARE:
            self.inside[client] = inside + 1
            return True
        place = Event()
        self.held.setdefault(client, deque()).append(place)
        place.wait(self.hold)
        if place.is_set():  # given the place of one that left
            return True
        held = self.held[client]
        held.remove(place)
        if not held:
            del self.held[client]
        return False

    def crowding(self, client: str) -> bool:
        """Whether ``client`` already has its share of requests in (``enter``)."""
        return self.inside.get(client, 0) >= SHARE

    def leave(self, client: str) -> None:
        held = self.held.get(client)
        if held:
            held.popleft().set()  # its place, handed over
            if not held:
                del self.held[client]
        elif self.inside[client] > 1:
            self.inside[client] -= 1
        else:
            del self.inside[client]

    def line(self, method: str, path: str, body: bytes = b"") -> Line[Waiter]:
        """Where a request waits for its turn: long work with the batches. The door
        (worker.py) asks before the body is read: a request that only its body makes long
        (``expect``) is judged there as a single one."""
        if method in BODILESS:
            return self.gets
        operation = OPERATIONS.get(path)
        long = operation is not None and operation.long_body(body)
        return self.batches if long else self.scores

    def waited(self, line: Line[Waiter], client: str) -> float:
        """How long ``client``'s first request waiting in ``line`` has waited (0: none waits)."""
        return line.waited(client, time.monotonic())

    def take(self, line: Line[Waiter], client: str, timeout: float | None) -> bool:
        """Waits in ``line`` for the turn, up to ``timeout`` seconds (None: for good)."""
        if self.holder is None:  # then none waits: the turn is handed from one to the next
            self.holder = gevent.getcurrent()
            self.serving = (line, client)
            line.serve(client)
            self.since = time.monotonic()
            self.share_loop()  # holding the turn: what the loop reads meanwhile queues behind
            return True
        waiter = Waiter(time.monotonic(), line, client)
        line.append(client, waiter)
        return self._wait(waiter, timeout)

    def _wait(self, waiter: Waiter, timeout: float | None) -> bool:
        waiter.event.wait(timeout)
        if waiter.event.is_set():  # handed over, even if the timeout fired in the meantime
            self.since = time.monotonic()
            return True
        waiter.gone = True
        return False

    def give(self, done: bool = True) -> None:
        """Charges the turn held to its client, then hands it to the next (class docstring),
        or frees it. ``done``: the request has ended (not paused)."""
        line, client = self.serving
        line.charge(client, time.monotonic() - self.since)
        if done:
            line.done(client)
        self.holder = None
        following = self._next()
        if following is not None:
            waiter = following.popleft()
            self.holder = waiter.greenlet
            self.serving = (waiter.line, waiter.client)
            waiter.event.set()

    def _stamp(self) -> None:
        self.polled = time.monotonic()

    def share_loop(self) -> None:
        """Lets the loop look for I/O (new connections, probes, timeouts) first if it has not
        for ``SLICE``, so that no run of requests holds it longer.

        Without this, a request read when the loop found its socket ready was answered right
        there, and so was the next one on its connection if the client had already sent it:
        fast persistent clients were answered thousands of times in one turn of the loop,
        during which no connection was accepted (1,500 of them looping scores: /livez on a
        new connection waited p50 0.4-1.0 s, p99 1.6-2.8 s; measured). Yielding on every
        request instead cost 8% of the score rate on 16 persistent connections."""
        if time.monotonic() - self.polled >= SLICE:
            gevent.sleep(RESUME)

    def _next(self) -> Line[Waiter] | deque[Waiter] | None:
        if self.paused and self.paused[0].since + self.wait <= time.monotonic():
            return self.paused
        score, get = self.scores.first(), self.gets.first()
        if score is not None or get is not None:
            if get is not None and (score is None or self.get_next):
                self.get_next = False
                return self.gets
            self.get_next = get is not None
            return self.scores
        if self.paused:
            return self.paused
        return self.batches if self.batches.first() is not None else None

    def pause(self) -> None:
        """Between a batch's steps: scoring requests and GETs waiting for a turn go first, and
        the worker polls its sockets (new requests, probes). A timer, not sleep(0), which only
        runs greenlets already woken (a probe waited ~100 ms to be accepted), nor idle(),
        which waits for a quiet loop (a stream of retries starved the batch: measured)."""
        waiting = self.scores.first() is not None or self.gets.first() is not None
        if self.holder is gevent.getcurrent() and waiting:
            line, client = self.serving
            self.give(done=False)
            waiter = Waiter(time.monotonic(), line, client)
            self.paused.append(waiter)
            self._wait(waiter, None)
        else:
            gevent.sleep(RESUME)


class Waiter:
    """A request (or a paused batch) waiting for the turn: its line and client."""

    __slots__ = ("client", "event", "gone", "greenlet", "line", "since")

    def __init__(self, since: float, line: Line[Waiter], client: str) -> None:
        self.since = since
        self.line = line
        self.client = client
        self.event = Event()
        self.greenlet = gevent.getcurrent()
        self.gone = False  # gave up: its turn goes to the next


def _body(environ: dict[str, Any], path: str) -> bytes:
    """The body of a request that its body may make long work (``Operation.long_with``), left
    to be read again; else none. The worker has read it into memory (reading.py): this costs
    a copy of a hand analysis' few hundred bytes."""
    operation = OPERATIONS.get(path)
    declared: str = environ.get("CONTENT_LENGTH") or ""
    if operation is None or operation.long_with is None or not declared.isdigit():
        return b""
    body: bytes = environ["wsgi.input"].read(int(declared))
    environ["wsgi.input"] = io.BytesIO(body)
    return body


class _Held(list[bytes]):
    """A computed answer: its bytes leave the budget when the server is done writing it."""

    def __init__(self, chunks: list[bytes], budget: Budget, size: int) -> None:
        super().__init__(chunks)
        self.budget = budget
        self.size = size

    def close(self) -> None:
        self.budget.give(self.size)
        self.size = 0


def overloaded(environ: dict[str, Any], start_response: StartResponse, why: str) -> list[bytes]:
    return refused(environ, start_response, overload_problem(why))


def limited(environ: dict[str, Any], start_response: StartResponse, early: float) -> list[bytes]:
    """The 429 of a client past its rate; ``early``: seconds until its next request may come."""
    retry = retry_after(early)
    problem = Problem(
        "rate_limited", f"more requests than this client's rate allows; retry after {retry} s"
    )
    return refused(environ, start_response, problem, retry)


def refused(
    environ: dict[str, Any],
    start_response: StartResponse,
    problem: Problem,
    retry: str | None = None,
) -> list[bytes]:
    metrics.outside(
        environ.get("PATH_INFO", ""), environ["REQUEST_METHOD"], problem.status, problem.code
    )
    given = environ.get("HTTP_X_REQUEST_ID", "")
    status, headers, data = problem_answer(problem, given, retry)
    start_response(status, headers)
    return [data]
