"""The benchmark's hand generator makes what it promises: legal, winning, distinct, repeatable.

If a generated request stopped scoring, the benchmark would be timing error paths, and the
property tests built on ``tests.support.strategies`` would be testing nothing.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings

from service import engine

from .support import handgen
from .support.strategies import score_requests, shapes

N = 2000


@pytest.fixture(scope="module")
def drawn() -> list[handgen.Drawn]:
    return handgen.generate_labelled(N, seed=0)


def test_every_generated_request_scores(drawn: list[handgen.Drawn]) -> None:
    forms: Counter[str] = Counter()
    for item in drawn:
        response = engine.score(item.payload)  # raises Problem if illegal or not winning
        forms[response["hand"]["form"]] += 1
        assert sum(response["payments"].values()) == 0
    assert set(forms) == {"standard", "seven_pairs", "thirteen_terminals"}


def test_distinct_and_counted(drawn: list[handgen.Drawn]) -> None:
    assert len(drawn) == N
    assert len({item.key for item in drawn}) == N


def test_deterministic_for_a_seed() -> None:
    assert handgen.generate(200, seed=7) == handgen.generate(200, seed=7)
    assert handgen.generate(200, seed=7) != handgen.generate(200, seed=8)


def test_mix_covers_every_family_and_is_pattern_rich(drawn: list[handgen.Drawn]) -> None:
    families = Counter(item.family for item in drawn)
    assert set(families) == set(handgen.FAMILIES)
    rich = sum(n for family, n in families.items() if family in handgen.PATTERN_RICH)
    assert rich >= 0.2 * N


def test_tile_counts_and_contexts_are_legal(drawn: list[handgen.Drawn]) -> None:
    seen_flags: Counter[str] = Counter()
    for item in drawn:
        hand, win = item.payload["hand"], item.payload["win"]
        melds = hand.get("melds", [])
        tiles = hand["tiles"]
        held = len(tiles) if isinstance(tiles, list) else sum(c.isdigit() for c in tiles)
        assert held + 3 * len(melds) == 14
        if win["by"] == "discard":
            assert win["discarder"] != win["seat"]
        else:
            assert "discarder" not in win
        for flag in ("kong_replacement", "robbing_kong", "first_turn", "last_tile"):
            seen_flags[flag] += bool(win.get(flag))
        if win.get("kong_replacement"):
            assert win["by"] == "self_draw"
            assert any(meld["kind"] == "kong" for meld in melds)
        if win.get("first_turn"):
            assert not melds and not win.get("last_tile")
        if win.get("robbing_kong"):
            assert win["by"] == "discard" and not win.get("last_tile")
    assert all(seen_flags[flag] > 0 for flag in seen_flags)


def test_shapes_never_exceed_four_copies() -> None:
    rng = random.Random(3)
    for _ in range(2000):
        shape = handgen.draw_shape(rng)
        assert max(shape.counts()) <= 4
        assert shape.winning_tile in shape.concealed
        assert len(shape.concealed) + 3 * len(shape.melds) == 14


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(score_requests())
def test_strategy_requests_score(request: dict) -> None:  # type: ignore[type-arg]
    engine.score(request)


@settings(max_examples=50, deadline=None)
@given(shapes({"nine_gates", "seven_pairs", "thirteen_terminals"}))
def test_strategy_shapes_of_irregular_families(shape: handgen.Shape) -> None:
    assert shape.family in {"nine_gates", "seven_pairs", "thirteen_terminals"}
    assert not shape.melds
