"""The decomposer on the hands where readings are easy to get wrong."""

from __future__ import annotations

import itertools

import pytest

from bench import engine_bench
from service.domain.memo import SUIT_SLOTS, IntMemo, SlotMemo
from service.domain.rules import tiles as t
from service.domain.rules.decompose import _READINGS, _suit_readings, arrangements, is_winning
from service.domain.rules.hand import _LEGAL, Hand, Meld, MeldSpec, _declared, declared_melds


def readings(tiles: str, winning: str, on_discard: bool = False) -> list[str]:
    """Each arrangement as text: its sets, its pair or pairs, and its form."""
    found = []
    for arrangement in arrangements(t.read_held(tiles), (), t.parse(winning)[0], on_discard):
        sets = " ".join(t.compact(meld.tiles) for meld in arrangement.sets)
        pair = t.compact([arrangement.pair] * 2) if arrangement.pair >= 0 else ""
        found.append(f"{arrangement.form}: {sets} {pair}".strip())
    return found


def test_pairs_in_several_suits_are_seven_pairs_only() -> None:
    # 567m 567m + 33z would leave 22m 33p 11s over: four suits read with a pair each.
    assert readings("22556677m33p11s33z", "3z") == ["seven_pairs:"]


def test_identical_sequences_or_seven_pairs() -> None:
    assert readings("22223344556677p", "7p") == [
        "standard: 234p 234p 567p 567p 22p",
        "seven_pairs:",
    ]


def test_nine_gates_reads_one_way() -> None:
    assert readings("11123455678999m", "5m") == ["standard: 111m 234m 678m 999m 55m"]


def test_triplets_or_sequences_first_triplets() -> None:
    assert readings("11122233344455s", "5s") == [
        "standard: 111s 222s 333s 444s 55s",
        "standard: 111s 234s 234s 234s 55s",
        "standard: 111s 234s 345s 345s 22s",
        "standard: 123s 123s 123s 444s 55s",
    ]


def test_on_a_discard_each_set_the_tile_may_complete_is_a_reading() -> None:
    # 3s completes 333s (then exposed) or a 123s chow.
    found = arrangements(t.read_held("11122233344455s"), (), t.parse("3s")[0], True)
    completed = {
        (t.compact(a.sets[a.winning].tiles), a.sets[a.winning].concealed)
        for a in found
        if a.winning is not None
    }
    assert ("333s", False) in completed and ("123s", False) in completed


def test_thirteen_terminals() -> None:
    assert readings("19m19p19s12345677z", "7z") == ["thirteen_terminals:"]


@pytest.mark.parametrize(
    ("tiles", "melds", "expected"),
    [
        ("11123456789999m", 0, True),
        ("123456789m11234z", 0, False),
        ("189m19p19s1234567z", 0, False),
        ("22556677m33p11s33z", 0, True),  # seven pairs only
        ("22556677m33p11s34z", 0, False),
        ("22m", 4, True),
        ("2255m", 3, False),  # two pairs with a meld: not seven pairs
    ],
)
def test_is_winning(tiles: str, melds: int, expected: bool) -> None:
    assert is_winning(t.counts(tuple(t.parse(tiles))), melds) is expected


def test_declared_melds_sort_by_their_codes_as_by_kind_tile_and_concealment() -> None:
    # declared_melds sorts melds by their codes: the order must be Meld.order's.
    legal = list(_LEGAL.values())
    assert sorted(legal, key=Meld.order) == sorted(legal, key=lambda meld: meld.code)
    assert len({meld.code for meld in legal}) == len(legal) == 123
    # In whatever order a client lists them, two to four melds come out in Meld.order's.
    for count in (2, 3, 4):
        melds = legal[7 : 7 + 29 * count : 29]
        for listed in itertools.permutations(melds):
            assert list(_declared(listed)) == sorted(melds, key=Meld.order)


