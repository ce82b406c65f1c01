"""The expected score's answers held to a fixed corpus (tests/support/expect_corpus.py): 200
hands at 0-3 shanten, both objectives, with and without discard wins and melds, answered by
the search as it was before it was made faster.

Where a request was searched exhaustively, every figure is the model's optimum and must stay
equal (to 1e-9). Where it was bounded, the figures are a lower bound for the same budget: a
faster search may find more, never less, and must not search fewer requests exhaustively.
The compiled build (the one shipped, and the one the speed work is for) answers all 200; the
interpreted build, twenty times slower, the ready and one-from-ready hands with fewer than
17 draws left.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from service.domain.analysis import expectation

from .support import expect_corpus

COMPILED = Path(expectation.__file__).suffix != ".py"
CORPUS: list[dict[str, Any]] = json.loads(expect_corpus.CORPUS.read_text())
ASKED = [
    case
    for case in CORPUS
    if COMPILED or (case["answer"]["shanten"] <= 1 and case["body"]["expect"]["draws_left"] < 17)
]


def test_the_corpus_holds_what_it_says() -> None:
    """Every kind of question it promises; drawn again, the same questions (compiled: the
    interpreted build takes half a minute to draw them)."""
    if COMPILED:
        assert [case["body"] for case in CORPUS] == expect_corpus.questions()
    shanten = [max(0, case["answer"]["shanten"]) for case in CORPUS]
    assert [shanten.count(s) for s in range(4)] == [50] * 4
    bodies = [case["body"] for case in CORPUS]
    assert any(b["hand"].get("melds") for b in bodies)
    assert any(not b["hand"].get("melds") for b in bodies)
    assert {b["expect"]["objective"] for b in bodies} == {"expected_score", "win_probability"}
    assert {b["expect"]["discard_rate"] for b in bodies} == {0.0, 0.4}


@pytest.mark.parametrize(
    "case", ASKED, ids=[f"{i}-{c['body']['hand']['tiles']}" for i, c in enumerate(ASKED)]
)
def test_the_search_answers_as_before(case: dict[str, Any]) -> None:
    before = case["answer"]
    now = expect_corpus.answer(case["body"])
    assert now["shanten"] == before["shanten"]
    assert [d["tile"] for d in now["discards"]] == [d["tile"] for d in before["discards"]]
    exhaustive = before["search"]["exhaustive"]
    if exhaustive:
        assert now["search"]["exhaustive"]
    objective = 0 if case["body"]["expect"]["objective"] == "win_probability" else 2
    for was, is_ in zip(before["discards"], now["discards"], strict=True):
        if was["figures"] is None:
            continue
        assert is_["figures"] is not None, was["tile"]
        if exhaustive:
            assert is_["figures"] == pytest.approx(was["figures"], abs=1e-9), was["tile"]
        else:
            assert is_["figures"][objective] >= was["figures"][objective] - 1e-9, was["tile"]
