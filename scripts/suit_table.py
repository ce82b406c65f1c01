"""Makes service/domain/analysis/suits.bin: the distances of every suit the melds leave whole
with at most 14 tiles (``distance.TABLE``), from ``distance.distances``, in ``distance.rank``'s
order.

Usage: ``make suit-table`` (the compiled build counts them in about a minute; the pure build
would take ten).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from pathlib import Path

from service.domain.analysis import distance

OUT = Path(__file__).resolve().parents[1] / "service" / "domain" / "analysis" / distance.FILE


def suits(places: int, left: int = distance.TABLED) -> Iterator[list[int]]:
    """Every suit's counts with at most ``left`` tiles, in ``rank``'s order."""
    if places == 0:
        yield []
        return
    for count in range(min(4, left) + 1):
        for rest in suits(places - 1, left - count):
            yield [count, *rest]


def packed(counts: list[int]) -> int:
    found = distance.distances(counts, [4] * len(counts), len(counts) == 9)
    return sum(min(value, 15) << 4 * index for index, value in enumerate(found))


def main() -> None:
    table = array("Q")
    for places in (9, 7):
        for number, counts in enumerate(suits(places)):
            assert distance.rank(counts) == number
            table.append(packed(counts))
    OUT.write_bytes(table.tobytes())
    print(f"{OUT}: {len(table):,} suits, {OUT.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
