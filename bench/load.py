"""``make load``: a minute of saturating load; errors and worker memory. Exits 1 on a failure.

Mix (wrk, one thread, 4 connections per worker): valid POST /v1/score hands, the usual client
mistakes on /v1/score (malformed JSON, wrong media type, unknown field, fifth copy of a tile,
not a winning hand, impossible context, a body that is not an object) and batch requests of
100 items with some bad items in them. What must hold, over ``--seconds`` (default 60):

- no 5xx, no status other than 2xx/4xx, no socket error (connect, read, write, timeout);
- worker memory stays flat: the largest worker RSS over the last fifth of the run is at most
  ``--max-growth`` (20%) above the largest over the first fifth. Gunicorn recycles workers
  (``max_requests``), so each worker's own first and last RSS are listed too, for reading.

RSS comes from /proc/<pid>/status (VmRSS), sampled every ``--interval`` seconds for the
master's children while wrk runs.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from tests.support import handgen

from . import report, server, wrk

INVALID: list[wrk.Request] = [
    wrk.Request("POST", "/v1/score", '{"hand": {"tiles": '),  # malformed JSON
    wrk.Request("POST", "/v1/score", '{"hand": {}}', "text/plain"),  # 415
    wrk.Request("POST", "/v1/score", "[]"),  # not an object
    wrk.post_json("/v1/score", {"hand": {"tiles": "123m", "winning_tile": "1m"}, "colour": 1}),
    wrk.post_json(
        "/v1/score",  # a fifth 1m
        {
            "hand": {"tiles": "11111m234p567s789s", "winning_tile": "1m"},
            "win": {"by": "self_draw", "seat": "E"},
        },
    ),
    wrk.post_json(
        "/v1/score",  # no winning shape
        {
            "hand": {"tiles": "13579m2468p1357s", "winning_tile": "1m"},
            "win": {"by": "self_draw", "seat": "E"},
        },
    ),
    wrk.post_json(
        "/v1/score",  # robbing a kong on a self-draw
        {
            "hand": {"tiles": "123m456p789s11122z", "winning_tile": "1m"},
            "win": {"by": "self_draw", "seat": "E", "robbing_kong": True},
        },
    ),
    wrk.post_json("/v1/score", {"hand": {"tiles": "1m" * 40, "winning_tile": "1m"}}),
]


def mix(seed: int = 11) -> list[wrk.Request]:
    """About 80% valid hands, 15% invalid bodies, 5% batches of 100 (10 bad items each)."""
    hands = handgen.generate(400, seed)
    bad_items: list[Any] = [{"hand": {"tiles": "123m"}}, {"win": 3}, "not an object"]
    requests = [wrk.post_json("/v1/score", hand) for hand in hands[:320]]
    requests += INVALID * 8
    for start in range(0, 80, 4):
        items = hands[start : start + 90] + bad_items * 3 + [hands[start]]
        requests.append(wrk.post_json("/v1/score/batch", {"items": items}))
    # Interleave deterministically so the kinds are spread over the cycle.
    return [requests[(i * 37) % len(requests)] for i in range(len(requests))]


@dataclass
class Memory:
    """RSS samples: (seconds since start, {worker pid: KiB})."""

    samples: list[tuple[float, dict[int, int]]] = field(default_factory=list)

    def sample(self, elapsed: float, workers: list[int]) -> None:
        found = {pid: kib for pid in workers if (kib := server.rss_kib(pid)) is not None}
        if found:
            self.samples.append((elapsed, found))

    def window_max(self, start: float, end: float) -> int:
        values = [max(found.values()) for at, found in self.samples if start <= at <= end]
        return max(values, default=0)

    def per_worker(self) -> dict[int, list[int]]:
        lives: dict[int, list[int]] = {}
        for _, found in self.samples:
            for pid, kib in found.items():
                lives.setdefault(pid, []).append(kib)
        return lives


def run(
    seconds: float,
    interval: float,
    max_growth: float,
    connections: int | None,
    recycle: bool = True,
) -> int:
    print(report.machine())
    requests = mix()
    # --no-recycle turns max_requests off, so that a leak cannot hide behind worker recycling.
    with server.gunicorn(extra=[] if recycle else ["--max-requests", "0"]) as srv:
        workers = len(srv.workers())
        booted = srv.boots()
        outcome: dict[str, wrk.Result] = {}
        failure: list[BaseException] = []

        def load() -> None:
            try:
                outcome["wrk"] = wrk.run(srv.url, requests, seconds, connections or 4 * workers)
            except BaseException as error:
                failure.append(error)

        memory = Memory()
        start = time.monotonic()
        thread = threading.Thread(target=load, daemon=True)
        thread.start()
        while thread.is_alive() and time.monotonic() - start < seconds + 60:
            memory.sample(time.monotonic() - start, srv.workers())
            thread.join(interval)
        boots = srv.boots() - booted
    if failure or "wrk" not in outcome:
        print(f"load run failed: {failure[0] if failure else 'wrk did not finish'}")
        return 1
    result = outcome["wrk"]
    fifth = seconds / 5
    early, late = memory.window_max(0, fifth), memory.window_max(seconds - fifth, seconds + 60)
    growth = late / early - 1 if early else 0.0
    unexpected = result.s5xx + result.sother + result.s3xx
    rows: list[list[object]] = [
        ["duration", f"{result.seconds:.1f} s", ""],
        ["requests (rate)", f"{result.requests:,} ({report.rate(result.rate)})", ""],
        ["2xx", f"{result.s2xx:,}", ""],
        ["4xx (expected: the invalid bodies)", f"{result.s4xx:,}", ""],
        ["5xx and other statuses", unexpected, "must be 0"],
        [
            "socket errors (connect/read/write/timeout)",
            f"{result.socket_errors} ({result.connect}/{result.read}/{result.write}/"
            f"{result.timeout})",
            "must be 0",
        ],
        [
            "latency p50 / p99 / max",
            f"{result.p50_ms:.1f} / {result.p99_ms:.1f} / {result.max_ms:.1f} ms",
            "",
        ],
        ["worker boots during the run (recycling)", boots, ""],
        ["largest worker RSS, first fifth", f"{early / 1024:.1f} MiB", ""],
        ["largest worker RSS, last fifth", f"{late / 1024:.1f} MiB", ""],
        ["growth", f"{growth:+.1%}", f"<= {max_growth:.0%}"],
    ]
    print(
        report.table(
            f"Load: {seconds:.0f} s at saturation, {workers} workers",
            ["figure", "value", "limit"],
            rows,
        )
    )
    lives = memory.per_worker()
    print(f"{len(lives)} worker processes seen; RSS over each one's sampled life (first -> last):")
    for pid, values in lives.items():
        first, last = values[0] / 1024, values[-1] / 1024
        print(f"  pid {pid}: {first:.1f} -> {last:.1f} MiB over {len(values)} samples")
    failed = []
    if unexpected:
        failed.append(f"{unexpected} responses neither 2xx nor 4xx")
    if result.socket_errors:
        failed.append(f"{result.socket_errors} socket errors")
    if growth > max_growth:
        failed.append(f"worker RSS grew {growth:.0%}")
    print("FAIL: " + "; ".join(failed) if failed else "PASS")
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.load", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--seconds", type=float, default=60, help="load duration (default 60)")
    parser.add_argument("--interval", type=float, default=3, help="RSS sampling period, s")
    parser.add_argument("--max-growth", type=float, default=0.2, help="allowed RSS growth")
    parser.add_argument("--connections", type=int, help="wrk connections (default 4 per worker)")
    parser.add_argument(
        "--no-recycle", action="store_true", help="max_requests 0: keep the same workers"
    )
    args = parser.parse_args(argv)
    if wrk.available() is None:
        print("wrk is not installed: apt-get update && apt-get install -y wrk")
        return 2
    return run(args.seconds, args.interval, args.max_growth, args.connections, not args.no_recycle)


if __name__ == "__main__":
    sys.exit(main())
