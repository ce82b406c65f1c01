"""A line of requests waiting for the CPU, served fairly between clients (turns.py).

Start-time fair queuing with the cost charged once known: each client's requests wait in
order behind one another, and the client whose work so far ends earliest goes next. A
client's work is measured in seconds of the worker's time (``charge``), so a request that
computes ten times longer counts ten times more: a batch, a sheet or an expected score counts
as the long work it is. ``now`` (virtual time) is where the last served client stood; a
client that arrives starts there, not at its past, so idling earns no credit, while one that
took more than its share while others waited keeps that debt (``finish`` > ``now``) until
they catch up. Work done while none else waited is owed to nobody.

With one client, or none waiting, this is first come, first served.
"""

from __future__ import annotations

import heapq
import itertools
from collections import deque
from typing import Final, Generic, Protocol, TypeVar

# Clients a line remembers a debt for while they wait for nothing: past it, those debts are
# forgiven (a flood of distinct addresses cannot grow the table further). Clients with
# requests waiting are bounded by the worker's connections (gunicorn.conf.py).
DEBTS: Final = 4096


class Waiting(Protocol):
    gone: bool  # gave up waiting: passed over
    since: float


W = TypeVar("W", bound=Waiting)


class Client(Generic[W]):
    __slots__ = ("finish", "scheduled", "serving", "waiters")

    def __init__(self, finish: float) -> None:
        self.finish = finish  # virtual time at which the work charged to it so far ends
        self.waiters: deque[W] = deque()
        self.scheduled = False  # in the line's heap
        self.serving = False  # one of its requests holds (or paused with) the turn


class Line(Generic[W]):
    """Requests waiting, by client (module docstring)."""

    def __init__(self, debts: int = DEBTS) -> None:
        self.clients: dict[str, Client[W]] = {}
        self.heap: list[tuple[float, int, str]] = []  # (start, arrival, client): the next
        self.order = itertools.count()
        self.now = 0.0
        self.debts = debts

    def __len__(self) -> int:
        """The requests waiting (those that gave up included until ``first`` passes them)."""
        return sum(len(entry.waiters) for entry in self.clients.values())

    def append(self, client: str, waiter: W) -> None:
        entry = self._entry(client)
        entry.waiters.append(waiter)
        if not entry.scheduled and not entry.serving:
            self._schedule(client, entry)

    def first(self) -> W | None:
        """The request that would go next, if any (those that gave up leave the line here)."""
        while self.heap:
            client = self.heap[0][2]
            entry = self.clients[client]
            waiters = entry.waiters
            while waiters and waiters[0].gone:
                waiters.popleft()
            if waiters:
                return waiters[0]
            heapq.heappop(self.heap)
            entry.scheduled = False
            self._forget(client, entry)
        return None

    def popleft(self) -> W:
        """Takes the request that goes next (``first`` must have found one) into service."""
        waiter = self.first()
        assert waiter is not None
        start, _, client = heapq.heappop(self.heap)
        entry = self.clients[client]
        entry.scheduled = False
        entry.waiters.popleft()
        self.serve(client, start)
        return waiter

    def serve(self, client: str, start: float | None = None) -> None:
        """``client``'s request takes the turn (popped, or the turn was free)."""
        entry = self._entry(client)
        self.now = max(self.now, entry.finish if start is None else start)
        entry.finish = max(entry.finish, self.now)
        entry.serving = True

    def charge(self, client: str, seconds: float) -> None:
        """Counts ``seconds`` of the worker's time to ``client`` (after each turn it held)."""
        self._entry(client).finish += seconds

    def done(self, client: str) -> None:
        """``client``'s request in service has ended: its next one, if any, is scheduled."""
        entry = self._entry(client)
        entry.serving = False
        if self.first() is None:  # none else waits: work done alone is owed to nobody
            self.now = max(self.now, entry.finish)
        if entry.waiters and not entry.scheduled:
            self._schedule(client, entry)
        else:
            self._forget(client, entry)

    def waited(self, client: str, now: float) -> float:
        """How long ``client``'s first request still waiting has waited (0: none waits)."""
        entry = self.clients.get(client)
        if entry is None:
            return 0.0
        waiters = entry.waiters
        while waiters and waiters[0].gone:
            waiters.popleft()
        return now - waiters[0].since if waiters else 0.0

    def __bool__(self) -> bool:
        return self.first() is not None

    def _entry(self, client: str) -> Client[W]:
        entry = self.clients.get(client)
        if entry is None:
            if len(self.clients) >= self.debts:
                self._forgive()
            entry = self.clients[client] = Client(self.now)
        return entry

    def _schedule(self, client: str, entry: Client[W]) -> None:
        heapq.heappush(self.heap, (max(self.now, entry.finish), next(self.order), client))
        entry.scheduled = True

    def _forget(self, client: str, entry: Client[W]) -> None:
        """Drops an idle client that owes nothing: it would start at ``now`` anyway."""
        idle = not (entry.waiters or entry.scheduled or entry.serving)
        if idle and entry.finish <= self.now:
            del self.clients[client]

    def _forgive(self) -> None:
        for client, entry in list(self.clients.items()):
            if not (entry.waiters or entry.scheduled or entry.serving):
                del self.clients[client]