def test_suit_tables_keep_two_keys_that_share_a_slot() -> None:
    """A suit table (``memo.SlotMemo``) gives a key its slot and the place after it: two keys
    whose slots are one both keep their values, a third takes the older one's place, and
    the table never holds more than its places."""
    memo: SlotMemo[str] = SlotMemo(SUIT_SLOTS)
    first = t.suit_keys(tuple(t.parse("1123m")))[0]
    second, third = first + SUIT_SLOTS, first + 2 * SUIT_SLOTS
    memo.put(first, "first")
    memo.put(second, "second")  # takes the slot: the first moves to the next place
    assert (memo.get(first), memo.get(second), memo.get(first + 1)) == ("first", "second", None)
    memo.put(third, "third")  # the second moves on, over the first
    assert (memo.get(first), memo.get(second), memo.get(third)) == (None, "second", "third")
    assert len(memo) == 2
    for key in range(3 * SUIT_SLOTS):
        memo.put(key, "more")
    assert len(memo) == SUIT_SLOTS + 1  # every slot, and the place after the last
    memo.cache_clear()
    assert len(memo) == 0 and memo.get(third) is None


def test_small_tables_keep_keys_that_share_a_slot() -> None:
    """A table of ``memo.IntMemo`` (a pattern's hits, rule sets) reads a key's slot first and
    its dict behind it: keys whose slots are one find their own values, within the table's
    bound, and none after it is emptied."""
    memo: IntMemo[str] = IntMemo(3, SUIT_SLOTS)
    first = t.suit_keys(tuple(t.parse("1123m")))[0]
    rival = first + SUIT_SLOTS
    memo.put(first, "first")
    memo.put(rival, "rival")  # takes the slot
    assert (memo.get(first), memo.get(rival), memo.get(first)) == ("first", "rival", "first")
    assert memo.get(first + 1) is None
    for key in (first + 2, first + 3):  # the table holds three: emptied at the fourth
        memo.put(key, "more")
    assert len(memo) == 1 and memo.get(first + 3) == "more"
    memo.cache_clear()
    assert len(memo) == 0 and memo.get(first) is memo.get(first + 3) is None


def test_the_legal_melds_are_a_table_that_clearing_caches_leaves_whole() -> None:
    # The engine benchmark clears every cache it finds (``cache_clear``) to start cold: the
    # legal melds are a complete table, not a cache, and a declared meld is still found.
    for _, cached in engine_bench.service_caches():
        cached.cache_clear()
    assert len(_LEGAL) == 123
    (meld,) = declared_melds(
        Hand((0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9), (MeldSpec("pung", (27,) * 3),))
    )
    assert (meld.kind, meld.tile, meld.declared) == ("pung", 27, True)


def test_every_cache_the_engine_benchmark_clears_says_how_many_entries_it_holds() -> None:
    # ``make bench`` reports each cache's size after its warm passes: a cache with
    # ``cache_clear`` and neither ``cache_info`` nor a length stopped it at its first table.
    for name, cached in engine_bench.service_caches():
        assert engine_bench._entries(cached) >= 0, name


def test_the_readings_table_holds_every_suit_as_the_search_reads_it() -> None:
    # Every suit a hand may hold (1 to 14 tiles, at most four of a face), numbers and
    # honours: the table built at start gives the readings the search of its splits finds,
    # in its order (which decides ties), and no entry for a suit that reads no way.
    known: dict[int, tuple[int, ...]] = {}
    suits = 0
    for runs, faces in ((True, 9), (False, 7)):
        for counts in itertools.product(range(5), repeat=faces):
            if 0 < sum(counts) <= 14:
                key = sum(n << t.FACE_BITS * face for face, n in enumerate(counts))
                searched = _suit_readings(key, runs, known)
                assert _READINGS.get(key << 1 | runs, ()) == searched
                suits += 1
    assert suits == 448_478 and len(_READINGS) == 22_239
