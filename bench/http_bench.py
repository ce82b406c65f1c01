"""HTTP figures against a real gunicorn with the shipped config, on loopback.

(i)   POST /v1/score/batch, 1000 distinct hands per request, ONE worker: hands/s end to end.
(ii)  POST /v1/score vs GET /livez, default worker count, same server, same wrk settings,
      back to back: the share of the bare framework's request rate that scoring keeps.
(iii) p99 of POST /v1/score at half of the throughput measured in (ii), with the open-loop
      fixed-rate client (``bench.fixedrate``), so queueing shows in the tail.

wrk runs with one thread: on a 2-core machine the client takes CPU from the workers, so
every figure here is a lower bound of what the service does on dedicated cores.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from . import fixedrate, handgen, server, wrk

BATCH = 1000  # hands per batch request: the API's maximum


@dataclass
class HttpFigures:
    workers: int
    batch: wrk.Result
    batch_boots: int
    livez: wrk.Result
    score: wrk.Result
    score_boots: int  # workers booted during (ii): recycles show here
    latency: fixedrate.RateFigures
    latency_boots: int

    @property
    def batch_hands_rate(self) -> float:
        return self.batch.rate * BATCH

    @property
    def score_share(self) -> float:
        return self.score.rate / self.livez.rate if self.livez.rate else 0.0


def measure(seconds: float = 12, seed: int = 7) -> HttpFigures:
    hands = handgen.generate(BATCH, seed)
    batch_body = wrk.post_json("/v1/score/batch", {"items": hands})
    score_bodies = [wrk.post_json("/v1/score", hand) for hand in hands]

    with server.gunicorn(workers=1) as one:
        wrk.run(one.url, [batch_body], 2, connections=2)  # warm-up: caches, first imports
        booted = one.boots()
        batch = wrk.run(one.url, [batch_body], seconds, connections=2)
        batch_boots = one.boots() - booted

    with server.gunicorn() as many:
        workers = len(many.workers())
        connections = 4 * workers
        wrk.run(many.url, score_bodies, 2, connections)  # warm-up
        livez = wrk.run(many.url, [wrk.Request("GET", "/livez", "", "")], seconds, connections)
        booted = many.boots()
        score = wrk.run(many.url, score_bodies, seconds, connections)
        score_boots = many.boots() - booted

        raw = [
            fixedrate.raw_request(
                server.HOST, many.port, "POST", "/v1/score", json.dumps(h).encode()
            )
            for h in hands
        ]
        booted = many.boots()
        latency = fixedrate.run(server.HOST, many.port, raw, max(1.0, score.rate / 2), seconds)
        latency_boots = many.boots() - booted
    return HttpFigures(
        workers, batch, batch_boots, livez, score, score_boots, latency, latency_boots
    )
