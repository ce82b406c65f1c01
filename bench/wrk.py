"""Drive ``wrk`` (Debian package ``wrk``) with a list of requests and read back its figures.

wrk is a C load generator: one of its threads saturates a Python server with little CPU, which
matters on a 2-core machine where the client competes with the workers. ``requests.lua``
cycles through the requests written here and prints a JSON summary line with status-class
counts (wrk's own summary lumps every non-2xx/3xx together as "errors").
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCRIPT = Path(__file__).with_name("requests.lua")


@dataclass(frozen=True)
class Request:
    """One HTTP request for wrk to send (the body is JSON text or raw text, no newline)."""

    method: str
    path: str
    body: str = ""
    content_type: str = "application/json"

    def line(self) -> str:
        if "\n" in self.body or "\t" in self.body:
            raise ValueError("wrk request bodies must be one line without tabs")
        return "\t".join((self.method, self.path, self.content_type or "-", self.body))


def post_json(path: str, payload: Any) -> Request:
    return Request("POST", path, json.dumps(payload, ensure_ascii=False, separators=(",", ":")))


@dataclass(frozen=True)
class Result:
    """wrk's figures for one run."""

    requests: int
    seconds: float
    connect: int
    read: int
    write: int
    timeout: int
    s2xx: int
    s3xx: int
    s4xx: int
    s5xx: int
    sother: int
    p50_ms: float
    p90_ms: float
    p99_ms: float
    max_ms: float

    @property
    def rate(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    @property
    def socket_errors(self) -> int:
        return self.connect + self.read + self.write + self.timeout


def available() -> str | None:
    return shutil.which("wrk")


def run(
    url: str,
    requests: Iterable[Request],
    seconds: float,
    connections: int,
    threads: int = 1,
    timeout: float = 10,
) -> Result:
    """Run wrk for ``seconds`` against ``url`` (the paths come from the requests)."""
    binary = available()
    if binary is None:
        raise RuntimeError("wrk is not installed: apt-get update && apt-get install -y wrk")
    with tempfile.NamedTemporaryFile("w", suffix=".tsv", encoding="utf-8") as listing:
        listing.write("\n".join(request.line() for request in requests) + "\n")
        listing.flush()
        command = [
            binary,
            f"-t{threads}",
            f"-c{max(connections, threads)}",
            f"-d{max(1, round(seconds))}s",
            f"--timeout={max(1, round(timeout))}s",
            "-s",
            str(SCRIPT),
            url,
            "--",
            listing.name,
        ]
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=seconds + timeout + 30, check=False
        )
    for line in done.stdout.splitlines():
        if line.startswith("WRKJSON "):
            raw = json.loads(line.removeprefix("WRKJSON "))
            return Result(
                requests=raw["requests"],
                seconds=raw["duration_us"] / 1e6,
                connect=raw["connect"],
                read=raw["read"],
                write=raw["write"],
                timeout=raw["timeout"],
                s2xx=raw["s2xx"],
                s3xx=raw["s3xx"],
                s4xx=raw["s4xx"],
                s5xx=raw["s5xx"],
                sother=raw["sother"],
                p50_ms=raw["p50_us"] / 1000,
                p90_ms=raw["p90_us"] / 1000,
                p99_ms=raw["p99_us"] / 1000,
                max_ms=raw["max_us"] / 1000,
            )
    raise RuntimeError(f"wrk failed ({done.returncode}): {done.stdout}\n{done.stderr}")
