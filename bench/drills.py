"""Hostile-traffic drills against a real gunicorn on loopback: ``python -m bench.drills``.

Each drill starts the shipped configuration (``gunicorn.conf.py``) with a short client
timeout, attacks it the way issue #14 describes while fresh clients probe it, and reports
what the probes saw. Every loop is bounded in count and time, every attacker thread stops by
itself, and the server is stopped in a ``finally``.

A drill passes on what holds on any machine, however slow or busy (``tests/test_serving.py``
asserts it): every request answered, or shed with a 503 problem document, none lost or hung
(unanswered after ``HANG``), memory bounded, a probe answered before the work queued ahead of
it, polite clients' p95 answered before a greedy client's median. Its timing targets
(probe latencies, the storm's rate) measure the machine as much as the server: they are
printed met or not (``make bench``, ``python -m bench.drills``), never asserted.

(1) slow:      header tricklers, body tricklers, clients that never read a large answer and
               idle connections at once; every fresh ``/livez`` and ``/v1/score`` probe is
               answered 200, the stalled bodies 408. Target: probes p95 within 100 ms, the
               slowest within 1 s.
(2) keepalive: pipelined requests on one persistent connection are answered in order.
(3) memory:    every one-suit count vector (118,800 hands, legal or not) through the batch
               endpoint; worker memory stays under the bound.
(4) overload:  clients looping 1000-item batches (legal, then invalid) saturate the server;
               ``/livez`` answers throughout and every batch is answered 200 or shed with a
               503 problem document and Retry-After. Then single scores on new connections,
               faster than the server answers them beside batches: each is answered 200 or
               503. Then 1,000 persistent connections looping scores, analyses, expected
               scores and GETs: each request answered 200 or 503. Targets: ``/livez`` under
               1 s at p95, every probe within the liveness probe's 2 s; storm scores answered
               within 1 s at p99; the storm at the full ``STORM_RATE``.
(5) framing:   malformed chunking, conflicting lengths, a body cut short, an over-limit
               ``Expect: 100-continue``: 4xx problem documents, no traceback in the log.
(6) ahead:     a ``/livez`` sent after a few expected scores and a hundred long hand analyses
               are queued on one worker is answered before the last of them.
(7) fair:      a greedy client (900 connections from one address looping scores and batches)
               beside three polite clients on their own addresses: every polite score is
               answered 200, the greedy client 200 or 503, the polite scores' p95 under the
               greedy client's median (each from sent to answered, in the same run): the
               polite clients take turns with the greedy one, not its place in the queue.
               Targets: polite p99 under 100 ms, the hands scored a second within 10% of
               the greedy client's alone.
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import math
import selectors
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from typing import Any

from tests.support import handgen

from . import fixedrate, server
from .faults import Drill

CLIENT_TIMEOUT = 2.0  # seconds, for the drills: the slow clients' dance repeats within a drill
MEMORY_BOUND_MIB = 100
# New connections a second, each a single score, in the overload drill: more than two workers
# beside batches answer on the 2-core build machine, so that they shed. Before a worker took
# up to 64 waiting connections per turn of its loop (16), 4 of 9 runs at this rate fell into
# a state where new connections waited seconds in a full backlog (docs/PERFORMANCE.md).
STORM_RATE = 6000
# ... at most this share of the fresh connections the machine answers a second with nothing else
# to do (server and client on the same cores, measured at the start of the drill): a storm no
# server on the machine could even accept measures the kernel's backlog, not shedding. On a day
# this VM ran at half its speed, it answered ~1,400 fresh /livez a second, and a storm at
# 6,000/s failed the drill on code that passes it at full speed. So the drill holds on every
# storm it runs, and whether the machine could take the full rate is a target, printed.
STORM_SHARE = 0.8
# Persistent connections looping requests in the overload drill: before each of their requests
# waited for the loop to come round, 1,000 of them held a worker's loop for seconds at a time
# and /livez on a new connection waited p50 1.5-3 s (docs/PERFORMANCE.md).
CROWD = 1000
# The liveness probe's timeout in deploy/kubernetes.yaml: a probe slower than this fails.
LIVENESS_TIMEOUT = 2.0
# Seconds after which a request with no answer counts as hung (lost): a liveness bound, not a
# speed target, far above what any answer here takes on a loaded or slow machine (the slowest
# /livez under the crowd on a half-speed day: 1.5 s).
HANG = 10.0
# The fair-share drill's greedy client: persistent connections from one address, and its polite
# clients, each on an address of its own, each sending one score every POLITE_EVERY seconds
# (issue #44's measurement: 900 connections; one score every 50 ms, which was about 5% of
# what two workers answered a second; the drill prints the share on the day).
GREEDY = 900
POLITE = ("127.0.0.2", "127.0.0.3", "127.0.0.4")
POLITE_EVERY = 0.05
ENV = {"ZJ_CLIENT_TIMEOUT": str(CLIENT_TIMEOUT)}


def _score_body() -> bytes:
    hand = {
        "hand": {"tiles": "123m789p23455s", "melds": [{"kind": "pung", "tiles": "777z"}],
                 "winning_tile": "4s"},
        "win": {"by": "discard", "seat": "S", "discarder": "W"},
    }  # fmt: skip
    return json.dumps(hand).encode()


SCORE_BODY = _score_body()
# One of the longest hand analyses (~1.7 ms compiled): 14 one-suit tiles, every discard ready
# on several waits, each scored twice.
ANALYSIS_BODY = json.dumps({"hand": {"tiles": "11123455678999m"}, "win": {"seat": "E"}}).encode()
# An expected score (API.md ``expect``): long work, with the batches (service/turns.py). Two
# melds and a full wall: ~0.25 s in pure Python, 1,589 hands searched.
EXPECT_BODY = json.dumps({
    "hand": {"tiles": "11235s555z", "melds": [{"kind": "pung", "tiles": "777z"},
                                              {"kind": "chow", "tiles": "456p"}]},
    "win": {"seat": "E"}, "expect": {"draws_left": 17, "discard_rate": 0.5},
}).encode()  # fmt: skip


# --- clients ----------------------------------------------------------------------------------


def head(method: str, path: str, port: int, extra: str = "", length: int | None = None) -> bytes:
    sized = f"Content-Length: {length}\r\n" if length is not None else ""
    return (
        f"{method} {path} HTTP/1.1\r\nHost: {server.HOST}:{port}\r\n"
        f"Content-Type: application/json\r\n{sized}{extra}\r\n"
    ).encode()


def exchange(port: int, raw: bytes, seconds: float = 10) -> bytes:
    """Sends ``raw`` on a fresh connection; everything answered until the server closes or
    ``seconds`` pass."""
    with socket.create_connection((server.HOST, port), timeout=seconds) as sock:
        sock.sendall(raw)
        return read_until_closed(sock, seconds)


def read_until_closed(sock: socket.socket, seconds: float) -> bytes:
    chunks = []
    deadline = time.monotonic() + seconds
    with suppress(OSError):
        while time.monotonic() < deadline:
            sock.settimeout(max(0.01, deadline - time.monotonic()))
            chunk = sock.recv(1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    return b"".join(chunks)


def answers(raw: bytes) -> list[tuple[int, dict[str, str], bytes]]:
    """The HTTP/1.1 answers in ``raw``, in order: status, headers (lower-case), body."""
    found = []
    while raw:
        top, _, rest = raw.partition(b"\r\n\r\n")
        lines = top.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers = dict(
            (name.strip().lower(), value.strip())
            for name, _, value in (line.partition(":") for line in lines[1:])
        )
        if status == 100:
            raw = rest
            continue
        size = int(headers.get("content-length", "0"))
        found.append((status, headers, rest[:size]))
        raw = rest[size:]
    return found


def probe(port: int, method: str, path: str, body: bytes | None = None) -> float | None:
    """Seconds a fresh client waits for a 200; None if it got anything else or nothing."""
    started = time.perf_counter()
    connection = http.client.HTTPConnection(server.HOST, port, timeout=HANG)
    try:
        connection.request(method, path, body, {"Content-Type": "application/json"})
        response = connection.getresponse()
        response.read()
        ok = response.status == 200
    except (OSError, http.client.HTTPException):
        ok = False
    finally:
        connection.close()
    return time.perf_counter() - started if ok else None


@dataclass
class Probes:
    """Latencies of fresh probes, and how many failed."""

    seconds: list[float] = field(default_factory=list)
    failed: int = 0

    def add(self, latency: float | None) -> None:
        if latency is None:
            self.failed += 1
        else:
            self.seconds.append(latency)

    def quantile(self, q: float) -> float:
        ordered = sorted(self.seconds) or [float("inf")]
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    def summary(self) -> str:
        total = len(self.seconds) + self.failed
        return (
            f"{len(self.seconds)}/{total} ok, p50 {self.quantile(0.5) * 1000:.1f} ms, "
            f"p95 {self.quantile(0.95) * 1000:.1f} ms, p99 {self.quantile(0.99) * 1000:.1f} ms, "
            f"slowest {self.quantile(1.0) * 1000:.1f} ms"
        )


def probing(port: int, seconds: float, every: float = 0.05) -> dict[str, Probes]:
    """Probes ``/livez`` and ``/v1/score`` alternately for ``seconds``."""
    seen = {"livez": Probes(), "score": Probes()}
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        seen["livez"].add(probe(port, "GET", "/livez"))
        seen["score"].add(probe(port, "POST", "/v1/score", SCORE_BODY))
        time.sleep(every)
    return seen


def probing_livez(port: int, seconds: float, probers: int = 4) -> Probes:
    """Fresh ``/livez`` probes for ``seconds`` from ``probers`` threads, each probing again
    20 ms after its last answer: enough probes that a p95 is not the slowest one. A probe
    waits on the network, not the GIL, so the threads do not delay each other."""
    deadline = time.monotonic() + seconds
    each = [Probes() for _ in range(probers)]

    def loop(mine: Probes) -> None:
        while time.monotonic() < deadline:
            mine.add(probe(port, "GET", "/livez"))
            time.sleep(0.02)

    threads = [threading.Thread(target=loop, args=(mine,), daemon=True) for mine in each]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return Probes([s for mine in each for s in mine.seconds], sum(m.failed for m in each))


@contextmanager
def attackers(*loops: Callable[[threading.Event], None]) -> Iterator[None]:
    """Runs each loop in a thread until the block ends; each must return once ``stop`` is set."""
    stop = threading.Event()
    threads = [threading.Thread(target=loop, args=(stop,), daemon=True) for loop in loops]
    for thread in threads:
        thread.start()
    try:
        yield
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=CLIENT_TIMEOUT + 10)


@contextmanager
def attacking(name: str, port: int, seconds: float, *args: int) -> Iterator[dict[str, Any]]:
    """Runs the attack ``name`` (``ATTACKS``) in another process for ``seconds``; the block is
    entered half a second after the attack starts (once that process has started: on a busy
    machine its imports alone can take longer). Yields the attack's report, filled when the
    block ends.

    Attackers never share this process with the probes: their threads would hold the GIL and
    delay the probes themselves, which would then measure the client, not the server.
    """
    command = [sys.executable, "-m", "bench.drills", "--attack", name, str(port), str(seconds),
               *map(str, args)]  # fmt: skip
    report: dict[str, Any] = {}
    with subprocess.Popen(command, stdout=subprocess.PIPE, cwd=server.ROOT) as process:
        try:
            assert process.stdout is not None
            process.stdout.readline()  # "started" (or nothing, if it failed: then at once)
            time.sleep(0.5)
            yield report
        finally:
            report.update(json.loads(process.communicate(timeout=seconds + 40)[0] or "{}"))


class Tricklers:
    """``count`` connections each sending ``first`` at once, then ``rest`` ``step`` bytes every
    ``every`` seconds, reconnecting when the server drops them; counts what the server did."""

    def __init__(
        self, port: int, first: bytes, rest: bytes, count: int, step: int = 1, every: float = 0.2
    ) -> None:
        self.port, self.first, self.rest, self.count = port, first, rest, count
        self.step, self.every = step, every
        self.dropped = 0  # closed by the server with no answer
        self.answered: dict[int, int] = {}  # status -> times

    def __call__(self, stop: threading.Event) -> None:
        sockets: dict[socket.socket, int] = {}
        try:
            while not stop.is_set():
                while len(sockets) < self.count:
                    with suppress(OSError):
                        sock = socket.create_connection((server.HOST, self.port), timeout=2)
                        sock.sendall(self.first)
                        sock.setblocking(False)
                        sockets[sock] = 0
                for sock, sent in list(sockets.items()):
                    try:
                        if sent < len(self.rest):
                            sock.send(self.rest[sent : sent + self.step])
                            sockets[sock] = sent + self.step
                        self._check(sock, sockets)
                    except BlockingIOError:
                        pass
                    except OSError:
                        self.dropped += 1
                        sockets.pop(sock)
                        sock.close()
                stop.wait(self.every)
        finally:
            for sock in sockets:
                sock.close()

    def outcomes(self) -> dict[str, int]:
        return {"dropped": self.dropped, **{str(k): n for k, n in sorted(self.answered.items())}}

    def _check(self, sock: socket.socket, sockets: dict[socket.socket, int]) -> None:
        data = sock.recv(1 << 16)  # BlockingIOError while the server says nothing
        if data:
            status = int(data.split(b" ", 2)[1])
            self.answered[status] = self.answered.get(status, 0) + 1
        else:
            self.dropped += 1
        sockets.pop(sock)
        sock.close()


class NonReaders:
    """Connections posting a large batch and never reading the answer, renewed now and then."""

    def __init__(self, port: int, body: bytes, count: int) -> None:
        self.port, self.body, self.count = port, body, count
        self.sent = 0

    def __call__(self, stop: threading.Event) -> None:
        while not stop.is_set():
            held = []
            for _ in range(self.count):
                with suppress(OSError):
                    sock = socket.create_connection((server.HOST, self.port), timeout=5)
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                    sock.sendall(head("POST", "/v1/score/batch", self.port, "", len(self.body)))
                    sock.sendall(self.body)
                    held.append(sock)
                    self.sent += 1
            stop.wait(CLIENT_TIMEOUT * 2)
            for sock in held:
                sock.close()


def batch_body(items: list[Any]) -> bytes:
    return json.dumps({"items": items}).encode()


def legal_batch(seed: int = 3, size: int = 1000) -> bytes:
    return batch_body([drawn.payload for drawn in handgen.generate_labelled(size, seed)])


def invalid_item(index: int) -> dict[str, Any]:
    """Every field wrong, plus ~100 unknown keys (issue #14's overload case)."""
    noise = {f"x{index}_{k}": k for k in range(25)}
    return {
        "hand": {"tiles": 5, "melds": "x", "winning_tile": [], "flowers": "a", **noise},
        "win": {"by": 1, "seat": "Q", "discarder": 3, "last_tile": "no", **noise},
        "rules": {"version": 9, "payoff": 1, "standard_value": "x", **noise},
        **noise,
    }


# --- the drills -------------------------------------------------------------------------------


def judged(
    name: str, holds: dict[str, bool], facts: dict[str, Any], targets: dict[str, bool] | None = None
) -> Drill:
    """A drill's verdict: it passes when every fact of ``holds`` is true (what must hold on any
    machine); those that are not are named first among its facts, which pytest shortens in the
    middle. ``targets`` are its timing targets, printed met or not, never part of the verdict."""
    unmet = [fact for fact, met in holds.items() if not met]
    return Drill(name, not unmet, {"unmet": unmet, **facts} if unmet else facts, targets or {})


def slow_clients(seconds: float = 6) -> Drill:
    """(1) Slow and idle clients of every kind at once, while fresh clients probe."""
    with server.gunicorn(workers=2, env=ENV) as srv:
        with attacking("slow", srv.port, seconds) as attack:
            seen = probing(srv.port, seconds)
        log = srv.log()
    # A server that waits on slow clients holds each probe for seconds (CLIENT_TIMEOUT), and
    # behind a thousand of them, past HANG.
    holds = {
        "every probe answered 200": all(p.failed == 0 for p in seen.values()),
        "stalled bodies answered 408": attack["body_tricklers"].get("408", 0) > 0,
        "no traceback": "Traceback" not in log,
    }
    # Judged on p95 and the slowest: this VM's scheduler alone delays one probe in ~60 by
    # 100-170 ms now and then (the "p99" of ~66 probes is their slowest).
    targets = {
        "probes p95 < 100 ms, none over 1 s": all(
            p.quantile(0.95) < 0.1 and p.quantile(1.0) < 1.0 for p in seen.values()
        )
    }
    facts = {"livez": seen["livez"].summary(), "score": seen["score"].summary(), **attack}
    return judged("slow and idle clients", holds, facts, targets)


def slow_attack(port: int, seconds: float) -> dict[str, Any]:
    """1,000 idle connections, 200 header tricklers, 2 body tricklers and 2 clients that never
    read their 1000-hand batch answers, all renewed when the server drops them."""
    score_head = head("POST", "/v1/score", port, length=len(SCORE_BODY))
    silent = Tricklers(port, b"", b"", 1000)
    headers = Tricklers(port, b"", score_head, 200, step=8)
    bodies = Tricklers(port, score_head, SCORE_BODY, 2, step=1)
    non_readers = NonReaders(port, legal_batch(), 2)
    with attackers(silent, headers, bodies, non_readers):
        time.sleep(seconds)
    return {
        "idle_connections": silent.outcomes(),
        "header_tricklers": headers.outcomes(),
        "body_tricklers": bodies.outcomes(),
        "batches_never_read": non_readers.sent,
    }


def keepalive_and_pipelining() -> Drill:
    """(2) Three pipelined requests on one connection, answered in order, connection kept."""
    with server.gunicorn(workers=1, env=ENV) as srv:
        port = srv.port
        bad = b'{"hand": 1}'
        raw = (
            head("GET", "/livez", port)
            + head("POST", "/v1/score", port, length=len(SCORE_BODY))
            + SCORE_BODY
            + head("POST", "/v1/score", port, length=len(bad))
            + bad
        )
        with socket.create_connection((server.HOST, port), timeout=5) as sock:
            sock.sendall(raw)
            got = answers(read_until_closed(sock, CLIENT_TIMEOUT + 3))
    statuses = [status for status, _, _ in got]
    kept = all(headers.get("connection") != "close" for _, headers, _ in got)
    holds = {
        "answered in order": statuses == [200, 200, 422] and got[1][2].startswith(b'{"rules"'),
        "connection kept": kept,
    }
    return judged("keep-alive and pipelining", holds, {"statuses": statuses, "kept_alive": kept})


def one_suit_hands() -> Iterator[dict[str, Any]]:
    """Every 14-tile count vector of one suit as a (maybe illegal) score request."""
    for counts in itertools.product(range(5), repeat=9):
        if sum(counts) == 14:
            tiles = "".join(str(face + 1) * n for face, n in enumerate(counts)) + "m"
            winning = next(face + 1 for face, n in enumerate(counts) if n)
            yield {
                "hand": {"tiles": tiles, "winning_tile": f"{winning}m"},
                "win": {"by": "self_draw", "seat": "E"},
            }


def memory() -> Drill:
    """(3) Every one-suit hand (``one_suit_hands``), 1000 a batch; worker RSS sampled. All of
    them, whatever the machine's speed: more distinct hands than any cache holds."""
    peak = 0
    answered: dict[str, int] = {}
    with server.gunicorn(workers=2, env=ENV) as srv:
        workers = srv.workers()
        start = max(server.rss_kib(pid) or 0 for pid in workers)
        connection = http.client.HTTPConnection(server.HOST, srv.port, timeout=HANG)
        hands = one_suit_hands()
        try:
            while items := list(itertools.islice(hands, 1000)):
                connection.request("POST", "/v1/score/batch", batch_body(items),
                                   {"Content-Type": "application/json"})  # fmt: skip
                response = connection.getresponse()
                response.read()
                key = str(response.status)
                answered[key] = answered.get(key, 0) + len(items)
                peak = max(peak, *(server.rss_kib(pid) or 0 for pid in workers))
        finally:
            connection.close()
    holds = {
        # One client, one batch at a time: nothing waits, so nothing is shed.
        "every hand answered 200": list(answered) == ["200"],
        "memory bounded": peak < MEMORY_BOUND_MIB * 1024,
    }
    facts = {
        "hands": answered,
        "worker_rss_start_mib": round(start / 1024, 1),
        "worker_rss_peak_mib": round(peak / 1024, 1),
        "bound_mib": MEMORY_BOUND_MIB,
    }
    return judged("bounded memory", holds, facts)


def overload(seconds: float = 5, clients: int = 16) -> Drill:
    """(4) Four floods in turn, each while ``/livez`` is probed: ``clients`` loops of legal
    1000-item batches; the same with invalid items; single scores on new connections at
    ``STORM_RATE``/s (or what the machine can accept, see ``STORM_SHARE``) beside two loops of
    legal batches; ``CROWD`` persistent connections
    looping scores, hand analyses, expected scores and GETs."""
    outcomes: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    seen: dict[str, Probes] = {}
    with server.gunicorn(workers=2, env=ENV) as srv:
        capacity = fresh_connections(srv.port)
        rate = min(STORM_RATE, int(STORM_SHARE * capacity))
        phases = {
            "legal_batches": [("legal", clients)],
            "invalid_batches": [("invalid", clients)],
            "scores_beside_batches": [("legal", 2), ("scores", rate)],
            "persistent_connections": [("crowd", CROWD)],
        }
        for phase, attacks in phases.items():
            with ExitStack() as stack:
                reports = [
                    (name, stack.enter_context(attacking(name, srv.port, seconds + 1, size)))
                    for name, size in attacks
                ]
                seen[phase] = probing_livez(srv.port, seconds)
            outcomes[phase] = reports
        peak = max(server.rss_kib(pid) or 0 for pid in srv.workers())
        pod = sum(server.pss_kib(pid) for pid in [srv.pid, *srv.workers()])
        log = srv.log()
    reports = [pair for pairs in outcomes.values() for pair in pairs]
    batches = [report for name, report in reports if name in ("legal", "invalid")]
    [scores] = [report for name, report in reports if name == "scores"]
    [crowded] = [report for name, report in reports if name == "crowd"]
    holds = {
        # A loop stalled behind the CPU, or a probe queued behind the work, holds probes for
        # seconds, and behind a flood, past HANG.
        "/livez answered in every phase": all(p.failed == 0 for p in seen.values()),
        # Nothing lost: "error" is a batch with no answer within HANG, or a broken connection.
        "every batch answered 200 or 503": all(
            set(o) <= {"200", "503", "503_problem"} for o in batches
        ),
        "every 503 a problem document with Retry-After": all(
            o.get("503", 0) == o.get("503_problem", 0) for o in batches
        ),
        "every storm score answered 200 or 503": scores["failed"] == 0,
        "the crowd answered 200 or 503": crowded.get("200", 0) > 0
        and set(crowded) <= {"200", "503", "503_problem"}
        and crowded.get("503", 0) == crowded.get("503_problem", 0),
        "no traceback": "Traceback" not in log,
        "memory bounded": peak < MEMORY_BOUND_MIB * 1024,
    }
    targets = {
        # p95 and the slowest, bounded by the liveness probe's own timeout
        # (deploy/kubernetes.yaml): under the crowd, probes wait ~0.15-0.3 s for the loop's
        # turn, and on a busy day one in ~50 waited 1-1.5 s.
        "/livez p95 < 1 s, every probe within 2 s, in every phase": all(
            p.quantile(0.95) < 1.0 and p.quantile(1.0) < LIVENESS_TIMEOUT for p in seen.values()
        ),
        # Shed, not queued for seconds.
        "storm scores answered within 1 s at p99": scores["answered_p99_ms"] < 1000,
        f"the storm at {STORM_RATE:,}/s": rate == STORM_RATE,
    }
    facts: dict[str, Any] = {"fresh_connections_per_s": round(capacity)}
    for phase, pairs in outcomes.items():
        facts[f"livez_under_{phase}"] = seen[phase].summary()
        facts[phase] = {name: report for name, report in pairs}
    facts["worker_rss_after_mib"] = round(peak / 1024, 1)
    facts["master_and_workers_pss_mib"] = round(pod / 1024, 1)
    return judged("overload", holds, facts, targets)


def fresh_connections(port: int, seconds: float = 1) -> float:
    """``GET /livez`` answered a second, each on a new connection, offered ``STORM_RATE``/s
    to an idle server: what the machine (server and client) can accept and answer at all.
    Then a pause, for the backlog this left to drain."""
    livez = fixedrate.raw_request(server.HOST, port, "GET", "/livez", b"")
    figures = fixedrate.run(server.HOST, port, [livez], STORM_RATE, seconds)
    time.sleep(1)
    return figures.achieved_rate


def storm(port: int, seconds: float, rate: int) -> dict[str, Any]:
    """Single scores, each on a new connection, at ``rate`` a second (open loop)."""
    score = fixedrate.raw_request(server.HOST, port, "POST", "/v1/score", SCORE_BODY)
    run = fixedrate.run(server.HOST, port, [score], rate, seconds, timeout=HANG)
    return {
        "rate": rate,
        "200": run.ok,
        "p50_ms": round(run.p50_ms, 1),
        "p99_ms": round(run.p99_ms, 1),
        "503": run.shed,
        "failed": run.errors - run.shed,
        "answered_p99_ms": round(run.answered_p99_ms, 1),
    }


def crowd(port: int, seconds: float, connections: int) -> dict[str, Any]:
    """``connections`` persistent connections (``looping``): a fifth of them loop single
    scores, a fifth hand analyses (a long one), a fifth expected scores (long work), a fifth
    the catalogue and a fifth ``/livez`` (which skips the turns)."""
    requests = [
        ("", fixedrate.raw_request(server.HOST, port, method, path, body, close=False))
        for method, path, body in (
            ("POST", "/v1/score", SCORE_BODY),
            ("POST", "/v1/discards", ANALYSIS_BODY),
            ("POST", "/v1/discards", EXPECT_BODY),
            ("GET", "/v1/patterns", b""),
            ("GET", "/livez", b""),
        )
    ]
    return looping(port, seconds, connections, requests)


def looping(
    port: int,
    seconds: float,
    connections: int,
    requests: list[tuple[str, bytes]],
    waited: dict[str, Probes] | None = None,
) -> dict[str, Any]:
    """``connections`` persistent connections, each sending its next request as soon as the
    last is answered, for ``seconds``: connection ``i`` loops ``requests[i % len(requests)]``.
    A connection the server closes (after its last answer) is dialled again. Outcomes by the
    request's label and status (``failed``: closed or reset with no answer; ``503_problem``:
    503s that are problem documents with Retry-After); into ``waited``, by label, the seconds
    from each request sent to its 200 in full. One ``selectors`` loop: a thread per connection
    would cost more than the server."""
    outcomes: dict[str, int] = {}
    sent: dict[int, float] = {}
    selector = selectors.DefaultSelector()

    def count(key: str) -> None:
        outcomes[key] = outcomes.get(key, 0) + 1

    def dial(index: int) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        sock.connect_ex((server.HOST, port))
        selector.register(sock, selectors.EVENT_WRITE, (index, sock, bytearray()))

    for index in range(connections):
        dial(index)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for key, events in selector.select(0.1):
            index, sock, received = key.data
            label, request = requests[index % len(requests)]
            try:
                if events & selectors.EVENT_WRITE:  # connected, or answered: the next request
                    sock.sendall(request)
                    sent[index] = time.perf_counter()
                    selector.modify(sock, selectors.EVENT_READ, key.data)
                    continue
                chunk = sock.recv(65536)
            except OSError:
                chunk = b""
            received += chunk
            status = fixedrate.response_status(bytes(received))
            if status is not None:
                count(f"{label}{status}")
                if status == 200 and waited is not None:
                    waited.setdefault(label, Probes()).add(time.perf_counter() - sent[index])
                lowered = bytes(received).lower()
                if (
                    status == 503
                    and b"application/problem+json" in lowered
                    and (b"retry-after" in lowered)
                ):
                    count(f"{label}503_problem")
            elif chunk:
                continue  # more of the answer to come
            else:
                count(f"{label}failed")
            closing = status is None or b"connection: close" in received.lower()
            received.clear()
            if closing:
                selector.unregister(sock)
                sock.close()
                dial(index)
            else:
                selector.modify(sock, selectors.EVENT_WRITE, key.data)
    for key in list(selector.get_map().values()):
        key.data[1].close()
    selector.close()
    return outcomes


def flood(body: bytes, port: int, seconds: float, clients: int) -> dict[str, int]:
    """``clients`` threads posting ``body`` as a batch for ``seconds``: outcomes by status
    (``error``: no answer within ``HANG``, or a broken connection; ``503_problem``: the 503s
    that are problem documents with Retry-After)."""
    outcomes: dict[str, int] = {}
    deadline = time.monotonic() + seconds

    def loop(stop: threading.Event) -> None:
        connection = http.client.HTTPConnection(server.HOST, port, timeout=HANG)
        while time.monotonic() < deadline:
            try:
                connection.request("POST", "/v1/score/batch", body,
                                   {"Content-Type": "application/json"})  # fmt: skip
                response = connection.getresponse()
                response.read()
                key = str(response.status)
                if (
                    response.status == 503
                    and response.getheader("Retry-After")
                    and response.getheader("Content-Type") == "application/problem+json"
                ):
                    outcomes["503_problem"] = outcomes.get("503_problem", 0) + 1
            except (OSError, http.client.HTTPException):
                key = "error"
                connection.close()
                connection = http.client.HTTPConnection(server.HOST, port, timeout=HANG)
            outcomes[key] = outcomes.get(key, 0) + 1
        connection.close()

    with attackers(*(loop for _ in range(clients))):
        time.sleep(seconds)
    return outcomes


def framing() -> Drill:
    """(5) Broken framing gets a 4xx problem document and one log line, never a traceback."""
    with server.gunicorn(workers=1, env=ENV) as srv:
        port = srv.port
        score = head("POST", "/v1/score", port)
        cases = {
            "bad chunk size": (
                score.replace(b"\r\n\r\n", b"\r\nTransfer-Encoding: chunked\r\n\r\n")
                + b"zz\r\nhello\r\n0\r\n\r\n",
                "400 bad_request",
            ),
            "conflicting lengths": (
                head("POST", "/v1/score", port, "Content-Length: 7\r\n", 5) + b"hello",
                "400 bad_request",
            ),
            "length and chunked": (
                head("POST", "/v1/score", port, "Transfer-Encoding: chunked\r\n", 5)
                + b"5\r\nhello\r\n0\r\n\r\n",
                "400 bad_request",
            ),
            "body cut short": (
                head("POST", "/v1/score", port, length=100) + b'{"hand"',
                "400 bad_request",
            ),
            "100-continue over the limit": (
                head("POST", "/v1/score", port, "Expect: 100-continue\r\n", 50_000_000),
                "413 payload_too_large",
            ),
        }
        seen = {}
        for name, (raw, _) in cases.items():
            with socket.create_connection((server.HOST, port), timeout=5) as sock:
                sock.sendall(raw)
                if name == "body cut short":
                    sock.shutdown(socket.SHUT_WR)  # the client hangs up mid-body
                got = answers(read_until_closed(sock, CLIENT_TIMEOUT + 3))
            seen[name] = (
                f"{got[0][0]} {json.loads(got[0][2]).get('code')}"
                if got and got[0][1].get("content-type") == "application/problem+json"
                else f"{[status for status, _, _ in got]} not a problem document"
            )
        # The headers and a part of the body, then nothing.
        start = head("POST", "/v1/score", port, length=len(SCORE_BODY)) + SCORE_BODY[:10]
        slow = Tricklers(port, start, b"", 1)
        with attackers(slow):
            time.sleep(CLIENT_TIMEOUT + 1.5)
        seen["body stalls"] = str(slow.outcomes())
        log = srv.log()
    holds = {
        "each a 4xx problem document": all(
            seen[name] == expected for name, (_, expected) in cases.items()
        ),
        "a stalled body answered 408": slow.answered.get(408, 0) >= 1,
        "no traceback": "Traceback" not in log,
    }
    return judged("framing errors", holds, {**seen, "traceback_in_log": "Traceback" in log})


def ahead(queued: int = 100, expected: int = 4) -> Drill:
    """(6) ``expected`` expected scores (long work), then ``queued`` of the longest hand
    analyses, each on a connection of its own, sent to one worker at once, then ``/livez``:
    the probe is answered before the last of them. An order, not a speed: they wait one
    behind another whatever each costs, and the probe must not wait among them. The queue
    timeout is raised so that none is shed: a shed analysis would end at the timeout (a time),
    not behind the work ahead of it."""
    patient = {**ENV, "ZJ_QUEUE_TIMEOUT": "60"}
    with server.gunicorn(workers=1, env=patient) as srv:
        analysis, expectation = (
            fixedrate.raw_request(server.HOST, srv.port, "POST", "/v1/discards", body)
            for body in (ANALYSIS_BODY, EXPECT_BODY)
        )
        livez = fixedrate.raw_request(server.HOST, srv.port, "GET", "/livez", b"")
        work = [expectation] * expected + [analysis] * queued
        statuses, unanswered = race(srv.port, work, livez)
        log = srv.log()
    probe_status = statuses.pop(len(work), None)
    counted: dict[str, int] = {}
    for status in statuses.values():
        counted[str(status)] = counted.get(str(status), 0) + 1
    holds = {
        "/livez answered 200": probe_status == 200,
        "before the last request queued ahead of it": unanswered > 0,
        "every expected score and analysis answered 200": counted == {"200": len(work)},
        "no traceback": "Traceback" not in log,
    }
    facts = {"expected_scores_and_analyses": counted, "unanswered_when_livez_was": unanswered}
    return judged("probe ahead of queued work", holds, facts)


def fair_share(seconds: float = 4, greedy: int = GREEDY) -> Drill:
    """(7) A greedy client (``greedy`` persistent connections from 127.0.0.1, one in a hundred
    looping 1000-hand batches, the rest scores) alone, then beside three polite clients, each
    on its own address (``POLITE``) sending a single score every ``POLITE_EVERY`` seconds.
    Every polite request is answered 200, none shed, their p95 under the greedy client's median;
    the greedy client is answered (200, or 503 problem documents) throughout. Targets: polite
    p99 under 100 ms; the work answered a second (a batch counted as the scores it costs,
    ``cost_in_scores``) within 10% of the greedy client's alone."""
    with server.gunicorn(workers=2, env=ENV) as srv:
        batch_cost = cost_in_scores(srv.port, legal_batch())
        with attacking("greedy", srv.port, seconds + 1, greedy) as alone:
            time.sleep(seconds)
        rate = 1 / POLITE_EVERY
        with (
            attacking("greedy", srv.port, seconds + 1, greedy) as beside,
            ThreadPoolExecutor(len(POLITE)) as pool,
        ):
            polite = list(pool.map(lambda a: politely(srv.port, a, rate, seconds), POLITE))
        log = srv.log()
    seen, served = (
        Probes([s for p in probes for s in p.seconds], sum(p.failed for p in probes))
        for probes in zip(*polite, strict=True)
    )
    # Turns by client: a polite score waits for a turn or so, a greedy one for its own client's
    # queue of hundreds, so the polite clients' slow beat the greedy client's median. With one
    # line for all (`clients.client_of` one client for every address), a polite score waits in
    # the greedy client's queue: their p95 came out 1.34-1.50 times its median (p99 1.6-2.1),
    # against 0.19-0.28 with turns by client (p99 0.24-0.45; 2026-11-29, the compiled build,
    # three runs and nine). The p95, not the p99: of 240 answers the p99 is the third slowest,
    # and one stall of the host's put it at 1.03 (112 ms) in a fresh clone's `make test`.
    # Measured in the same run, both slow down alike on a slow or busy machine.
    polite_p95, greedy_p50 = served.quantile(0.95), beside["score_p50"]
    holds = {
        "every polite request answered 200": seen.failed == 0 and len(seen.seconds) > 0,
        "polite p95 under the greedy client's median (sent to answered)": polite_p95 < greedy_p50,
        "the greedy client answered 200 or 503 problem documents, alone and beside": all(
            report.get("200", 0) > 0
            and report.get("503", 0) == report.get("503_problem", 0)
            and report.get("failed", 0) == 0
            for report in (alone, beside)
        ),
        "no traceback": "Traceback" not in log,
    }

    # Throughput is the work answered, a batch counted as the single scores it costs: the
    # greedy client's batches start only when no score waits, and the few that do (0-13 of
    # ~95 a run) swung hands a second by 30% between runs of the same storm alone, and the
    # scores answered by as much the other way.
    def work(report: dict[str, Any], more: int = 0) -> float:
        done = report.get("200", 0) + more + batch_cost * report["batches"].get("batch 200", 0)
        return float(done / report.get("seconds", seconds))

    scored = {"alone": work(alone), "beside": work(beside, len(seen.seconds))}
    targets = {
        "polite p99 < 100 ms": seen.quantile(0.99) < 0.1,
        "work answered a second within 10% of the greedy client's alone": scored["beside"]
        >= 0.9 * scored["alone"],
    }
    answered = alone.get("200", 0) / alone.get("seconds", seconds)
    facts = {
        "polite": f"{rate:.0f}/s each ({rate / max(answered, 1):.1%} of the greedy client's"
        " answers a second alone), " + seen.summary(),
        "sent_to_answered_ms": {
            "polite": f"p50 {served.quantile(0.5) * 1000:.1f}, p95 {polite_p95 * 1000:.1f},"
            f" p99 {served.quantile(0.99) * 1000:.1f}",
            "greedy_beside": f"p50 {greedy_p50 * 1000:.1f}, p99 {beside['score_p99'] * 1000:.1f}",
        },
        "greedy_alone": alone,
        "greedy_beside": beside,
        "batch_in_scores": round(batch_cost, 1),
        "work_in_scores_per_s": {name: round(value) for name, value in scored.items()},
    }
    return judged("fair share", holds, facts, targets)


def cost_in_scores(port: int, batch: bytes, times: int = 10) -> float:
    """How many single scores a ``batch`` costs the server: each timed alone, one after
    another on one connection (the fastest of ``times``, the least disturbed)."""
    connection = http.client.HTTPConnection(server.HOST, port, timeout=HANG)

    def fastest(body: bytes, path: str) -> float:
        best = math.inf
        for _ in range(times):
            started = time.perf_counter()
            connection.request("POST", path, body, {"Content-Type": "application/json"})
            connection.getresponse().read()
            best = min(best, time.perf_counter() - started)
        return best

    try:
        return fastest(batch, "/v1/score/batch") / fastest(SCORE_BODY, "/v1/score")
    finally:
        connection.close()


def politely(port: int, address: str, rate: float, seconds: float) -> tuple[Probes, Probes]:
    """Single scores from ``address`` on one persistent connection, one every ``1 / rate`` s.
    Each is timed from when it was due, so that a late answer delays none of the count (what
    a user waits), and from when it was sent (what the server took, as the greedy client's
    scores are timed: on a busy machine a polite client falls behind its rate, and the wait
    from due grows with each late send)."""
    seen, served = Probes(), Probes()
    connection = http.client.HTTPConnection(
        server.HOST, port, timeout=HANG, source_address=(address, 0)
    )
    start = time.perf_counter()
    for n in range(int(rate * seconds)):
        due = start + n / rate
        time.sleep(max(0.0, due - time.perf_counter()))
        sent = time.perf_counter()
        try:
            connection.request(
                "POST", "/v1/score", SCORE_BODY, {"Content-Type": "application/json"}
            )
            response = connection.getresponse()
            response.read()
            ok = response.status == 200
        except (OSError, http.client.HTTPException):
            ok = False
            connection.close()
        answered = time.perf_counter()
        seen.add(answered - due if ok else None)
        served.add(answered - sent if ok else None)
    connection.close()
    return seen, served


def greedy_attack(port: int, seconds: float, connections: int) -> dict[str, Any]:
    """``connections`` from one address looping requests (``fair_share``): answers by
    status, the hands scored, the seconds it ran and its scores' p50 and p99 (seconds from
    sent to answered 200)."""
    batch = legal_batch()
    score = fixedrate.raw_request(server.HOST, port, "POST", "/v1/score", SCORE_BODY, close=False)
    requests = [
        (
            "batch ",
            fixedrate.raw_request(server.HOST, port, "POST", "/v1/score/batch", batch, close=False),
        )
    ]
    requests += [("", score)] * 99  # fmt: skip
    started = time.monotonic()
    waited: dict[str, Probes] = {}
    outcomes = looping(port, seconds, connections, requests, waited)
    ran = time.monotonic() - started
    scores = waited.get("", Probes())
    report: dict[str, Any] = {
        "score_p50": round(scores.quantile(0.5), 4),
        "score_p99": round(scores.quantile(0.99), 4),
    }
    for key, count in outcomes.items():
        status = key.removeprefix("batch ")
        report[status] = report.get(status, 0) + count
    report["hands"] = outcomes.get("200", 0) + 1000 * outcomes.get("batch 200", 0)
    report["batches"] = {k: n for k, n in outcomes.items() if k.startswith("batch")}
    report["seconds"] = round(ran, 2)
    return report


def race(port: int, queued: list[bytes], probe: bytes) -> tuple[dict[int, int | None], int]:
    """Sends each of ``queued``, then ``probe``, on a connection of its own, one after the
    other; reads the answers for at most ``HANG``. Returns each one's status by its index
    (``probe`` last; None: closed with no answer; absent: none within ``HANG``) and how many
    of ``queued`` were still unanswered when the probe's answer came (-1: it never came)."""
    selector = selectors.DefaultSelector()
    received: dict[int, bytearray] = {}
    statuses: dict[int, int | None] = {}

    def read_ready(wait: float) -> int:
        events = selector.select(wait)
        for key, _ in events:
            sock, index = key.fileobj, key.data
            assert isinstance(sock, socket.socket)
            try:
                chunk = sock.recv(1 << 16)
            except OSError:
                chunk = b""
            received[index] += chunk
            status = fixedrate.response_status(bytes(received[index]))
            if status is not None or not chunk:
                statuses[index] = status
                selector.unregister(sock)
                sock.close()
        return len(events)

    unanswered = -1
    try:
        for index, raw in enumerate([*queued, probe]):
            sock = socket.create_connection((server.HOST, port), timeout=HANG)
            received[index] = bytearray()
            selector.register(sock, selectors.EVENT_READ, index)
            sock.sendall(raw)
            sock.setblocking(False)
        deadline = time.monotonic() + HANG
        while selector.get_map() and time.monotonic() < deadline:
            read_ready(0.1)
            if unanswered < 0 and len(queued) in statuses:
                while read_ready(0):  # answers that came before the probe's, not yet read
                    pass
                unanswered = sum(index not in statuses for index in range(len(queued)))
    finally:
        for key in list(selector.get_map().values()):
            key.fileobj.close()  # type: ignore[union-attr]
        selector.close()
    return statuses, unanswered


ATTACKS: dict[str, Callable[..., dict[str, Any]]] = {
    "slow": slow_attack,
    "legal": lambda port, seconds, clients: flood(legal_batch(), port, seconds, clients),
    "invalid": lambda port, seconds, clients: flood(
        batch_body([invalid_item(k) for k in range(1000)]), port, seconds, clients
    ),
    "scores": storm,
    "crowd": crowd,
    "greedy": greedy_attack,
}


DRILLS: dict[str, Callable[[], Drill]] = {
    "slow": slow_clients,
    "keepalive": keepalive_and_pipelining,
    "memory": memory,
    "overload": overload,
    "framing": framing,
    "ahead": ahead,
    "fair": fair_share,
}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--attack"]:  # a drill's other process (see attacking)
        name, port, seconds, *more = argv[1:]
        print("started", flush=True)  # attacking waits for it
        print(json.dumps(ATTACKS[name](int(port), float(seconds), *map(int, more))))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help=f"drills: {', '.join(DRILLS)} (default: all)")
    args = parser.parse_args(argv)
    unknown = set(args.names) - set(DRILLS)
    if unknown:
        parser.error(f"unknown drills: {', '.join(sorted(unknown))}")
    failed = 0
    for name in args.names or DRILLS:
        drill = DRILLS[name]()
        failed += not drill.ok
        print(drill, flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
