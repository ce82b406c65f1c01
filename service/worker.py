"""The production worker: gunicorn's gevent worker, made to face the open internet alone.

``gunicorn.conf.py`` names it (``worker_class``); docs/DESIGN.md ("Serving") says why gevent
and what was measured. It has three rooms: this module (the gunicorn worker: accepting, the
door, the connection's life), ``reading.py`` (a request read in full before it costs CPU)
and ``turns.py`` (the turns at the CPU). What it adds to gunicorn's own gevent worker:

* **Requests arrive in full before they cost CPU.** The headers must arrive within the client
  timeout (else the connection is dropped), then the whole body, read here into memory (else
  408 ``request_timeout``). A client that trickles bytes holds a greenlet and a socket, never
  the worker, and never for longer than the timeout; a stalled write (a client that does not
  read its answer) is dropped after the same time.
* **Framing faults are the client's.** A broken chunked body or a body cut short is a 400
  ``bad_request``; an ``Expect: 100-continue`` upload over the limit is a 413 before a byte
  of it is sent; an over-limit body is refused as soon as it is known to be one.
* **One request computes at a time, scores first, clients in turn, and nothing waits long.**
  Requests take turns at the CPU (``Turns``): scoring requests and GETs, their clients in
  turn (fair.py), long work (batches, score sheets, expected scores) in the background,
  stepping aside for them every few milliseconds. Probes and scrapes (``/livez``,
  ``/readyz``, ``/metrics``) skip the queue, so ``/livez`` answers while the worker is
  saturated. A request with a body is answered 503
  ``overloaded`` with ``Retry-After`` when its wait would be too long: at the door, unread,
  if it has already waited half of ``ZJ_QUEUE_TIMEOUT`` (in the kernel's listen backlog,
  counted from the kernel's arrival stamp, plus the wait of its client's requests ahead of
  it here; after the ``Retry-After`` second when its client already has its share in); in
  the queue, if its turn has not come within ``ZJ_QUEUE_TIMEOUT``. With
  ``ZJ_CLIENT_RATE``, a client past its rate is answered 429 ``rate_limited`` (clients.py).
  No run of requests keeps the worker's loop from looking for new connections for more than
  a few milliseconds (``Turns.share_loop``).
* **A graceful stop is prompt.** On SIGTERM, requests being read or answered finish (within
  ``graceful_timeout``); a connection between requests is closed at once, and one answered
  meanwhile right after its answer: no idle keep-alive client holds the worker.
* **Memory is bounded.** Request bodies and computed responses held by a worker (read but not
  yet scored, or scored but not yet taken by the client) are counted against
  ``ZJ_BUFFER_BYTES``; past it, new bodies are refused with a 503.

Every answer given here is a problem document (RFC 9457) and one log line, never a traceback.
"""

from __future__ import annotations

import contextlib
import signal
import socket
import struct
import sys
import time
from collections.abc import Iterator
from typing import Any, Final, NamedTuple

import gevent
from gevent.server import StreamServer
from gunicorn import util
from gunicorn.workers import ggevent
from gunicorn.workers.ggevent import GeventWorker

from . import metrics, settings
from .clients import Identity, Rates, client_of
from .reading import (
    HEADERS,
    RETRY_AFTER,
    Budget,
    Reading,
    Stock,
    answer_and_close,
    declared_length,
    overload_problem,
    parse_fault,
    problem_bytes,
    protocol_fault,
)
from .turns import BODILESS, UNQUEUED, Turns

# The serving settings (service.settings checks them, with every other variable).
CLIENT_TIMEOUT: Final = settings.CLIENT_TIMEOUT
QUEUE_TIMEOUT: Final = settings.QUEUE_TIMEOUT
BUFFER_BYTES: Final = settings.BUFFER_BYTES
setting = settings.setting
# A persistent connection is closed after this many requests, as nginx does by default. A
# connection stays with the worker that accepted it, so without this a client's connections
# could stay piled on one worker for good (the score rate swung from 44% to 133% of livez's
# between benchmark runs); redialled, they go to whichever worker is free to accept first.
REQUESTS_PER_CONNECTION: Final = 100
# Seconds a door refusal is held back when its client already has its share of requests in
# the worker (Worker._shed): the Retry-After it states. Refused at once, 900 connections of one
# client redialling after each 503 spun the worker's loop on a busy machine (1,281-3,478
# refusals in 5 s beside polite clients, bursts of 18,053; polite p99 86-290 ms); held back,
# 716-909 and p99 55-200 ms (docs/PERFORMANCE.md, 2026-11-27).
TARPIT: Final = float(RETRY_AFTER)
_PEEK = 256  # bytes of a request looked at before it is read: its method and path
# Linux's SO_TIMESTAMPNS (asm-generic/socket.h; Python's socket module does not name it): the
# kernel stamps each segment with the time it arrived, so a worker taking a connection knows
# how long its request waited in the listen backlog. Set on the listening socket, inherited.
SO_TIMESTAMPNS: Final = 35
_TIMESPEC = struct.Struct("@qq")  # struct timespec on a 64-bit Linux
_STAMP_SPACE = socket.CMSG_SPACE(_TIMESPEC.size)


