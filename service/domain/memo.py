"""One policy for every table of computed values keyed by what clients send: bounded.

Clients choose the keys (a stream of distinct hands reaches every suit's count vector), so a
table that only grows is a memory leak on demand. A table with a dict is emptied when it
reaches its size: a hit costs what a dict look-up costs, and the hands real tables play
refill it within a few hundred requests; a table of slots alone (``SlotMemo``) replaces an
older key with a newer. Sizes were chosen by measurement (docs/DESIGN.md, "Bounded memory").
"""

from __future__ import annotations

from collections.abc import ValuesView
from typing import Final, Generic, TypeVar

from librt.vecs import vec
from mypy_extensions import i64

K = TypeVar("K")
V = TypeVar("V")


class Memo(Generic[K, V]):
    """Computed values by key, at most ``size`` of them."""

    __slots__ = ("size", "table")

    def __init__(self, size: int) -> None:
        self.size = size
        self.table: dict[K, V] = {}

    def get(self, key: K) -> V | None:
        return self.table.get(key)

    def put(self, key: K, value: V) -> V:
        if len(self.table) >= self.size:
            self.table.clear()
        self.table[key] = value
        return value

    def cache_clear(self) -> None:
        """As ``functools`` caches have it, so that benchmarks can start cold."""
        self.table.clear()

    def values(self) -> ValuesView[V]:
        return self.table.values()

    def __len__(self) -> int:
        return len(self.table)


class IntMemo(Memo[int, V]):
    """A ``Memo`` keyed by ints, with a table of slots in front of its dict.

    A look-up in a dict boxes the int key into a new object, probes, and compares the key it
    finds to that object: ~350 instructions, for each rule set and pattern hit a hand reads.
    Here a key (from 0 to 2^63 - 1) first reads its slot (the key modulo ``slots``, a prime:
    it tells structured keys apart as a hash does; the keys in a vector of machine words, the
    values in a list) and compares the key there: no object made, no dict probed. The dict
    keeps what the slots do not (another key took the slot), and fills the slot again.
    """

    __slots__ = ("slot_keys", "slot_values", "slots")

    def __init__(self, size: int, slots: int) -> None:
        super().__init__(size)
        self.slots: Final[i64] = slots
        # Unboxed: compiled, a slot's key is read and compared as a machine word.
        self.slot_keys = vec[i64]([-1] * slots)
        self.slot_values: list[V | None] = [None] * slots

    def get(self, key: int) -> V | None:
        word: i64 = key
        slot = word % self.slots
        if self.slot_keys[slot] == word:
            return self.slot_values[slot]
        found = self.table.get(key)
        if found is not None:
            self.slot_keys[slot] = word
            self.slot_values[slot] = found
        return found

    def put(self, key: int, value: V) -> V:
        word: i64 = key
        slot = word % self.slots
        self.slot_keys[slot] = word
        self.slot_values[slot] = value
        return super().put(key, value)

    def cache_clear(self) -> None:
        super().cache_clear()
        self.slot_keys = vec[i64]([-1] * self.slots)
        self.slot_values[:] = [None] * self.slots


class SlotMemo(Generic[V]):
    """Computed values by int key (from 0 to 2^63 - 1), at most ``slots`` of them, in a fixed
    table with no dict: for tables whose keys in use are few beside their slots (suits,
    payments, a plan's series' subsets).

    A key has two places: its slot (as ``IntMemo``'s) and the one after it. A key put where
    another is moves that one to the next place, over what was there: the older of two keys
    sharing a slot goes first. Nothing is boxed, probed or emptied: a hand not seen before
    puts a suit not seen before about once in four, and where ``IntMemo`` puts it in its
    dict too (which grows, and is emptied when full), this writes two places. A pattern's
    hits and the rule sets keep ``IntMemo``: in as many slots alone, their hits fell.
    """

    __slots__ = ("keys", "slots", "values")

    def __init__(self, slots: int) -> None:
        self.slots: Final[i64] = slots
        self.keys = vec[i64]([-1] * (slots + 1))  # one place more: a slot's next never wraps
        self.values: list[V | None] = [None] * (slots + 1)

    def get(self, key: int) -> V | None:
        word: i64 = key
        slot = word % self.slots
        if self.keys[slot] == word:
            return self.values[slot]
        if self.keys[slot + 1] == word:
            return self.values[slot + 1]
        return None

    def put(self, key: int, value: V) -> V:
        word: i64 = key
        slot = word % self.slots
        held = self.keys[slot]
        if held != word and held >= 0:
            self.keys[slot + 1] = held
            self.values[slot + 1] = self.values[slot]
        self.keys[slot] = word
        self.values[slot] = value
        return value

    def cache_clear(self) -> None:
        """As ``functools`` caches have it, so that benchmarks can start cold."""
        self.keys = vec[i64]([-1] * (self.slots + 1))
        self.values = [None] * (self.slots + 1)

    def __len__(self) -> int:
        return sum([1 for key in self.keys if key >= 0])


class IntTable(IntMemo[V]):
    """An ``IntMemo`` given, once, every key it will be asked for (``hand._LEGAL``): a table,
    not a cache, which nothing empties (benchmarks that clear every cache to start cold
    would leave the domain without it)."""

    __slots__ = ()

    def cache_clear(self) -> None:
        """Nothing to clear: the table is complete."""


# The slots of a table keyed by suits (decompositions, written suits), a prime: 32,749
# (a fixed ~0.5 MB a table, and at most as many suits' values), where 20,000 hands not seen
# before hold ~6,000 distinct suits. 20,011 slots met fewer of them (~100 instructions a
# new hand more).
SUIT_SLOTS: Final = 32_749
