"""The production worker: gunicorn's gevent worker, made to face the open internet alone.

``gunicorn.conf.py`` names it (``worker_class``); docs/DESIGN.md ("Serving") says why gevent
and what was measured. What it adds to gunicorn's own gevent worker:

* **Requests arrive in full before they cost CPU.** The headers must arrive within the client
  timeout (else the connection is dropped), then the whole body, read here into memory (else
  408 ``request_timeout``). A client that trickles bytes holds a greenlet and a socket, never
  the worker, and never for longer than the timeout; a stalled write (a client that does not
  read its answer) is dropped after the same time.
* **Framing faults are the client's.** A broken chunked body or a body cut short is a 400
  ``bad_request``; an ``Expect: 100-continue`` upload over the limit is a 413 before a byte
  of it is sent; an over-limit body is refused as soon as it is known to be one.
* **One request computes at a time, scores first, and nothing waits long.** Requests take
  turns at the CPU (``Turns``): scoring requests and GETs in order of arrival, batches as
  background work that steps aside for them every few milliseconds. Probes and scrapes
  (``/livez``, ``/readyz``, ``/metrics``) skip the queue, so ``/livez`` answers while the
  worker is saturated. A request with a body is answered 503 ``overloaded`` with
  ``Retry-After`` when its wait would be too long: at the door, unread, if it has already
  waited half of ``ZJ_QUEUE_TIMEOUT`` (in the kernel's listen backlog, counted from the
  kernel's arrival stamp, plus the wait ahead of it here); in the queue, if its turn has not
  come within ``ZJ_QUEUE_TIMEOUT``. No run of requests keeps the worker's loop from looking
  for new connections for more than a few milliseconds (``Turns.share_loop``).
* **Memory is bounded.** Request bodies and computed responses held by a worker (read but not
  yet scored, or scored but not yet taken by the client) are counted against
  ``ZJ_BUFFER_BYTES``; past it, new bodies are refused with a 503.

Every answer given here is a problem document (RFC 9457) and one log line, never a traceback.
"""

from __future__ import annotations

import contextlib
import errno
import io
import socket
import struct
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable
from http import HTTPStatus
from typing import Any, Final, NamedTuple

import gevent
import orjson
from gevent.event import Event
from gevent.server import StreamServer
from gunicorn import util
from gunicorn.http.body import ChunkedReader
from gunicorn.http.errors import NoMoreData
from gunicorn.workers import ggevent
from gunicorn.workers.ggevent import GeventWorker

from . import metrics, settings
from .api.headers import request_id
from .api.lane import PAUSE
from .operations import BACKGROUND
from .problems import Problem

StartResponse = Callable[..., Any]
App = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]

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
RETRY_AFTER = "1"  # seconds: a turn is milliseconds, a full queue drains within one
_STEP = 64 * 1024  # bytes read from a client at a time
_HEADERS = (
    1024 * 1024
)  # bytes: more than gunicorn.conf.py's limits let a request line and headers be
_PEEK = 256  # bytes of a request looked at before it is read: its method and path
# Linux's SO_TIMESTAMPNS (asm-generic/socket.h; Python's socket module does not name it): the
# kernel stamps each segment with the time it arrived, so a worker taking a connection knows
# how long its request waited in the listen backlog. Set on the listening socket, inherited.
SO_TIMESTAMPNS: Final = 35
_TIMESPEC = struct.Struct("@qq")  # struct timespec on a 64-bit Linux
_STAMP_SPACE = socket.CMSG_SPACE(_TIMESPEC.size)
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
# Methods without a body: the door lets them in, and they wait for their turn with no time
# limit (they are cheap, and the API answers them without 503s).
BODILESS: Final = frozenset({"GET", "HEAD", "OPTIONS"})


def problem_answer(
    problem: Problem, given_id: str | None = None
) -> tuple[str, list[tuple[str, str]], bytes]:
    """The status line, headers and body of an answer carrying ``problem``.

    ``given_id`` is the request's X-Request-ID header when the request was read (then the
    answer carries a request id, as the app's do); None when it could not be.
    """
    body = problem.body()
    headers = [
        ("Content-Type", "application/problem+json"),
        ("X-Content-Type-Options", "nosniff"),
    ]
    if problem.status == 503:
        headers.append(("Retry-After", RETRY_AFTER))
    if given_id is not None:
        body["request_id"] = request_id(given_id)
        headers.append(("X-Request-ID", body["request_id"]))
    data = orjson.dumps(body)
    headers.append(("Content-Length", str(len(data))))
    return f"{problem.status} {HTTPStatus(problem.status).phrase}", headers, data