class _Server(StreamServer):  # type: ignore[misc]  # gevent is untyped
    """gevent's server, accepting up to ``ACCEPT`` waiting connections per turn of the loop.

    gunicorn sets one when several workers share the socket, so that a worker does not take
    more than its share. But while a batch computes, the loop turns every 2 ms: one at a time
    capped accepts at ~500/s a worker, and at 3,000 new connections/s beside batches fresh
    clients waited in the kernel's backlog for seconds (p50 1.5 s, p99 7.9 s, measured) where
    they should be taken in and, if need be, refused at once (16: p50 84 ms, p99 0.57 s).
    At 6,000/s, 16 a turn fell behind in 4 runs of 9: the backlog filled, the kernel dropped
    new connections' SYNs, and their clients retried a second later (p99 2-3 s). With 64, 11
    runs of 11 held (p99 134-271 ms), with no connection dropped.
    """

    ACCEPT: Final = 64

    @property
    def max_accept(self) -> int:
        return self.ACCEPT

    @max_accept.setter
    def max_accept(self, _value: int) -> None:
        pass  # gunicorn's one at a time: see above


ggevent.StreamServer = _Server  # the name GeventWorker.run builds its servers with


class Worker(Reading, GeventWorker):  # type: ignore[misc]  # gunicorn is untyped
    """gunicorn's gevent worker with the bounds above (module docstring)."""

    wsgi: Any  # gunicorn's: the app it serves, here wrapped in Turns

    def init_process(self) -> None:
        # Until gunicorn sets the worker's own handlers (after gevent's patching, a tenth of a
        # second or more), a stop reaches the master's, inherited at the fork, which queues it
        # where nothing reads it: the worker served on until the master killed it, a whole
        # graceful timeout later. Asked now, it ends the worker as soon as it is up.
        for stop in (signal.SIGTERM, signal.SIGINT, signal.SIGQUIT):
            signal.signal(stop, self._stop_when_up)
        # Elsewhere the option's number means something else, or nothing. Without the stamps
        # (there, or if the kernel refuses) the door counts only the wait inside the worker.
        if sys.platform == "linux":
            for listener in self.sockets:
                with contextlib.suppress(OSError):
                    listener.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        super().init_process()

    def _stop_when_up(self, sig: int, frame: Any) -> None:
        self.alive = False  # read by the run loop: nothing is in flight yet to finish

    def load_wsgi(self) -> None:
        super().load_wsgi()
        app: Any = self.wsgi
        self.client_timeout = setting(CLIENT_TIMEOUT)
        self.budget = Budget(int(setting(BUFFER_BYTES)))
        # The app's own body limit (ZJ_MAX_CONTENT_LENGTH), enforced here before the upload.
        self.max_body: int = app.config["MAX_CONTENT_LENGTH"]
        rate = settings.client_rate()
        self.wsgi = Turns(
            app,
            setting(QUEUE_TIMEOUT),
            self.budget,
            Identity(setting(settings.TRUSTED_PROXIES)),
            None if rate is None else Rates(*rate),
            self.client_timeout,
        )
        # The door (handle): a request whose wait so far plus the wait ahead of it is over
        # half its time is refused unread, for the cost of a peek and a send.
        self.door = self.wsgi.wait / 2
        self.door_answer = Stock(overload_problem(f"requests wait over {self.door:g} s for a turn"))
        self.shed = 0  # requests refused at the door since the last log line about them
        self.shed_logged = 0.0
        self.between_requests: set[gevent.Greenlet] = set()  # timeout_ctx

    @contextlib.contextmanager
    def timeout_ctx(self) -> Iterator[None]:
        # Covers waiting for the next request and reading its headers: an idle or trickling
        # client is dropped, silently (nothing is owed to a request that never arrived).
        # Meanwhile the connection is between requests (its next one not in, headers and
        # all): closed at once on a graceful stop, as a keep-alive timeout would close it.
        connection = gevent.getcurrent()
        self.between_requests.add(connection)
        try:
            with gevent.Timeout(self.client_timeout, False):
                yield
        finally:
            self.between_requests.discard(connection)

    def handle_exit(self, sig: int, frame: Any) -> None:
        """A graceful stop (SIGTERM): requests being read or answered finish (within
        ``graceful_timeout``); connections between requests close now. gunicorn would keep
        an idle keep-alive connection, and so the worker, for the rest of the client timeout:
        every rolling restart waited that long behind a client's connection pool (10 s)."""
        super().handle_exit(sig, frame)
        gevent.spawn(self._close_between_requests)  # a signal handler must not block

    def _close_between_requests(self) -> None:
        for connection in [*self.between_requests]:
            # How gunicorn's loop is told to close a connection (not GreenletExit: a 500).
            connection.kill(StopIteration("the worker is stopping"), block=False)

    def handle(self, listener: Any, client: Any, addr: Any) -> None:
        request = _peek(client)
        if request is not None and request.method not in BODILESS:
            # Its wait so far (in the kernel's backlog, then here) and the wait ahead of it:
            # its client's own line. Behind a trusted proxy the client is in the headers, not
            # yet read: then only the wait so far counts.
            peer = addr[0] if isinstance(addr, tuple) else str(addr)
            line = self.wsgi.line(request.method, request.path)
            trusted = self.wsgi.identity.trusts(peer)
            who = client_of(peer)
            ahead = 0.0 if trusted else self.wsgi.waited(line, who)
            if request.age + ahead > self.door:
                self._shed(client, request, slow=not trusted and self.wsgi.crowding(who))
                return
        client.setblocking(1)
        # No single read or write may stall longer (a client that stops reading its answer);
        # a little over the header deadline, so that one fires first while reading headers.
        client.settimeout(self.client_timeout + 1)
        super(GeventWorker, self).handle(listener, client, addr)

    def _shed(self, client: Any, request: Arrival, slow: bool) -> None:
        """Answers 503 a request that would wait too long, before reading it: under overload,
        refusing must cost far less than serving (a request read, parsed and then refused
        after its wait cost as much as one scored, and new connections piled up in the
        kernel's backlog for seconds: measured).

        ``slow`` when its client already has its share of requests in the worker
        (``Turns.crowding``): the refusal then comes after the ``Retry-After`` it states, so
        that a client redialling after each 503 is held to one refusal a second per
        connection (``TARPIT``)."""
        metrics.outside(request.path, request.method, 503, "overloaded")
        self.shed += 1
        now = time.monotonic()
        if now - self.shed_logged >= 1:  # one line a second at most, not one per refusal
            self.log.warning(
                "503 overloaded: %d request(s) refused unread since the last such line"
                " (waits over %g s)",
                self.shed,
                self.door,
            )
            self.shed, self.shed_logged = 0, now
        client.settimeout(self.client_timeout)
        if slow:
            gevent.sleep(TARPIT)
        # The rest of the request may still be coming: read and dropped until the client
        # closes, so that our close sends no reset.
        answer = self.door_answer()  # with its own request id
        answer_and_close(client, answer, self.client_timeout, self.max_body + HEADERS)

    def handle_error(self, req: Any, client: Any, addr: Any, exc: Exception) -> None:
        """gunicorn's answer to a request it could not read, but a request line's faults in
        the service's words (``parse_fault``); the rest are written by ``write_error``."""
        problem = parse_fault(exc)
        if problem is None:
            super().handle_error(req, client, addr, exc)
            return
        self.log.warning("%s %s from %s: %s", problem.status, problem.code, addr, problem.detail)
        with contextlib.suppress(OSError):
            util.write_nonblock(client, problem_bytes(problem))

    def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> bool:
        if req.req_number >= REQUESTS_PER_CONNECTION:
            req.must_close = True  # answered with Connection: close (gunicorn's own flag)
        if req.req_number > 1 and req.path in UNQUEUED:
            # A persistent client's next probe waits for the loop's callbacks to come round,
            # as a new connection's first request does (spawned there); the rest take turns
            # (Turns.share_loop). Answered at once when already there, 1,500 connections
            # looping GETs held the loop for seconds (/livez on a new connection: p50 0.9 s).
            gevent.sleep(0)
        held = 0
        try:
            fault = protocol_fault(req)
            if fault is not None:
                self._refuse(req, sock, addr, fault)
                raise StopIteration()  # answered here; the connection closes
            declared = declared_length(req)
            if declared != 0:
                held = self._read_body(req, declared, sock, addr)
                if held < 0:
                    raise StopIteration()  # answered here; the connection closes
            keep_alive = bool(super().handle_request(listener_name, req, sock, addr))
            if not self.alive:  # stopping since the request came: no wait for another
                raise StopIteration("the worker is stopping")
            return keep_alive
        except TimeoutError:
            self.log.info("answer not taken within %g s by %s; dropped", self.client_timeout, addr)
            raise StopIteration() from None
        finally:
            self.budget.give(max(held, 0))


class Arrival(NamedTuple):
    """A request waiting on a new connection, as the door sees it before reading it."""

    method: str
    path: str  # without the query string
    age: float  # seconds since its first bytes reached this machine (0: the kernel did not say)


def _peek(client: Any) -> Arrival | None:
    """The request that has arrived on ``client``, peeked at (left to be read); None if its
    request line has not arrived yet."""
    client.setblocking(0)
    try:
        first, ancillary, _, _ = client.recvmsg(_PEEK, _STAMP_SPACE, socket.MSG_PEEK)
    except OSError:
        return None
    method, _, rest = first.partition(b" ")
    target, space, _ = rest.partition(b" ")
    if not space:
        return None
    age = 0.0
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
            seconds, nanoseconds = _TIMESPEC.unpack_from(data)
            age = time.time() - seconds - nanoseconds / 1e9  # both the wall clock
    path = target.partition(b"?")[0]
    return Arrival(method.decode("latin-1"), path.decode("latin-1"), age)
