"""One policy for every table of computed values keyed by what clients send: bounded.

Clients choose the keys (a stream of distinct hands reaches every suit's count vector), so a
table that only grows is a memory leak on demand. Each table is emptied when it reaches its
size: a hit costs what a dict look-up costs, and the hands real tables play refill it within
a few hundred requests. Sizes were chosen by measurement (docs/DESIGN.md, "Bounded memory").
"""

from __future__ import annotations

from typing import Final, Generic, TypeVar

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

    def __len__(self) -> int:
        return len(self.table)


class SuitMemo(Memo[int, V]):
    """A ``Memo`` keyed by suit keys (``tiles.FACE_BITS``), with a table of slots in front.

    A look-up in a dict boxes the int key into a new object, probes, and compares the key it
    finds to that object: ~350 instructions, eight times a hand. Here a key first reads its
    slot (the key modulo ``SLOTS``, a prime: it tells structured keys apart as a hash does;
    two lists, keys and values) and compares the key there as an int: no object made, no
    dict probed. The dict behind keeps what the slots do not (another key took the slot),
    and fills the slot again.

    The dict's keys are spread, because a suit key's low bits, where a dict looks first, are
    the counts of its first two faces, which thousands of suits share: each key plus itself
    shifted three ways (still one int per key) spreads the other faces into the low bits.
    """

    __slots__ = ("keys", "values")

    def __init__(self, size: int) -> None:
        super().__init__(size)
        self.keys: list[int] = [-1] * SLOTS
        self.values: list[V | None] = [None] * SLOTS

    def get(self, key: int) -> V | None:
        slot = key % SLOTS
        if self.keys[slot] == key:
            return self.values[slot]
        found = self.table.get(key + (key >> 11) + (key >> 23) + (key >> 37))
        if found is not None:
            self.keys[slot] = key
            self.values[slot] = found
        return found

    def put(self, key: int, value: V) -> V:
        self.keys[key % SLOTS] = key
        self.values[key % SLOTS] = value
        return super().put(key + (key >> 11) + (key >> 23) + (key >> 37), value)

    def cache_clear(self) -> None:
        super().cache_clear()
        self.keys[:] = [-1] * SLOTS
        self.values[:] = [None] * SLOTS


# Slots per table, a prime: 32,749 (~0.5 MB a table, with the keys they box), where bench
# hands hold ~1,500 distinct suits (98% of them in slots of their own) and 20,000 hands not
# seen before ~6,000.
SLOTS: Final = 32_749
