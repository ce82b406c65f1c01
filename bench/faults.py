"""Fault drills against a real gunicorn on loopback: ``python -m bench.faults [--quick]``.

(a) kill:    SIGKILL a worker under load. The master replaces it, and requests keep
             succeeding; the only allowed failures are the requests the killed worker held:
             it holds many connections at once (reading, waiting for a turn, computing), so
             up to one per client (each client has one request in flight at a time).
(b) stall:   a client that stalls halfway through uploading a 1000-hand batch gets a prompt
             408, not a hang, while the same worker keeps answering others: the worker reads
             bodies in full before scoring them (service/worker.py), so no client can hold
             it, and gunicorn's worker timeout is left for a blocked event loop, which no
             request can cause (a 1000-hand batch of the heaviest hands scores in well under
             a second and yields every few milliseconds).
(c) sigterm: SIGTERM the master while a 1000-hand batch is in flight (once mid-upload, once
             mid-scoring): the response is a complete 200 and the master exits 0 within the
             configured graceful_timeout.

Every loop is bounded in time and count, and every server is stopped in a ``finally``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import socket
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from tests.support import handgen

from . import server

HEAVY = {"one_suit": 4, "nine_gates": 3, "identical_chows": 2, "consecutive_pungs": 1}


@dataclass
class Drill:
    name: str
    ok: bool
    facts: dict[str, Any] = field(default_factory=dict)
    # Timing targets by name, met or not: printed (make bench), never part of ``ok``, which
    # must not depend on the machine's speed.
    targets: dict[str, bool] = field(default_factory=dict)

    def __str__(self) -> str:
        facts = ", ".join(f"{key}={value}" for key, value in self.facts.items())
        targets = "".join(
            f"; target {name}: {'met' if met else 'NOT MET'}" for name, met in self.targets.items()
        )
        return f"{'PASS' if self.ok else 'FAIL'} {self.name}: {facts}{targets}"


def _post(port: int, path: str, body: bytes, timeout: float = 10) -> int:
    connection = http.client.HTTPConnection(server.HOST, port, timeout=timeout)
    try:
        connection.request("POST", path, body, {"Content-Type": "application/json"})
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def _batch_body(seed: int = 3) -> bytes:
    drawn = handgen.generate_labelled(1000, seed, families=HEAVY)
    return json.dumps({"items": [item.payload for item in drawn]}).encode()


def _head(port: int, path: str, length: int) -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: {server.HOST}:{port}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {length}\r\n\r\n"
    ).encode()


def _read_all(sock: socket.socket, seconds: float) -> bytes:
    """Everything until the server closes (sync workers close after each response), bounded."""
    sock.settimeout(seconds)
    chunks = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        chunk = sock.recv(1 << 16)
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


def _parse(raw: bytes) -> tuple[int, Any]:
    head, _, body = raw.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1]) if head else 0
    try:
        return status, json.loads(body)
    except ValueError:
        return status, None


def kill_worker(seconds: float = 9, clients: int = 4, seed: int = 5) -> Drill:
    """(a) SIGKILL one of two workers a third of the way into ``seconds`` of load."""
    bodies = [json.dumps(hand).encode() for hand in handgen.generate(200, seed)]
    outcomes: list[tuple[float, bool]] = []
    with server.gunicorn(workers=2) as srv:
        deadline = time.monotonic() + seconds

        def client(offset: int) -> None:
            index = offset
            while time.monotonic() < deadline:
                index += clients
                try:
                    ok = _post(srv.port, "/v1/score", bodies[index % len(bodies)]) == 200
                except (OSError, http.client.HTTPException):  # the request the kill cut short
                    ok = False
                outcomes.append((time.monotonic(), ok))

        threads = [threading.Thread(target=client, args=(k,), daemon=True) for k in range(clients)]
        for thread in threads:
            thread.start()
        time.sleep(seconds / 3)
        victim = srv.workers()[0]
        os.kill(victim, signal.SIGKILL)
        killed_at = time.monotonic()
        replaced = srv.wait_workers(2, exclude=[victim], seconds=seconds)
        replaced_after = time.monotonic() - killed_at
        for thread in threads:
            thread.join(timeout=seconds + 15)
    failures = sum(not ok for _, ok in outcomes)
    ok_after = sum(ok for at, ok in outcomes if at > killed_at + replaced_after)
    return Drill(
        "kill a worker under load",
        replaced and failures <= clients and ok_after > 0,
        {
            "requests": len(outcomes),
            "failures": failures,
            "allowed": clients,
            "replaced": replaced,
            "replaced_in_s": round(replaced_after, 2),
            "ok_after_replacement": ok_after,
        },
    )


def stalled_upload(client_timeout: int = 1) -> Drill:
    """(b) Stall mid-upload: the client gets a 408 within the client timeout, nothing restarts.

    The worker reads every body in full before it is scored (service/worker.py), so a stuck
    client holds a greenlet, never the worker: the same worker keeps answering meanwhile.
    """
    body = _batch_body()
    bound = client_timeout + 2
    env = {"ZJ_CLIENT_TIMEOUT": str(client_timeout)}
    with server.gunicorn(workers=1, env=env) as srv:
        worker = srv.workers()[0]
        with socket.create_connection((server.HOST, srv.port), timeout=5) as sock:
            sock.sendall(_head(srv.port, "/v1/score/batch", len(body)) + body[: len(body) // 2])
            stalled = time.monotonic()
            meanwhile = _post(srv.port, "/v1/score", json.dumps(handgen.generate(1)[0]).encode())
            try:
                raw = _read_all(sock, bound + 5)
                status, problem = _parse(raw) if raw else (0, None)
                code = problem.get("code") if isinstance(problem, dict) else "no problem document"
                outcome = f"status {status} {code}" if raw else "closed, no response"
            except TimeoutError:
                outcome = "HANG"
            except ConnectionResetError:
                outcome = "connection reset"
            waited = time.monotonic() - stalled
        same_worker = srv.workers() == [worker]
    prompt = outcome != "HANG" and waited <= bound
    return Drill(
        f"upload stalled past ZJ_CLIENT_TIMEOUT={client_timeout}",
        prompt and outcome == "status 408 request_timeout" and meanwhile == 200 and same_worker,
        {
            "client_saw": outcome,
            "after_s": round(waited, 2),
            "bound_s": bound,
            "score_meanwhile": meanwhile,
            "same_worker": same_worker,
        },
    )


def server_level_errors() -> Drill:
    """Errors gunicorn answers itself (bad request line, header limits) are problem+json too."""
    requests = {
        "request line": b"GARBAGE\r\n\r\n",
        "long request line": b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\n\r\n",
        "too many headers": b"GET /livez HTTP/1.1\r\nHost: x\r\n" + b"X-A: b\r\n" * 60 + b"\r\n",
    }
    seen = {}
    with server.gunicorn(workers=1) as srv:
        for name, raw in requests.items():
            with socket.create_connection((server.HOST, srv.port), timeout=5) as sock:
                sock.sendall(raw)
                answer = _read_all(sock, 10)
            head = answer.partition(b"\r\n\r\n")[0].lower()
            status, problem = _parse(answer)
            typed = b"content-type: application/problem+json" in head
            code = problem.get("code") if isinstance(problem, dict) else None
            seen[name] = f"{status} {code}" if typed else f"{status} not problem+json"
    expected = {"request line": "400", "long request line": "414", "too many headers": "431"}
    ok = all(seen[name] == f"{status} bad_request" for name, status in expected.items())
    return Drill("errors gunicorn answers itself", ok, seen)


def sigterm(mid_upload: bool, client_timeout: int = 10) -> Drill:
    """(c) SIGTERM the master with a 1000-hand batch in flight; expect 200, exit 0, and the
    connection closed after its answer (not kept for the client timeout)."""
    body = _batch_body()
    env = {"ZJ_CLIENT_TIMEOUT": str(client_timeout)}
    with server.gunicorn(workers=1, env=env) as srv:
        graceful = _graceful_timeout()
        with socket.create_connection((server.HOST, srv.port), timeout=5) as sock:
            head = _head(srv.port, "/v1/score/batch", len(body))
            if mid_upload:
                sock.sendall(head + body[: len(body) // 2])
                time.sleep(0.3)  # the worker has accepted and is reading the body
                os.kill(srv.pid, signal.SIGTERM)
                signalled = time.monotonic()
                time.sleep(0.5)
                sock.sendall(body[len(body) // 2 :])
            else:
                sock.sendall(head + body)
                time.sleep(0.05)  # the worker is scoring
                os.kill(srv.pid, signal.SIGTERM)
                signalled = time.monotonic()
            try:
                status, answer = _parse(_read_all(sock, graceful + 5))
            except OSError as error:
                status, answer = 0, repr(error)
        try:
            code: int | None = srv.process.wait(timeout=graceful + 5)
        except Exception:
            code = None
        exited_after = time.monotonic() - signalled
    results = answer.get("results", []) if isinstance(answer, dict) else []
    complete = len(results) == 1000 and all(item["status"] == 200 for item in results)
    when = "mid-upload" if mid_upload else "mid-scoring"
    return Drill(
        f"SIGTERM with a 1000-hand batch in flight ({when})",
        status == 200
        and complete
        and code == 0
        and exited_after <= min(graceful, client_timeout / 2),
        {
            "status": status,
            "complete_results": complete,
            "master_exit": code,
            "exited_after_s": round(exited_after, 2),
            "graceful_timeout_s": graceful,
            "client_timeout_s": client_timeout,
        },
    )


def sigterm_between_requests(client_timeout: int = 10) -> Drill:
    """SIGTERM the master while a keep-alive connection waits for its next request: the
    connection is closed and the master exits at once, not after the client timeout."""
    env = {"ZJ_CLIENT_TIMEOUT": str(client_timeout)}
    with server.gunicorn(workers=1, env=env) as srv:
        with socket.create_connection((server.HOST, srv.port), timeout=5) as sock:
            sock.sendall(f"GET /livez HTTP/1.1\r\nHost: {server.HOST}:{srv.port}\r\n\r\n".encode())
            answered = http.client.HTTPResponse(sock)
            answered.begin()
            answered.read()
            time.sleep(0.3)  # the worker waits for the connection's next request
            os.kill(srv.pid, signal.SIGTERM)
            signalled = time.monotonic()
            closed = _read_all(sock, client_timeout + 5) == b""
            closed_after = time.monotonic() - signalled
        try:
            code: int | None = srv.process.wait(timeout=client_timeout + 5)
        except Exception:
            code = None
        exited_after = time.monotonic() - signalled
    return Drill(
        "SIGTERM with a keep-alive connection between requests",
        answered.status == 200 and closed and code == 0 and exited_after < client_timeout / 2,
        {
            "keep_alive_answer": answered.status,
            "closed_after_s": round(closed_after, 2),
            "master_exit": code,
            "exited_after_s": round(exited_after, 2),
            "client_timeout_s": client_timeout,
        },
    )


def _graceful_timeout() -> float:
    """The shipped config's graceful_timeout (gunicorn's default 30 s without a config)."""
    if not server.CONFIG.exists():
        return 30.0
    namespace: dict[str, Any] = {"__file__": str(server.CONFIG)}
    # The config sets PROMETHEUS_MULTIPROC_DIR for the app it preloads: not for this process,
    # whose later gunicorns would all share it.
    saved = dict(os.environ)
    try:
        exec(compile(server.CONFIG.read_text(), str(server.CONFIG), "exec"), namespace)
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return float(namespace.get("graceful_timeout", 30))


def all_drills(quick: bool) -> list[Drill]:
    return [
        kill_worker(seconds=4.5 if quick else 12),
        stalled_upload(1),
        server_level_errors(),
        sigterm(mid_upload=True),
        sigterm(mid_upload=False),
        sigterm_between_requests(),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.faults", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--quick", action="store_true", help="shorter load in the kill drill")
    args = parser.parse_args(argv)
    drills = all_drills(args.quick)
    for drill in drills:
        print(drill)
    return 0 if all(drill.ok for drill in drills) else 1


if __name__ == "__main__":
    sys.exit(main())
