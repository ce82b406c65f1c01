"""Reading a request in full before it costs CPU (the production worker's first room).

The worker (worker.py) reads each request's headers within ``ZJ_CLIENT_TIMEOUT``; here its body
is read into memory within the same time (else 408), a chunked one becomes one of known length,
framing faults and protocol faults are 400s (505 for an HTTP version it does not speak), a
declared length over the limit is a 413 before any ``100 Continue``, and every body held is
counted against the worker's memory budget (``Budget``). Every answer given here is a problem
document and one log line.
"""

from __future__ import annotations

import io
import re
import socket
from http import HTTPStatus
from typing import Any, Final

import gevent
import orjson
from gunicorn import util
from gunicorn.http.body import ChunkedReader
from gunicorn.http.errors import (
    InvalidHTTPVersion,
    InvalidRequestLine,
    InvalidRequestMethod,
    NoMoreData,
)

from . import metrics
from .api.headers import new_request_id, request_id
from .problems import Problem
from .request.fast import shorten

RETRY_AFTER = "1"  # seconds: a turn is milliseconds, a full queue drains within one
STEP = 64 * 1024  # bytes read from a client at a time
HEADERS = (
    1024 * 1024
)  # bytes: more than gunicorn.conf.py's limits let a request line and headers be


def problem_answer(
    problem: Problem, given_id: str = "", retry: str | None = None
) -> tuple[str, list[tuple[str, str]], bytes]:
    """The status line, headers and body of an answer carrying ``problem``.

    ``given_id`` is the request's X-Request-ID header, if it was read and sent one: the answer
    carries it, as the app's do, or else a request id of its own (``request_id``), so that
    every answer the service writes has one. ``retry``: the Retry-After seconds (a 503's are
    ``RETRY_AFTER``).
    """
    body = problem.body()
    body["request_id"] = request_id(given_id)
    headers = [
        ("Content-Type", "application/problem+json"),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Request-ID", body["request_id"]),
    ]
    if problem.status == 503:
        retry = RETRY_AFTER
    if retry is not None:
        headers.append(("Retry-After", retry))
    data = orjson.dumps(body)
    headers.append(("Content-Length", str(len(data))))
    return f"{problem.status} {HTTPStatus(problem.status).phrase}", headers, data


def problem_bytes(problem: Problem, given_id: str = "") -> bytes:
    """A whole HTTP/1.1 answer carrying ``problem``, after which the connection closes."""
    status, headers, data = problem_answer(problem, given_id)
    head = "".join(f"{name}: {value}\r\n" for name, value in headers)
    return f"HTTP/1.1 {status}\r\nConnection: close\r\n{head}\r\n".encode("latin-1") + data


class Stock:
    """One problem answered again and again (the door's refusals, worker.py), made once: its
    answers differ only in their request ids, of the service's making (32 hex digits), put in
    the place of a mark of that length. Made anew, each cost 10 µs; so, 3 µs (measured)."""

    MARK = "x" * 32

    def __init__(self, problem: Problem) -> None:
        self.parts = problem_bytes(problem, self.MARK).split(self.MARK.encode())

    def __call__(self) -> bytes:
        return new_request_id().encode().join(self.parts)


def write_error(sock: Any, status: int, _reason: str, message: str) -> None:
    """gunicorn's own error answers (malformed headers, ...), as problems.

    Installed as ``gunicorn.util.write_error`` by gunicorn.conf.py: gunicorn answers those in
    HTML before the app is involved, and the API promises a problem document for every error.
    The faults of a request line are worded here first (``parse_fault``, worker.py).
    """
    # 501 is gunicorn's answer to a transfer coding it does not support: the client's doing.
    code = "internal_error" if status == 500 else "bad_request"
    detail = message[:200] or (
        "the service failed" if status == 500 else "the request could not be read as HTTP"
    )
    util.write_nonblock(sock, problem_bytes(Problem(code, detail, status=status)))


