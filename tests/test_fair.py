"""A line served fairly between clients (service.fair.Line), alone: who goes next.

Each request is served by taking it (``popleft``), charging its client the seconds it held
the turn and ending it (``done``), as the worker's turns do (tests/test_turns.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from service.fair import Line


@dataclass
class Request:
    client: str
    name: str
    since: float = 0.0
    gone: bool = False


def queue(line: Line[Request], client: str, count: int) -> list[Request]:
    requests = [Request(client, f"{client}{n}") for n in range(count)]
    for request in requests:
        line.append(client, request)
    return requests


def serve(line: Line[Request], cost: dict[str, float], turns: int) -> list[str]:
    """Serves ``turns`` requests, each charged its client's ``cost``; their names in order."""
    served = []
    for _ in range(turns):
        request = line.popleft()
        line.charge(request.client, cost.get(request.client, 1.0))
        line.done(request.client)
        served.append(request.name)
    return served


def test_one_client_is_served_in_order_of_arrival() -> None:
    line: Line[Request] = Line()
    queue(line, "a", 4)
    assert serve(line, {}, 4) == ["a0", "a1", "a2", "a3"]
    assert not line and line.first() is None


def test_a_client_arriving_behind_a_crowd_goes_next_not_last() -> None:
    line: Line[Request] = Line()
    queue(line, "greedy", 900)
    assert serve(line, {}, 2) == ["greedy0", "greedy1"]
    computing = line.popleft()
    queue(line, "polite", 2)  # arrive while greedy2 computes
    line.charge("greedy", 1.0)
    line.done(computing.client)
    # Then the two take turns: polite's second waits for one of greedy's, not 897.
    assert serve(line, {}, 4) == ["polite0", "greedy3", "polite1", "greedy4"]


def test_clients_share_the_time_not_the_count_of_requests() -> None:
    """A client whose requests take three times longer is served a third as often."""
    line: Line[Request] = Line()
    queue(line, "batches", 10)
    queue(line, "scores", 30)
    served = serve(line, {"batches": 3.0, "scores": 1.0}, 24)
    assert sum(name.startswith("batches") for name in served) == 6
    assert sum(name.startswith("scores") for name in served) == 18


def test_a_client_that_took_more_than_its_share_while_others_waited_owes_it() -> None:
    line: Line[Request] = Line()
    queue(line, "a", 1)
    queue(line, "b", 1)
    assert serve(line, {"a": 5.0}, 1) == ["a0"]  # a held the turn 5 s while b waited
    queue(line, "a", 1)
    queue(line, "b", 3)  # "b" is still waiting with b0: these queue behind it
    served = serve(line, {"a": 5.0}, 5)
    assert served == ["b0", "b0", "b1", "b2", "a0"]  # a's next waits for b's 4 s to come


def test_work_done_alone_and_idling_count_for_nothing() -> None:
    line: Line[Request] = Line()
    line.serve("a")  # the turn was free: none waits
    line.charge("a", 100.0)
    line.done("a")
    assert "a" not in line.clients  # owed to nobody, forgotten
    queue(line, "b", 1)
    serve(line, {}, 1)  # b served alone: then none waits
    queue(line, "b", 3)
    queue(line, "a", 3)  # a comes back: no credit for idling, no debt from working alone
    assert serve(line, {}, 6) == ["b0", "a0", "b1", "a1", "b2", "a2"]


def test_requests_that_gave_up_are_passed_over() -> None:
    line: Line[Request] = Line()
    a0, a1 = queue(line, "a", 2)
    [b0] = queue(line, "b", 1)
    a0.gone = b0.gone = True
    assert line.first() is a1
    assert serve(line, {}, 1) == ["a1"]
    assert not line and line.clients == {}


def test_how_long_a_client_s_first_request_has_waited() -> None:
    line: Line[Request] = Line()
    first, second = Request("a", "a0", since=10.0), Request("a", "a1", since=12.0)
    line.append("a", first)
    line.append("a", second)
    assert line.waited("a", now=13.0) == 3.0
    first.gone = True
    assert line.waited("a", now=13.0) == 1.0
    assert line.waited("b", now=13.0) == 0.0  # none waits


def test_a_flood_of_distinct_clients_cannot_grow_the_table_past_its_bound() -> None:
    line: Line[Request] = Line(debts=8)
    queue(line, "steady", 1)  # one waits throughout: each debt below is kept, while it can be
    for n in range(1000):
        client = f"10.0.{n // 256}.{n % 256}"
        line.serve(client)
        line.charge(client, 1.0)
        line.done(client)
        assert len(line.clients) <= 8
    assert "steady" in line.clients and serve(line, {}, 1) == ["steady0"]


# Each step: a client (of four) queues requests, or the next request is served at a cost.
STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("queue"), st.sampled_from("abcd"), st.integers(1, 3)),
        st.tuples(st.just("serve"), st.sampled_from("abcd"), st.integers(1, 4)),
    ),
    max_size=60,
)


@settings(max_examples=200, deadline=None)
@given(STEPS)
def test_every_request_is_served_once_in_its_client_s_order(
    steps: list[tuple[str, str, int]],
) -> None:
    line: Line[Request] = Line(debts=2)
    queued: dict[str, list[str]] = {}
    served: dict[str, list[str]] = {}
    count = 0
    for action, client, amount in steps:
        if action == "queue":
            for _ in range(amount):
                count += 1
                line.append(client, Request(client, f"r{count}"))
                queued.setdefault(client, []).append(f"r{count}")
        elif line:
            request = line.popleft()
            line.charge(request.client, float(amount))
            line.done(request.client)
            served.setdefault(request.client, []).append(request.name)
    while line:
        request = line.popleft()
        line.done(request.client)
        served.setdefault(request.client, []).append(request.name)
    assert served == queued
    assert not line.heap and not any(entry.serving for entry in line.clients.values())
