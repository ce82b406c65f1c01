"""Tile notation, canonical strings and glyphs."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.domain.rules import tiles as t


def test_kinds_follow_mpsz() -> None:
    assert t.parse("19m19p19s1234567z") == [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]


def test_list_form_and_spaces() -> None:
    assert t.parse(["1m", "5z"]) == t.parse("1m 5z") == [0, 31]


def test_canonical_compact_form_sorts_and_groups() -> None:
    assert t.compact(t.parse("777z 55s4s23s 789p 123m")) == "123m789p23455s777z"
    assert t.compact([]) == ""


def test_glyphs_follow_the_unicode_block_not_mpsz() -> None:
    # The block runs winds, Red, Green, White, then characters, bamboo, circles.
    assert t.glyphs(t.parse("1m9m")) == "\U0001f007\U0001f00f"
    assert t.glyphs(t.parse("1p9p")) == "\U0001f019\U0001f021"
    assert t.glyphs(t.parse("1s9s")) == "\U0001f010\U0001f018"
    assert t.glyphs(t.parse("1234z")) == "\U0001f000\U0001f001\U0001f002\U0001f003"
    assert t.glyphs(t.parse("5z6z7z")) == "\U0001f006\U0001f005\U0001f004"  # White Green Red


def test_names() -> None:
    assert [t.name(x) for x in t.parse("3m9p1s1z7z")] == [
        "3 Characters", "9 Circles", "1 Bamboo", "East", "Red"
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0m", "'0m' at character 1 is not a tile: m takes 1-9"),
        ("123m8z", "'8z' at character 5 is not a tile: z takes 1-7"),
        ("12x", "cannot read '12x' at character 1"),
        ("123m 45", "cannot read '45' at character 6"),
    ],
)
def test_malformed_notation_says_where(text: str, message: str) -> None:
    with pytest.raises(t.TileError, match=message.replace("(", r"\(")):
        t.parse(text)


def test_a_long_bad_value_is_quoted_short() -> None:
    with pytest.raises(t.TileError) as error:
        t.parse(["x" * 10_000])
    assert len(str(error.value)) < 200


@settings(max_examples=500, deadline=None)
@given(st.lists(st.integers(0, t.KINDS - 1), min_size=1, max_size=18))
def test_a_hand_is_written_from_its_suit_keys_as_compact_and_glyphs_write_it(
    tiles: list[int],
) -> None:
    # At most four of a kind, as in any hand the service writes; most suits are new to the
    # table of written suits, so each is written from its key.
    held = tuple(tile for tile in tiles if tiles.count(tile) <= 4)
    assert t.written(t.suit_keys(held)) == (t.compact(held), t.glyphs(held))


@settings(max_examples=500, deadline=None)
@given(st.lists(st.integers(0, t.KINDS - 1), max_size=18))
def test_a_tally_counts_each_tile_in_its_suit_key_and_its_mask(tiles: list[int]) -> None:
    # Counted in native ints when compiled: every tile, the dragons (bits 31 to 33) included.
    keys = tuple(
        suit << t.SUIT_SHIFT
        | sum(
            tiles.count(tile) << t.FACE_BITS * (tile % 9)
            for tile in range(9 * suit, 9 * suit + 9)
            if tile < t.KINDS
        )
        for suit in range(4)
    )
    assert t.tally(tuple(tiles)) == (*keys, sum(1 << tile for tile in set(tiles)))
