"""The scoring endpoints' lane: their usual requests answered without Flask's request machinery.

The operations' usual requests (``POST /v1/score``, ``/v1/waits``, ... sent as
``application/json`` with a Content-Length within the limit: what clients send) are answered
here, by the same operations the Flask routes call (``operations.OPERATIONS``) and with the
same problems (errors.py); every other
request, these endpoints' unusual ones included (another media type, a chunked or over-limit
body, another method), goes on to Flask. Flask's per-request work (contexts, routing, signals,
its Response) cost three times the scoring itself: with the lane, ``POST /v1/score`` serves
~1.5x the requests per second (docs/PERFORMANCE.md).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterable
from http import HTTPStatus
from typing import Any, Final

import orjson

from .. import metrics
from ..operations import OPERATIONS, Operation
from ..problems import Problem
from ..request.fast import keys, shorten
from . import errors
from .headers import REQUEST_ID

StartResponse = Callable[..., Any]
App = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]

log = logging.getLogger(__name__)

# WSGI environ key of a server's pause: a function that lets the server answer others in the
# middle of a long computation (service.worker sets it; other servers need none).
PAUSE: Final = "zj.pause"


def parse(data: bytes) -> Any:
    """A request body as JSON, or a ``malformed_json`` problem: not JSON, not UTF-8, or
    with a key given twice in an object."""
    try:
        parsed = orjson.loads(data)
    except orjson.JSONDecodeError as error:
        raise Problem("malformed_json", _unread(data, error)) from None
    # orjson keeps the last of a key given twice, silently. Each key is followed by a colon
    # outside the strings: a body with no more colons than keys read holds none twice. One
    # with more (a colon in a string, or a key twice) is read again, slowly, every key kept.
    # The count costs a score request's parse ~1 µs (1.7 to 2.9 µs compiled; its whole
    # answer in process ~30 µs; measured on a busy machine, 2026-11-28).
    try:
        counted = keys(parsed)
    except RecursionError:  # interpreted, nested near orjson's limit
        counted = _keys_walked(parsed)
    if data.count(b":") != counted:
        _refuse_repeated_keys(data)
    return parsed


def _keys_walked(value: Any) -> int:
    """``keys`` without recursion: slower, for what the interpreted ``keys`` cannot reach."""
    n = 0
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            n += len(item)
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
    return n


def _unread(data: bytes, error: orjson.JSONDecodeError) -> str:
    """Why ``data`` is not JSON, said for a client (not in the decoder's words for bytes
    that are not UTF-8: RFC 8259 §8.1 asks for UTF-8)."""
    try:
        data.decode()
    except UnicodeDecodeError as wrong:
        return f"the body must be JSON in UTF-8, and byte {wrong.start + 1} is not UTF-8"
    nul = data.find(b"\0")  # UTF-8 all the same: ASCII in UTF-16 or UTF-32 without a mark
    if nul >= 0:
        return f"the body must be JSON in UTF-8, and byte {nul + 1} is a NUL, as in UTF-16"
    return f"the body is not valid JSON: {error}"


class _Twice(dict[str, Any]):
    """An object read with a key given twice (``key``)."""

    def __init__(self, pairs: list[tuple[str, Any]], key: str) -> None:
        super().__init__(pairs)
        self.key = key


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen = set()
    for key, _ in pairs:
        if key in seen:
            return _Twice(pairs, key)
        seen.add(key)
    return dict(pairs)


def _refuse_repeated_keys(data: bytes) -> None:
    """A ``malformed_json`` problem at the first key ``data`` gives twice in an object, if any
    (as strict parsers refuse them: which one counts is not JSON's to say, RFC 8259 §4)."""
    try:
        path = _twice(json.loads(data, object_pairs_hook=_object), "")
    except RecursionError:  # orjson reads 1024 levels, Python about 1000 (no request nests
        # a tenth as deep, and this one has a colon in a string or a key twice too)
        raise Problem("malformed_json", "the body nests too deeply to be read") from None
    if path is not None:
        message = "a key given twice in one object: give each key once"
        raise Problem("malformed_json", f"{path}: {message}", [{"path": path, "message": message}])


def _twice(value: Any, path: str) -> str | None:
    """The path of the first key given twice in ``value`` (read by ``_object``), if any."""
    if isinstance(value, _Twice):
        return _at(path, value.key)
    items: Iterable[tuple[str | int, Any]]
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return None
    for key, item in items:
        found = _twice(item, _at(path, key))
        if found is not None:
            return found
    return None


def _at(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    name = shorten(key)
    return f"{path}.{name}" if path else name


def read_declared(environ: dict[str, Any], size: int) -> bytes:
    """A body of declared length, in one read from the server's stream (Werkzeug's limited
    stream cost as much as parsing the JSON), or a ``bad_request`` problem if it is short."""
    data: bytes = environ["wsgi.input"].read(size)
    if len(data) < size:
        raise Problem("bad_request", "the body ended before its declared Content-Length")
    return data


def run(operation: Operation, payload: Any, environ: dict[str, Any]) -> dict[str, Any]:
    """``operation`` answered, given the server's pause (if it is long work), counted."""
    pause = environ.get(PAUSE) if operation.long(payload) else None
    answer = operation.answer(payload, None if pause is None else _Pacer(pause))
    if metrics.current() is not None:
        metrics.scored(operation.name, operation.hands(answer))
    return answer


class _Pacer:
    """Calls the server's pause every few milliseconds of a long batch, not on every item."""

    EVERY = 0.002  # seconds: a probe waits about this long for a batch

    def __init__(self, pause: Callable[[], object]) -> None:
        self.pause = pause
        self.due = time.perf_counter() + self.EVERY

    def __call__(self) -> None:
        if time.perf_counter() >= self.due:
            self.pause()
            self.due = time.perf_counter() + self.EVERY


class Lane:
    """WSGI middleware in front of Flask: the scoring endpoints' usual requests (above)."""

    def __init__(self, app: App, limit: int) -> None:
        self.app = app
        self.limit = limit

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        operation = OPERATIONS.get(environ.get("PATH_INFO", ""))
        declared: str = environ.get("CONTENT_LENGTH") or ""
        if (
            operation is None
            or environ.get("REQUEST_METHOD") != "POST"
            or environ.get("CONTENT_TYPE") != "application/json"
            or not declared.isdigit()
            or int(declared) > self.limit
        ):
            return self.app(environ, start_response)
        try:
            data = read_declared(environ, int(declared))
            answer = orjson.dumps(run(operation, parse(data), environ))
        except Problem as problem:
            return _answer(start_response, problem, environ)
        except Exception:  # a bug: answered as Flask's handler answers it
            log.exception("unexpected error, request %s", environ.get(REQUEST_ID))
            return _answer(start_response, errors.internal_error(), environ)
        start_response(
            "200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(answer)))]
        )
        return [answer]


def _answer(
    start_response: StartResponse, problem: Problem, environ: dict[str, Any]
) -> list[bytes]:
    data = errors.problem_bytes(problem, environ)
    start_response(
        f"{problem.status} {HTTPStatus(problem.status).phrase}",
        [("Content-Type", "application/problem+json"), ("Content-Length", str(len(data)))],
    )
    return [data]