def problem_bytes(problem: Problem, given_id: str | None = None) -> bytes:
    """A whole HTTP/1.1 answer carrying ``problem``, after which the connection closes."""
    status, headers, data = problem_answer(problem, given_id)
    head = "".join(f"{name}: {value}\r\n" for name, value in headers)
    return f"HTTP/1.1 {status}\r\nConnection: close\r\n{head}\r\n".encode("latin-1") + data


def write_error(sock: Any, status: int, _reason: str, message: str) -> None:
    """gunicorn's own error answers (malformed request lines, headers, ...), as problems.

    Installed as ``gunicorn.util.write_error`` by gunicorn.conf.py: gunicorn answers those in
    HTML before the app is involved, and the API promises a problem document for every error.
    """
    # 501 is gunicorn's answer to a transfer coding it does not support: the client's doing.
    code = "internal_error" if status == 500 else "bad_request"
    detail = message[:200] or (
        "the service failed" if status == 500 else "the request could not be read as HTTP"
    )
    util.write_nonblock(sock, problem_bytes(Problem(code, detail, status=status)))


class Budget:
    """Bytes a worker holds for requests and answers in flight, against a bound."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.held = 0

    def take(self, size: int) -> bool:
        if self.held + size > self.limit:
            return False
        self.held += size
        return True

    def force(self, size: int) -> None:
        """Counts what is already in memory (a computed answer) whatever the bound."""
        self.held += size

    def give(self, size: int) -> None:
        self.held -= size


class Turns:
    """WSGI middleware: requests compute one at a time, probes and scrapes aside (``UNQUEUED``).

    A request with a body waits for its first turn at most ``wait`` seconds, then is answered
    503; one without (a GET of the catalogue) waits for its turn, however long. Scoring
    requests and GETs go first, each in order of arrival, taking turns when both wait: a crowd
    of either leaves the other half of the turns (GETs queued with the scores, 1,500
    connections looping scores and GETs held most scores past their wait: 503s for 81% of
    the requests). A batch is background work: it starts when none waits, one batch at a time, and
    gives its turn away at each of its pauses (every few milliseconds) while others wait; it
    resumes when none is left, or once it has been paused for ``wait``, so that it always
    moves on. A single score thus waits for the requests ahead of it, not for a thousand hands.

    Each computed answer is held in memory until the client has taken it, so its size counts
    against the worker's budget until the server closes the answer.
    """

    def __init__(self, app: App, wait: float, budget: Budget) -> None:
        self.app = app
        self.wait = wait
        self.budget = budget
        self.holder: Any = None  # the greenlet computing, if any
        self.scores: deque[Waiter] = deque()  # requests waiting for their turn
        self.batches: deque[Waiter] = deque()  # batches waiting to start
        self.paused: deque[Waiter] = deque()  # the batch that gave its turn away, if any
        self.gets: deque[Waiter] = deque()  # requests without a body waiting for their turn
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
        line = self.line(environ["REQUEST_METHOD"], path)
        if not self.take(line, None if line is self.gets else self.wait):
            return _overloaded(environ, start_response, f"no turn within {self.wait:g} s")
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
        held = sum(len(chunk) for chunk in chunks)
        self.budget.force(held)
        return _Held(chunks, self.budget, held)

    def line(self, method: str, path: str) -> deque[Waiter]:
        """Where a request waits for its turn."""
        if method in BODILESS:
            return self.gets
        return self.batches if path in BACKGROUND else self.scores

    def waited(self, line: deque[Waiter]) -> float:
        """How long the first request waiting in ``line`` has waited (0: none waits)."""
        first = _first(line)
        return 0.0 if first is None else time.monotonic() - first.since

    def take(self, line: deque[Waiter], timeout: float | None) -> bool:
        """Waits in ``line`` for the turn, up to ``timeout`` seconds (None: for good)."""
        if self.holder is None:  # then none waits: the turn is handed from one to the next
            self.holder = gevent.getcurrent()
            self.share_loop()  # holding the turn: what the loop reads meanwhile queues behind
            return True
        waiter = Waiter(time.monotonic())
        line.append(waiter)
        waiter.event.wait(timeout)
        if waiter.event.is_set():  # handed over, even if the timeout fired in the meantime
            return True
        waiter.gone = True
        return False

    def give(self) -> None:
        """Hands the turn to the next (class docstring), or frees it."""
        self.holder = None
        line = self._next()
        if line is not None:
            waiter = line.popleft()
            self.holder = waiter.greenlet
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

    def _next(self) -> deque[Waiter] | None:
        if self.paused and self.paused[0].since + self.wait <= time.monotonic():
            return self.paused
        score, get = _first(self.scores), _first(self.gets)
        if score is not None or get is not None:
            if get is not None and (score is None or self.get_next):
                self.get_next = False
                return self.gets
            self.get_next = get is not None
            return self.scores
        if self.paused:
            return self.paused
        return self.batches if _first(self.batches) is not None else None

    def pause(self) -> None:
        """Between a batch's steps: scoring requests and GETs waiting for a turn go first, and
        the worker polls its sockets (new requests, probes). A timer, not sleep(0), which only
        runs greenlets already woken (a probe waited ~100 ms to be accepted), nor idle(),
        which waits for a quiet loop (a stream of retries starved the batch: measured)."""
        waiting = _first(self.scores) is not None or _first(self.gets) is not None
        if self.holder is gevent.getcurrent() and waiting:
            self.give()
            self.take(self.paused, None)
        else:
            gevent.sleep(RESUME)


class Waiter:
    """A request (or a paused batch) waiting for the turn."""

    __slots__ = ("event", "gone", "greenlet", "since")

    def __init__(self, since: float) -> None:
        self.since = since
        self.event = Event()
        self.greenlet = gevent.getcurrent()
        self.gone = False  # gave up: its turn goes to the next


def _first(line: deque[Waiter]) -> Waiter | None:
    """The first in ``line`` still waiting (those that gave up leave it here)."""
    while line and line[0].gone:
        line.popleft()
    return line[0] if line else None


class _Held(list[bytes]):
    """A computed answer: its bytes leave the budget when the server is done writing it."""

    def __init__(self, chunks: list[bytes], budget: Budget, size: int) -> None:
        super().__init__(chunks)
        self.budget = budget
        self.size = size

    def close(self) -> None:
        self.budget.give(self.size)
        self.size = 0


def _overloaded(environ: dict[str, Any], start_response: StartResponse, why: str) -> list[bytes]:
    metrics.outside(environ.get("PATH_INFO", ""), environ["REQUEST_METHOD"], 503, "overloaded")
    given = environ.get("HTTP_X_REQUEST_ID", "")
    status, headers, data = problem_answer(_overload_problem(why), given)
    start_response(status, headers)
    return [data]


def _overload_problem(why: str) -> Problem:
    return Problem("overloaded", f"the service is saturated ({why}); retry after {RETRY_AFTER} s")


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


class Worker(GeventWorker):  # type: ignore[misc]  # gunicorn is untyped
    """gunicorn's gevent worker with the bounds above (module docstring)."""

    wsgi: Any  # gunicorn's: the app it serves, here wrapped in Turns

    def init_process(self) -> None:
        # Elsewhere the option's number means something else, or nothing. Without the stamps
        # (there, or if the kernel refuses) the door counts only the wait inside the worker.
        if sys.platform == "linux":
            for listener in self.sockets:
                with contextlib.suppress(OSError):
                    listener.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        super().init_process()

    def load_wsgi(self) -> None:
        super().load_wsgi()
        app: Any = self.wsgi
        self.client_timeout = setting(CLIENT_TIMEOUT)
        self.budget = Budget(int(setting(BUFFER_BYTES)))
        # The app's own body limit (ZJ_MAX_CONTENT_LENGTH), enforced here before the upload.
        self.max_body: int = app.config["MAX_CONTENT_LENGTH"]
        self.wsgi = Turns(app, setting(QUEUE_TIMEOUT), self.budget)
        # The door (handle): a request whose wait so far plus the wait ahead of it is over
        # half its time is refused unread, for the cost of a peek and a send.
        self.door = self.wsgi.wait / 2
        self.door_answer = problem_bytes(
            _overload_problem(f"requests wait over {self.door:g} s for a turn")
        )
        self.shed = 0  # requests refused at the door since the last log line about them
        self.shed_logged = 0.0

    def timeout_ctx(self) -> gevent.Timeout:
        # Covers waiting for the next request and reading its headers: an idle or trickling
        # client is dropped, silently (nothing is owed to a request that never arrived).
        return gevent.Timeout(self.client_timeout, False)

    def handle(self, listener: Any, client: Any, addr: Any) -> None:
        request = _peek(client)
        if request is not None and request.method not in BODILESS:
            # Its wait so far (in the kernel's backlog, then here) and the wait ahead of it.
            ahead = self.wsgi.waited(self.wsgi.line(request.method, request.path))
            if request.age + ahead > self.door:
                self._shed(client, request)
                return
        client.setblocking(1)
        # No single read or write may stall longer (a client that stops reading its answer);
        # a little over the header deadline, so that one fires first while reading headers.
        client.settimeout(self.client_timeout + 1)
        super(GeventWorker, self).handle(listener, client, addr)

    def _shed(self, client: Any, request: Arrival) -> None:
        """Answers 503 a request that would wait too long, before reading it: under overload,
        refusing must cost far less than serving (a request read, parsed and then refused
        after its wait cost as much as one scored, and new connections piled up in the
        kernel's backlog for seconds: measured)."""
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
        try:
            client.sendall(self.door_answer)
            client.shutdown(socket.SHUT_WR)
            # The rest of the request may still be coming: it is read and dropped until the
            # client closes, so that our close sends no reset, which can destroy the answer
            # before the client reads it (a client uploading a batch saw one: measured).
            with gevent.Timeout(self.client_timeout, False):
                dropped = 0
                while dropped <= self.max_body + _HEADERS and (part := client.recv(_STEP)):
                    dropped += len(part)
        except OSError:
            pass  # the client left: nothing is owed

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
            fault = _protocol_fault(req)
            if fault is not None:
                self._refuse(req, sock, addr, fault)
                raise StopIteration()  # answered here; the connection closes
            declared = _declared_length(req)
            if declared != 0:
                held = self._read_body(req, declared, sock, addr)
                if held < 0:
                    raise StopIteration()  # answered here; the connection closes
            return bool(super().handle_request(listener_name, req, sock, addr))
        except TimeoutError:
            self.log.info("answer not taken within %g s by %s; dropped", self.client_timeout, addr)
            raise StopIteration() from None
        finally:
            self.budget.give(max(held, 0))

    def _read_body(self, req: Any, declared: int | None, sock: Any, addr: Any) -> int:
        """Reads the body into memory; its size (held in the budget), or -1 if answered here."""
        if declared is not None and declared > self.max_body:
            # Before any 100 Continue: the client never uploads what would be refused.
            return self._refuse(req, sock, addr, _too_large(self.max_body))
        if req._expected_100_continue:
            sock.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
            req._expected_100_continue = False  # gunicorn would send it again
        parts = []
        size = 0
        try:
            with gevent.Timeout(self.client_timeout):
                while True:
                    part = req.body.read(_STEP)
                    if not part:
                        break
                    if size + len(part) > self.max_body:
                        return self._refuse(req, sock, addr, _too_large(self.max_body), size)
                    if not self.budget.take(len(part)):
                        why = "too many request bodies held in memory"
                        return self._refuse(req, sock, addr, _overload_problem(why), size)
                    size += len(part)
                    parts.append(part)
        except gevent.Timeout:
            late = Problem(
                "request_timeout",
                f"the body did not arrive in full within {self.client_timeout:g} s",
            )
            return self._refuse(req, sock, addr, late, size)
        except NoMoreData:  # a chunked body cut short
            declared = size + 1
        if declared is not None and size < declared:
            cut = Problem("bad_request", "the body ended before it was complete")
            return self._refuse(req, sock, addr, cut, size)
        # The app reads a body of known length: a chunked one is now one too.
        req.body = io.BytesIO(b"".join(parts))
        req.headers = [
            (name, value)
            for name, value in req.headers
            if name not in ("CONTENT-LENGTH", "TRANSFER-ENCODING")
        ] + [("CONTENT-LENGTH", str(size))]
        return size

    def _refuse(self, req: Any, sock: Any, addr: Any, problem: Problem, held: int = 0) -> int:
        self.budget.give(held)
        self.log.warning("%s %s from %s: %s", problem.status, problem.code, addr, problem.detail)
        metrics.outside(req.path or "", req.method or "", problem.status, problem.code)
        given = next((value for name, value in req.headers if name == "X-REQUEST-ID"), "")
        try:
            sock.sendall(problem_bytes(problem, given))
        except OSError as error:
            if error.errno not in (errno.EPIPE, errno.ECONNRESET, None):
                raise
        return -1


def _protocol_fault(req: Any) -> Problem | None:
    """A request this server must not answer as asked: an HTTP version it does not speak
    (gunicorn parses any 1.x and would echo it in the status line), or an HTTP/1.1 request
    without exactly one Host header (RFC 9112 §3.2)."""
    major, minor = req.version
    if (major, minor) not in ((1, 0), (1, 1)):
        return Problem(
            "bad_request",
            f"HTTP/{major}.{minor} is not a version this server speaks: send HTTP/1.1",
            status=505,
        )
    if (major, minor) == (1, 1) and sum(name == "HOST" for name, _ in req.headers) != 1:
        return Problem(
            "bad_request", "an HTTP/1.1 request carries exactly one Host header (RFC 9112 §3.2)"
        )
    return None


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


def _declared_length(req: Any) -> int | None:
    """The body's declared length; None for a chunked one (gunicorn checked the headers)."""
    if isinstance(req.body.reader, ChunkedReader):
        return None
    return next((int(value) for name, value in req.headers if name == "CONTENT-LENGTH"), 0)


def _too_large(limit: int) -> Problem:
    return Problem(
        "payload_too_large", f"the body is larger than the service accepts (at most {limit} bytes)"
    )
