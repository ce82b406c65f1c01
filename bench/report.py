"""Plain-text tables for the benchmark's and the load run's figures."""

from __future__ import annotations

import os
from collections.abc import Sequence


def table(title: str, header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    size = len(header)
    cells = [[str(x) for x in row] + [""] * (size - len(row)) for row in [header, *rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(size)]

    def line(row: Sequence[str]) -> str:
        return "  ".join(
            cell.ljust(width) if i == 0 else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        ).rstrip()

    rule = "-" * len(line(cells[0]))
    return "\n".join([f"\n{title}", rule, line(cells[0]), rule, *map(line, cells[1:]), rule])


def rate(value: float) -> str:
    return f"{value:,.0f}/s"


def verdict(ok: bool) -> str:
    return "meets" if ok else "BELOW"


def build() -> str:
    """Which build of the service is measured: compiled (mypyc, as shipped) or pure Python."""
    import service
    from service.domain.scoring import scoring

    compiled = scoring.__file__ is not None and not scoring.__file__.endswith(".py")
    kind = "compiled with mypyc (as in the image)" if compiled else "pure Python"
    return f"service: {kind}, from {service.__file__}"


def machine() -> str:
    """What the figures depend on: cores and how busy the machine already was."""
    load1, load5, _ = os.getloadavg()
    cores = len(os.sched_getaffinity(0))
    note = "" if load1 < 0.5 else "  (other work is running: figures are pessimistic)"
    return (
        f"machine: {cores} cores usable, load average {load1:.2f} (1 min), {load5:.2f} (5 min)"
        + note
    )
