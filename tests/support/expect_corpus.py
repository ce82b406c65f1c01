"""A fixed corpus of expected-score questions and their answers, kept to hold the search to
what it answered before it was made faster (issue: the expected score at native speed).

200 /v1/discards hands, 50 at each shanten 0-3 (a hand that already wins counts with the
ready ones), with and without melds, each asked one way in turn: both objectives, with and
without discard wins, 6, 10 or 17 draws left. The answers are the domain's figures at full
precision (``analysis.discards`` with the default budget), and how the request's search
went. ``python -m tests.support.expect_corpus`` writes them again: only on purpose, when an
answer is meant to change, and said so in the changelog.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from service.domain.analysis.analysis import discards
from service.domain.analysis.expectation import Model
from service.domain.errors import ScoringError
from service.domain.rules import tiles as t
from service.request import WaitsRequestSchema, loader

from . import handgen

CORPUS = Path(__file__).parent.parent / "golden" / "expect_corpus.json"
PER_SHANTEN = 50
SEED = 20_261_128
_OBJECTIVES = ("expected_score", "win_probability")
_RATES = (0.0, 0.4)
_DRAWS = (6, 10, 17)
_WAITS = loader(WaitsRequestSchema())


def questions() -> list[dict[str, Any]]:
    """The corpus' /v1/discards bodies with ``expect``, the same every time."""
    rng = random.Random(SEED)
    found: dict[int, list[dict[str, Any]]] = {s: [] for s in range(4)}
    while any(len(bodies) < PER_SHANTEN for bodies in found.values()):
        kind = rng.choice(("near_ready", "melds"))
        body = handgen.draw_analysis(rng, kind)
        held = t.parse(body["hand"]["tiles"])
        for _ in range(rng.randrange(5)):
            held[rng.randrange(len(held))] = rng.randrange(34)
        body["hand"]["tiles"] = t.compact(sorted(held))
        try:
            shanten = max(0, _answer(body, None)["shanten"])
        except ValueError:
            continue  # a fifth copy
        if shanten in found and len(found[shanten]) < PER_SHANTEN:
            found[shanten].append(body)
    asked = []
    for index, body in enumerate(b for s in range(4) for b in found[s]):
        body["expect"] = {
            "objective": _OBJECTIVES[index % 2],
            "discard_rate": _RATES[index // 2 % 2],
            "draws_left": _DRAWS[index % 3],
        }
        asked.append(body)
    return asked


def model_of(body: dict[str, Any]) -> Model:
    expect = body["expect"]
    return Model(expect["draws_left"], expect["discard_rate"], expect["objective"])


def answer(body: dict[str, Any]) -> dict[str, Any]:
    """The domain's answer to one question, at full precision."""
    return _answer(body, model_of(body))


def _answer(body: dict[str, Any], model: Model | None) -> dict[str, Any]:
    plain = {key: value for key, value in body.items() if key != "expect"}
    request = _WAITS.load(plain)
    try:
        shanten, found, expectation = discards(
            request["hand"], request["win"], request["rules"], request["visible"], model
        )
    except ScoringError as error:  # a fifth copy: no question
        raise ValueError(str(error)) from None
    return {
        "shanten": shanten,
        "discards": [
            {
                "tile": t.compact([d.tile]),
                "shanten": d.analysis.shanten,
                "figures": None
                if d.expected is None
                else [
                    d.expected.win_probability,
                    d.expected.ready_probability,
                    d.expected.expected_score,
                    d.expected.self_draw,
                    d.expected.discard,
                ],
            }
            for d in found
        ],
        "search": None
        if expectation is None
        else {
            "states": expectation.states,
            "exhaustive": expectation.exhaustive,
            "limited": expectation.limited,
        },
    }


def main() -> None:
    corpus = [{"body": body, "answer": answer(body)} for body in questions()]
    CORPUS.write_text(json.dumps(corpus, indent=0, sort_keys=True) + "\n")
    print(f"{len(corpus)} questions written to {CORPUS}", file=sys.stderr)


if __name__ == "__main__":
    main()
