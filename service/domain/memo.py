"""One policy for every table of computed values keyed by what clients send: bounded.

Clients choose the keys (a stream of distinct hands reaches every suit's count vector), so a
table that only grows is a memory leak on demand. Each table is emptied when it reaches its
size: a hit costs what a dict look-up costs, and the hands real tables play refill it within
a few hundred requests. Sizes were chosen by measurement (docs/DESIGN.md, "Bounded memory").
"""

from __future__ import annotations

from typing import Generic, TypeVar

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
    """A ``Memo`` keyed by suit keys (``tiles.FACE_BITS``), spread before they are looked up.

    A dict finds an int key at the slot its low bits name. A suit key's low bits are the
    counts of its first two faces, which thousands of suits share: a look-up probed six
    slots on average (measured on bench hands). Each key plus itself shifted three ways
    (still one int per key: the sum only grows with the key) spreads the other faces into
    the low bits, and a look-up probes two.
    """

    __slots__ = ()

    def get(self, key: int) -> V | None:
        return self.table.get(key + (key >> 11) + (key >> 23) + (key >> 37))

    def put(self, key: int, value: V) -> V:
        return super().put(key + (key >> 11) + (key >> 23) + (key >> 37), value)
