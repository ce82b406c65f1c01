"""HTTP figures against a real gunicorn with the shipped config, on loopback.

(i)   POST /v1/score/batch, 1000 distinct hands per request, ONE worker: hands/s end to end.
(ii)  POST /v1/score vs GET /livez, default worker count, same server, same wrk settings,
      back to back: the share of the bare framework's request rate that scoring keeps; and
      POST /v1/score against GET /livez on a server of the same build with gunicorn's plain
      *sync* workers (one connection per request, the model before service.worker): what the
      serving model gains. Each round runs the three back to back, ``ROUNDS`` rounds
      interleaved, medians reported: on a shared VM one run can be off by 20%, which a single
      ratio would take for the truth.
(iii) p50/p99 of POST /v1/score at half of the throughput measured in (ii), with the open-loop
      fixed-rate client (``bench.fixedrate``), so queueing shows in the tail; then the same
      while two connections loop 1000-hand batches on the same server.
(iv)  Where the rest of livez's rate goes: on a server of the service plus the floor routes of
      ``bench.floor``, the same bodies answered with their precomputed responses (the HTTP
      exchange alone), then also parsed and validated, then scored, each as a share of that
      server's livez, ``FLOOR_ROUNDS`` interleaved rounds.

wrk runs with one thread: on a 2-core machine the client takes CPU from the workers, so
every figure here is a lower bound of what the service does on dedicated cores.
"""

from __future__ import annotations

import json
import statistics
import threading
from dataclasses import dataclass

from tests.support import handgen

from . import fixedrate, server, wrk

BATCH = 1000  # hands per batch request: the API's maximum
ROUNDS = 5  # livez/score pairs in (ii): a median of five rides out one slow minute
FLOOR_ROUNDS = 3
# (iv): what each route does beyond GET /livez, in the order they are run in each round.
FLOOR_STEPS = (
    ("/bench/answer", "POST read, precomputed response"),
    ("/bench/validate", "+ body parsed and validated"),
    ("/v1/score", "+ scored and rendered: POST /v1/score"),
)


@dataclass
class HttpFigures:
    workers: int
    batch: wrk.Result
    batch_boots: int
    pairs: list[tuple[wrk.Result, wrk.Result]]  # (livez, score), one per round of (ii)
    sync_livez: list[wrk.Result]  # GET /livez on sync workers, one per round of (ii)
    score_boots: int  # workers booted during (ii): recycles show here
    latency: fixedrate.RateFigures
    latency_with_batches: fixedrate.RateFigures
    batches_beside: wrk.Result  # the batches looping during latency_with_batches
    latency_boots: int
    floor: dict[str, list[float]]  # (iv): path -> its shares of livez, one per round

    @property
    def batch_hands_rate(self) -> float:
        return self.batch.rate * BATCH

    @property
    def shares(self) -> list[float]:
        return [score.rate / livez.rate if livez.rate else 0.0 for livez, score in self.pairs]

    @property
    def score_share(self) -> float:
        return statistics.median(self.shares)

    @property
    def over_sync(self) -> float:
        """POST /v1/score on the shipped server over GET /livez on sync workers (medians)."""
        sync = _median_run(self.sync_livez).rate
        return self.score.rate / sync if sync else 0.0

    @property
    def livez(self) -> wrk.Result:
        return _median_run([livez for livez, _ in self.pairs])

    @property
    def score(self) -> wrk.Result:
        return _median_run([score for _, score in self.pairs])


def _median_run(runs: list[wrk.Result]) -> wrk.Result:
    return sorted(runs, key=lambda run: run.rate)[len(runs) // 2]


def measure(seconds: float = 12, seed: int = 7) -> HttpFigures:
    hands = handgen.generate(BATCH, seed)
    batch_body = wrk.post_json("/v1/score/batch", {"items": hands})
    score_bodies = [wrk.post_json("/v1/score", hand) for hand in hands]

    with server.gunicorn(workers=1) as one:
        wrk.run(one.url, [batch_body], 2, connections=2)  # warm-up: caches, first imports
        booted = one.boots()
        batch = wrk.run(one.url, [batch_body], seconds, connections=2)
        batch_boots = one.boots() - booted

    with server.gunicorn() as many, server.gunicorn(extra=["--worker-class", "sync"]) as sync:
        workers = len(many.workers())
        # Persistent connections stay with the worker that took them: with few, one worker
        # may hold most of them; 8 a worker keeps the share even (as in issue #14's runs).
        connections = 8 * workers
        wrk.run(many.url, score_bodies, 2, connections)  # warm-up
        livez_request = [wrk.Request("GET", "/livez", "", "")]
        booted = many.boots()
        pairs = []
        sync_livez = []
        for _ in range(ROUNDS):
            sync_livez.append(wrk.run(sync.url, livez_request, seconds / 2, connections))
            pairs.append(
                (
                    wrk.run(many.url, livez_request, seconds / 2, connections),
                    wrk.run(many.url, score_bodies, seconds / 2, connections),
                )
            )
        score_boots = many.boots() - booted
        score = _median_run([score for _, score in pairs])

        raw = [
            fixedrate.raw_request(
                server.HOST, many.port, "POST", "/v1/score", json.dumps(h).encode()
            )
            for h in hands
        ]
        booted = many.boots()
        half = max(1.0, score.rate / 2)
        latency = fixedrate.run(server.HOST, many.port, raw, half, seconds)
        beside: list[wrk.Result] = []
        batches = threading.Thread(
            target=lambda: beside.append(wrk.run(many.url, [batch_body], seconds + 1, 2))
        )
        batches.start()
        with_batches = fixedrate.run(server.HOST, many.port, raw, half, seconds)
        batches.join()
        latency_boots = many.boots() - booted
    floor = _floor(seed, score_bodies, seconds / 2)
    return HttpFigures(
        workers,
        batch,
        batch_boots,
        pairs,
        sync_livez,
        score_boots,
        latency,
        with_batches,
        beside[0],
        latency_boots,
        floor,
    )


def _floor(seed: int, score_bodies: list[wrk.Request], seconds: float) -> dict[str, list[float]]:
    shares: dict[str, list[float]] = {path: [] for path, _ in FLOOR_STEPS}
    requests = {path: [wrk.Request("POST", path, r.body) for r in score_bodies] for path in shares}
    livez_request = [wrk.Request("GET", "/livez", "", "")]
    with server.gunicorn(app=f"bench.floor:create_app({BATCH}, {seed})") as srv:
        connections = 4 * len(srv.workers())
        wrk.run(srv.url, score_bodies, 2, connections)  # warm-up
        for _ in range(FLOOR_ROUNDS):
            livez = wrk.run(srv.url, livez_request, seconds, connections)
            for path, bodies in requests.items():
                run = wrk.run(srv.url, bodies, seconds, connections)
                if run.s2xx != run.requests or run.socket_errors:
                    raise RuntimeError(f"{path}: not every request answered 2xx: {run}")
                shares[path].append(run.rate / livez.rate if livez.rate else 0.0)
    return shares