def parse_fault(error: Exception) -> Problem | None:
    """The answer to a request line gunicorn could not read, in the service's words; None for
    other faults (``write_error`` answers those). gunicorn's own say each thing twice
    ("Invalid HTTP Version 'Invalid HTTP Version: (2, 0)'") and answer any version but 1.x
    with a 400, where a version this server does not speak is a 505 whatever it is."""
    if isinstance(error, InvalidHTTPVersion):
        version = error.version
        if isinstance(version, tuple):  # HTTP/d.d, but not 1.x
            return unspoken_version(f"HTTP/{version[0]}.{version[1]}")
        if _VERSION.fullmatch(str(version)):  # HTTP/2, HTTP/10.1, ...
            return unspoken_version(str(version))
        return Problem(
            "bad_request",
            f"the request line ends in {_quoted(version)}, not an HTTP version: send HTTP/1.1",
        )
    if isinstance(error, InvalidRequestMethod):
        return Problem(
            "bad_request", f"{_quoted(error.method)} is not an HTTP method: GET or POST, say"
        )
    if isinstance(error, InvalidRequestLine):
        return Problem(
            "bad_request",
            f"the request line {_quoted(error.req)} is not of the form 'POST /v1/score HTTP/1.1'",
        )
    return None


_VERSION: Final = re.compile(r"HTTP/[0-9]+(?:\.[0-9]+)?")


def unspoken_version(version: str) -> Problem:
    """The 505 answering a request in an HTTP version this server does not speak."""
    return Problem(
        "bad_request",
        f"{_quoted(version)} is not an HTTP version this server speaks: send HTTP/1.1",
        status=505,
    )


def _quoted(text: object) -> str:
    return shorten(repr(str(text)), 60)


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


class Reading:
    """The worker's reading of a request's body (a mixin of ``worker.Worker``, which sets
    ``budget``, ``max_body``, ``client_timeout`` and gunicorn's ``log``)."""

    budget: Budget
    max_body: int
    client_timeout: float
    log: Any

    def _read_body(self, req: Any, declared: int | None, sock: Any, addr: Any) -> int:
        """Reads the body into memory; its size (held in the budget), or -1 if answered here."""
        if declared is not None and declared > self.max_body:
            # Before any 100 Continue: the client never uploads what would be refused.
            return self._refuse(req, sock, addr, too_large(self.max_body))
        if req._expected_100_continue:
            sock.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
            req._expected_100_continue = False  # gunicorn would send it again
        parts = []
        size = 0
        try:
            with gevent.Timeout(self.client_timeout):
                while True:
                    part = req.body.read(STEP)
                    if not part:
                        break
                    if size + len(part) > self.max_body:
                        return self._refuse(req, sock, addr, too_large(self.max_body), size)
                    if not self.budget.take(len(part)):
                        why = "too many request bodies held in memory"
                        return self._refuse(req, sock, addr, overload_problem(why), size)
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
        answer_and_close(
            sock, problem_bytes(problem, given), self.client_timeout, self.max_body + HEADERS
        )
        return -1


def answer_and_close(sock: Any, data: bytes, seconds: float, most: int) -> None:
    """Sends ``data`` (a refusal), then reads and drops what the client still sends, for at
    most ``seconds`` and ``most`` bytes, until it closes.

    Closing on unread bytes sends a reset, which can destroy the answer before the client reads
    it: a client uploading a batch saw one at the door, and in one run of the slow-clients
    drill in about ten both clients trickling their bodies lost their 408s this way.
    """
    try:
        sock.sendall(data)
        sock.shutdown(socket.SHUT_WR)
        with gevent.Timeout(seconds, False):
            dropped = 0
            while dropped <= most and (part := sock.recv(STEP)):
                dropped += len(part)
    except OSError:
        pass  # the client left: nothing is owed


def protocol_fault(req: Any) -> Problem | None:
    """A request this server must not answer as asked: an HTTP version it does not speak
    (gunicorn parses any 1.x and would echo it in the status line), or an HTTP/1.1 request
    without exactly one Host header (RFC 9112 §3.2)."""
    major, minor = req.version
    if (major, minor) not in ((1, 0), (1, 1)):
        return unspoken_version(f"HTTP/{major}.{minor}")
    if (major, minor) == (1, 1) and sum(name == "HOST" for name, _ in req.headers) != 1:
        return Problem(
            "bad_request", "an HTTP/1.1 request carries exactly one Host header (RFC 9112 §3.2)"
        )
    return None


def overload_problem(why: str) -> Problem:
    return Problem("overloaded", f"the service is saturated ({why}); retry after {RETRY_AFTER} s")


def declared_length(req: Any) -> int | None:
    """The body's declared length; None for a chunked one (gunicorn checked the headers)."""
    if isinstance(req.body.reader, ChunkedReader):
        return None
    return next((int(value) for name, value in req.headers if name == "CONTENT-LENGTH"), 0)


def too_large(limit: int) -> Problem:
    return Problem(
        "payload_too_large", f"the body is larger than the service accepts (at most {limit} bytes)"
    )
