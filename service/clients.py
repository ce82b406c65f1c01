"""Who a client is, and how fast it may ask: the worker's turns (turns.py) take them in turn
by client, and can hold each to a rate (``ZJ_CLIENT_RATE``).

A client is its peer address (an IPv6 peer: its /64, the block one host is given). Behind
proxies the operator names (``ZJ_TRUSTED_PROXIES``), it is the address ``X-Forwarded-For``
names, read right to left past the trusted proxies; from any other peer that header is
ignored, so that a client cannot choose its own identity. SECURITY.md says what this does
and does not stop.
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections import OrderedDict
from collections.abc import Iterable
from typing import Final

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

# Clients a worker remembers a rate for: least recently seen forgotten first, so that a flood
# of distinct addresses costs at most this many entries (each ~200 bytes).
REMEMBERED: Final = 10_000


def client_of(address: str) -> str:
    """The client an address stands for: itself, or for IPv6 its /64."""
    if ":" not in address:
        return address
    try:
        return str(ipaddress.IPv6Network(f"{address}/64", strict=False))
    except ValueError:
        return address


class Identity:
    """Tells a request's client from its peer address and, from a trusted proxy only, its
    ``X-Forwarded-For`` header."""

    def __init__(self, trusted: Iterable[Network] = ()) -> None:
        self.trusted = tuple(trusted)

    def trusts(self, address: str) -> bool:
        if not self.trusted:
            return False
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self.trusted)

    def of(self, peer: str, forwarded: str | None = None) -> str:
        """The client: the first address, right to left, that is not a trusted proxy (the
        leftmost if all are; where an entry is not an address, the last one read)."""
        client = peer
        if forwarded and self.trusts(peer):
            for hop in reversed(forwarded.split(",")):
                hop = hop.strip()
                try:
                    ipaddress.ip_address(hop)
                except ValueError:
                    break
                client = hop
                if not self.trusts(hop):
                    break
        return client_of(client)


class Rates:
    """A token bucket per client: ``burst`` requests at once, refilled at ``rate`` a second;
    ``REMEMBERED`` clients at most (a forgotten client starts again with a full bucket)."""

    def __init__(self, rate: float, burst: int, remembered: int = REMEMBERED) -> None:
        self.rate = rate
        self.burst = burst
        self.remembered = remembered
        self.buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # tokens, when

    def admit(self, client: str, now: float | None = None) -> float:
        """Takes a token for one request: 0.0 if there was one, else the seconds until there
        is (the request is refused)."""
        now = time.monotonic() if now is None else now
        tokens, then = self.buckets.pop(client, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.rate)
        wait = 0.0
        if tokens >= 1:
            tokens -= 1
        else:
            wait = (1 - tokens) / self.rate
        self.buckets[client] = (tokens, now)  # the most recently seen last
        if len(self.buckets) > self.remembered:
            self.buckets.popitem(last=False)
        return wait


def retry_after(seconds: float) -> str:
    """Retry-After's whole seconds, rounded up: a client that waits that long has a token."""
    return str(max(1, math.ceil(seconds)))
