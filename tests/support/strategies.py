"""Hypothesis strategies for legal winning score requests, built on ``handgen``.

The generator's building blocks take any ``random.Random``-like object, so the strategies
hand them hypothesis' own ``st.randoms()``: every random choice the generator makes is then
drawn by hypothesis (replayable from its database, shrunk towards the first choices), and
the strategies and ``make bench`` cannot drift apart.

    from tests.support.strategies import score_requests

    @given(score_requests())
    def test_scores(request): ...
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from . import handgen

__all__ = ["drawn_requests", "families", "house_rule_requests", "score_requests", "shapes"]


def families(names: frozenset[str] | set[str] | None = None) -> st.SearchStrategy[str]:
    """A hand family (``handgen.FAMILIES``), optionally only among ``names``."""
    chosen = sorted(names) if names else list(handgen.FAMILIES)
    unknown = set(chosen) - set(handgen.FAMILIES)
    if unknown:
        raise ValueError(f"unknown families: {sorted(unknown)}")
    return st.sampled_from(chosen)


def _randoms() -> st.SearchStrategy[Any]:
    # use_true_random=False: the choices are hypothesis' own data, so failures replay.
    return st.randoms(note_method_calls=False, use_true_random=False)


def shapes(names: frozenset[str] | set[str] | None = None) -> st.SearchStrategy[handgen.Shape]:
    """A winning hand's tiles and melds (no win context): ``handgen.Shape``."""
    return st.builds(handgen.draw_shape, _randoms(), families(names))


def drawn_requests(
    names: frozenset[str] | set[str] | None = None,
) -> st.SearchStrategy[handgen.Drawn]:
    """``handgen.Drawn``: family, canonical key and payload of one legal winning request."""
    return st.builds(handgen.draw, _randoms(), families(names))


def score_requests(
    names: frozenset[str] | set[str] | None = None,
) -> st.SearchStrategy[dict[str, Any]]:
    """A POST /v1/score body that is a legal winning hand: it must score (200), never 422."""
    return drawn_requests(names).map(lambda drawn: drawn.payload)


def _with_house_rules(payload: dict[str, Any], rules: dict[str, Any]) -> dict[str, Any]:
    return {**payload, "rules": {**payload.get("rules", {}), **rules}}


def house_rule_requests(
    names: frozenset[str] | set[str] | None = None,
) -> st.SearchStrategy[dict[str, Any]]:
    """A legal winning score request with house rules on top (``handgen.draw_house_rules``):
    it must score too."""
    return st.builds(
        _with_house_rules, score_requests(names), st.builds(handgen.draw_house_rules, _randoms())
    )
