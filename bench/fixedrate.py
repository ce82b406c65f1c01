"""An open-loop, fixed-rate HTTP client for latency at a given load (what wrk2 does).

Why not wrk: wrk is closed-loop (each connection sends its next request when the previous
answer arrives), so when the server stalls, wrk stops sending and the stall never shows in
its percentiles ("coordinated omission"). wrk2 is not packaged in Debian, and hey, httperf
and h2load (which are) either are closed-loop too or print no percentiles. This client
schedules request *i* at ``start + i / rate`` whatever happens, each on a connection of its
own (gunicorn's sync workers close the connection after every response anyway), and measures
latency from the *scheduled* time, so queueing in front of a busy worker is counted.

It is a single-threaded ``selectors`` loop on non-blocking sockets rather than asyncio:
streams cost about 0.6 ms of CPU per connection, which on a 2-core machine shared with the
server distorted the very latency being measured. Its own CPU use is reported.
"""

from __future__ import annotations

import errno
import selectors
import socket
import statistics
import time
from dataclasses import dataclass, field


@dataclass
class RateFigures:
    target_rate: float
    achieved_rate: float
    sent: int
    ok: int
    errors: int  # refused, reset, non-2xx, or unanswered within the timeout
    shed: int  # of the errors, those answered 503 (the server refusing work it cannot do)
    p50_ms: float
    p90_ms: float
    p99_ms: float
    max_ms: float
    answered_p99_ms: float  # over every answer, 503s included: how soon each client knew
    client_cpu: float  # share of one core the client itself used


def raw_request(
    host: str, port: int, method: str, path: str, body: bytes, close: bool = True
) -> bytes:
    connection = "Connection: close\r\n" if close else ""
    head = (
        f"{method} {path} HTTP/1.1\r\nHost: {host}:{port}\r\n{connection}"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


@dataclass
class _Exchange:
    scheduled: float
    data: bytes
    sock: socket.socket
    received: bytearray = field(default_factory=bytearray)
    sent: bool = False


def response_status(buffer: bytes) -> int | None:
    """The status once the whole response is in (Content-Length), else None."""
    end = buffer.find(b"\r\n\r\n")
    if end < 0:
        return None
    head = buffer[:end].decode("latin-1").split("\r\n")
    length = 0
    for line in head[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value)
    if len(buffer) - end - 4 < length:
        return None
    return int(head[0].split()[1])


def run(
    host: str,
    port: int,
    requests: list[bytes],
    rate: float,
    seconds: float,
    timeout: float = 10,
) -> RateFigures:
    """Send ``rate`` requests/s for ``seconds``: rate x seconds requests in all, then stop."""
    total = max(1, int(rate * seconds))
    selector = selectors.DefaultSelector()
    latencies: list[float] = []  # of 2xx answers
    answered: list[float] = []  # of every answer
    shed = 0
    cpu = time.process_time()
    start = time.perf_counter() + 0.05
    deadline = start + seconds + timeout
    started = 0
    live: dict[int, _Exchange] = {}

    def finish(exchange: _Exchange, status: int | None) -> None:
        nonlocal shed
        selector.unregister(exchange.sock)
        exchange.sock.close()
        del live[id(exchange)]
        if status is None:
            return  # failures are counted as total - ok at the end
        latency = time.perf_counter() - exchange.scheduled
        answered.append(latency)
        if 200 <= status < 300:
            latencies.append(latency)
        shed += status == 503

    while (started < total or live) and time.perf_counter() < deadline:
        now = time.perf_counter()
        while started < total and start + started / rate <= now:
            index = started
            started += 1
            try:
                sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            except OSError:  # out of descriptors: the server answers slower than the rate
                continue  # counted as a failure
            sock.setblocking(False)
            exchange = _Exchange(start + index / rate, requests[index % len(requests)], sock)
            code = sock.connect_ex((host, port))
            if code not in (0, errno.EINPROGRESS):
                sock.close()  # refused: counted as a failure
                continue
            live[id(exchange)] = exchange
            selector.register(sock, selectors.EVENT_WRITE, exchange)
        next_start = start + started / rate if started < total else now + 0.01
        wait = max(0.0, min(next_start - time.perf_counter(), 0.01))
        for key, _ in selector.select(wait):
            exchange = key.data
            try:
                if not exchange.sent:
                    exchange.sock.sendall(exchange.data)  # small bodies: fits the buffer
                    exchange.sent = True
                    selector.modify(exchange.sock, selectors.EVENT_READ, exchange)
                    continue
                chunk = exchange.sock.recv(65536)
            except OSError:
                finish(exchange, None)
                continue
            exchange.received += chunk
            status = response_status(bytes(exchange.received))
            if status is not None:
                finish(exchange, status)
            elif not chunk:
                finish(exchange, None)
        for exchange in [x for x in live.values() if time.perf_counter() - x.scheduled > timeout]:
            finish(exchange, None)
    for exchange in list(live.values()):
        finish(exchange, None)
    selector.close()
    wall = time.perf_counter() - start
    cpu = time.process_time() - cpu
    ms = sorted(x * 1000 for x in latencies) or [float("nan")] * 2
    cuts = statistics.quantiles(ms, n=100)
    every = [x * 1000 for x in answered] or [float("nan")] * 2
    return RateFigures(
        target_rate=rate,
        achieved_rate=len(latencies) / wall if wall > 0 else 0.0,
        sent=total,
        ok=len(latencies),
        errors=total - len(latencies),
        shed=shed,
        p50_ms=cuts[49],
        p90_ms=cuts[89],
        p99_ms=cuts[98],
        max_ms=ms[-1],
        answered_p99_ms=statistics.quantiles(every, n=100)[98],
        client_cpu=cpu / wall if wall > 0 else 0.0,
    )
