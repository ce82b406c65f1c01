"""POST /v1/replay on records that break a rule of play (RULES.md §9), each made by changing a
legal self-played record (tests/support/selfplay.py) at one event: the answer is a Problem
(``invalid_record``, or ``not_a_winning_hand`` / ``below_minimum`` for a win that does not
stand) whose one path is that event, ``record.events[N]``.

A property test then changes legal records at random (an event dropped, two swapped, a tile or a
seat changed): the answer is a Problem or an answer, never another exception (a 500), and never
an answer for a record whose tiles cannot be (a fifth copy, a tile discarded or melded that the
seat does not hold, a seat holding too many or too few).
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service import engine
from service.domain.rules.tiles import parse
from service.problems import Problem
from tests.support import oracle, selfplay
from tests.support.handgen import compact, single
from tests.support.hands import paths

Record = dict[str, Any]
Held = dict[str, list[int]]
MELDS = ("chow", "pung", "kong")


@cache
def legal() -> tuple[selfplay.Played, ...]:
    return tuple(selfplay.corpus(80, seed=21))


def fault(payload: dict[str, Any], index: int, code: str = "invalid_record") -> Problem:
    """The Problem ``payload`` is answered, at ``record.events[index]``."""
    with pytest.raises(Problem) as info:
        engine.replay(payload)
    problem = info.value
    assert problem.code == code, problem.detail
    assert paths(problem) == [f"record.events[{index}]"], problem.errors
    return problem


def action(event: dict[str, Any]) -> tuple[str, Any]:
    return next((key, value) for key, value in event.items() if key not in ("seat", "tiles"))


def counts(tiles: list[int]) -> list[int]:
    held = [0] * 34
    for tile in tiles:
        held[tile] += 1
    return held


# --- what a legal record's seats hold: by its own events, written for these tests ----------


def holdings(record: Record) -> list[Held]:
    """What each seat dealt in the open holds before each event, and at the end: a draw adds
    its tile, a discard, a kong or a meld takes its tiles (the claimed discard excepted)."""
    held = {
        seat: counts(parse(tiles)) for seat, tiles in record["deal"].items() if tiles is not None
    }
    last = -1
    states = []
    for event in record["events"]:
        states.append({seat: list(tiles) for seat, tiles in held.items()})
        kind, value = action(event)
        if kind == "discard":
            last = parse(value)[0]
        if event["seat"] in held:
            for tile, change in _changes(kind, value, last):
                held[event["seat"]][tile] += change
    states.append(held)
    return states


def _changes(kind: str, value: Any, last: int) -> list[tuple[int, int]]:
    if kind == "draw":
        return [] if value is None else [(parse(value)[0], 1)]
    if kind in ("discard", "added_kong", "concealed_kong"):
        return [(tile, -1) for tile in parse(value)]
    if kind in MELDS:
        tiles = parse(value)
        if last in tiles:
            tiles.remove(last)
        return [(tile, -1) for tile in tiles]
    return []


def melds(events: list[dict[str, Any]], seat: str) -> int:
    """The melds ``seat`` declared in these events (an added kong was a pung already)."""
    declared = (*MELDS, "concealed_kong")
    return sum(1 for e in events if e["seat"] == seat and action(e)[0] in declared)


def sizes(record: Record) -> Iterator[int]:
    """Each seat's concealed tiles plus three a meld, before each event and at the end."""
    size = {seat: 14 if seat == "E" else 13 for seat in "ESWN"}
    for event in record["events"]:
        yield from size.values()
        kind, value = action(event)
        if kind in ("draw", "discard", "added_kong"):
            size[event["seat"]] += 1 if kind == "draw" else -1
        elif kind == "concealed_kong":
            size[event["seat"]] -= 1
        elif kind in MELDS:
            size[event["seat"]] += 3 - (len(parse(value)) - 1)
    yield from size.values()


def impossible(record: Record) -> bool:
    """A fifth copy of a tile, a seat giving a tile it does not hold, or holding too many or
    too few (13 or 14, three a meld)."""
    known = [parse(tiles) for tiles in record["deal"].values() if tiles is not None]
    known += [parse(e["draw"]) for e in record["events"] if e.get("draw") is not None]
    if max(Counter(tile for tiles in known for tile in tiles).values()) > 4:
        return True
    if any(min(held) < 0 for state in holdings(record) for held in state.values()):
        return True
    return any(not 13 <= size <= 14 for size in sizes(record))


def test_legal_records_hold_possible_tiles() -> None:
    """The checks above find nothing wrong in the generator's records, and replay them."""
    for played in legal()[:20]:
        assert not impossible(played.record)
        assert engine.replay(played.payload())["end"] == played.end


# --- finding the place to break --------------------------------------------------------


def passed_discards() -> Iterator[tuple[selfplay.Played, int, list[Held]]]:
    """(hand, index) of each discard the next seat's draw follows (no one claimed it)."""
    for played in legal():
        events = played.record["events"]
        states = holdings(played.record)
        for index, event in enumerate(events[:-1]):
            after = events[index + 1]
            passed = "draw" in after and after["seat"] == selfplay.after(event["seat"])
            if "discard" in event and passed:
                yield played, index, states


def edited(played: selfplay.Played, events: list[dict[str, Any]], **rules: Any) -> dict[str, Any]:
    record = {**played.record, "events": events}
    return {"record": record, "rules": {**played.rules, **rules}}


def first_of(found: Iterator[Any]) -> Any:
    for item in found:
        return item
    pytest.fail("no legal record has the place this fault needs")


# --- each rule broken ------------------------------------------------------------------


def test_a_fifth_copy() -> None:
    def places() -> Iterator[tuple[selfplay.Played, int, int]]:
        for played in legal():
            record = played.record
            seen = Counter(tile for tiles in record["deal"].values() for tile in parse(tiles))
            for index, event in enumerate(record["events"]):
                if "draw" not in event:
                    continue
                full = [tile for tile, copies in seen.items() if copies == 4]
                if full:
                    yield played, index, full[0]
                    break
                seen[parse(event["draw"])[0]] += 1

    played, index, tile = first_of(places())
    events = copy.deepcopy(played.record["events"])
    events[index]["draw"] = single(tile)
    problem = fault(edited(played, events), index)
    assert single(tile) in problem.detail


def test_a_discard_not_held() -> None:
    played = legal()[0]
    position = played.positions[2]
    missing = next(tile for tile in range(34) if tile not in position.tiles)
    events = copy.deepcopy(played.record["events"])
    events[position.event]["discard"] = single(missing)
    fault(edited(played, events), position.event)


def test_a_concealed_kong_not_held() -> None:
    played = legal()[1]
    position = played.positions[3]
    tile = next(t for t in position.tiles if Counter(position.tiles)[t] < 4)
    events = copy.deepcopy(played.record["events"])
    events[position.event] = {"seat": position.seat, "concealed_kong": compact([tile] * 4)}
    fault(edited(played, events), position.event)


def test_a_pung_of_tiles_not_held() -> None:
    def places() -> Iterator[tuple[selfplay.Played, int, str, int]]:
        for played, index, states in passed_discards():
            tile = parse(played.record["events"][index]["discard"])[0]
            seat = played.record["events"][index + 1]["seat"]
            if states[index + 1][seat][tile] < 2:
                yield played, index, seat, tile

    played, index, seat, tile = first_of(places())
    events = copy.deepcopy(played.record["events"])
    events[index + 1] = {"seat": seat, "pung": compact([tile] * 3)}
    fault(edited(played, events), index + 1)


def test_a_seat_out_of_turn() -> None:
    played, index, _ = first_of(passed_discards())
    events = copy.deepcopy(played.record["events"])
    events[index + 1]["seat"] = selfplay.after(events[index]["seat"], 2)
    fault(edited(played, events), index + 1)


def test_a_chow_by_a_seat_not_next() -> None:
    def places() -> Iterator[tuple[selfplay.Played, int, str, tuple[int, ...]]]:
        for played, index, states in passed_discards():
            discard = played.record["events"][index]
            tile = parse(discard["discard"])[0]
            for steps in (2, 3):
                seat = selfplay.after(discard["seat"], steps)
                chows = selfplay.chows(states[index + 1][seat], tile)
                if chows:
                    yield played, index, seat, chows[0]

    played, index, seat, chow = first_of(places())
    events = copy.deepcopy(played.record["events"])
    events[index + 1] = {"seat": seat, "chow": compact(chow)}
    fault(edited(played, events), index + 1)


def test_a_claim_of_a_discard_not_the_last() -> None:
    """A pung of the discard before the last one, by a seat holding the pair for it."""

    def places() -> Iterator[tuple[selfplay.Played, int, str, int]]:
        for played, index, states in passed_discards():
            events = played.record["events"]
            tile = parse(events[index]["discard"])[0]
            if len(events) <= index + 3 or events[index + 2].get("discard") in (None, single(tile)):
                continue
            skip = {events[index]["seat"], events[index + 1]["seat"]}
            for seat, held in states[index + 3].items():
                if seat not in skip and held[tile] >= 2:
                    yield played, index + 3, seat, tile

    played, index, seat, tile = first_of(places())
    events = copy.deepcopy(played.record["events"])
    events.insert(index, {"seat": seat, "pung": compact([tile] * 3)})
    fault(edited(played, events), index)


def test_a_second_claim_on_one_discard() -> None:
    played, index = first_of(
        (played, index)
        for played in legal()
        for index, event in enumerate(played.record["events"])
        if "pung" in event
    )
    events = copy.deepcopy(played.record["events"])
    events.insert(index + 1, dict(events[index]))
    fault(edited(played, events), index + 1)


def test_a_kong_with_no_replacement_left() -> None:
    """All 14 replacement tiles drawn (six kongs, eight bonus tiles): W's kong has none."""
    played = selfplay.forced("replacements_spent")
    record = played.record
    quad = next(t for t, n in Counter(parse(record["deal"]["W"])).items() if n == 4)
    draw = next(i for i, e in enumerate(record["events"]) if e["seat"] == "W")
    assert "draw" in record["events"][draw]
    events = copy.deepcopy(record["events"])
    events[draw + 1 : draw + 1] = [
        {"seat": "W", "concealed_kong": compact([quad] * 4)},
        {"seat": "W", "draw": single(played.census["stock"][0])},
    ]
    fault(edited(played, events), draw + 1)


def test_a_draw_past_the_wall() -> None:
    """A washout with a wall one shorter: its last ordinary draw is one too many."""

    def places() -> Iterator[tuple[selfplay.Played, int]]:
        for played in legal():
            events, drawn = played.record["events"], played.drawn
            if played.end != "washout" or played.rules.get("bonus_tiles"):
                continue
            last = drawn.index(played.record["wall"])
            before = drawn.index(played.record["wall"] - 1)
            between = [action(e)[0] for e in events[before + 1 : last]]
            if between == ["discard"]:
                yield played, last

    played, last = first_of(places())
    payload = edited(played, played.record["events"])
    payload["record"]["wall"] -= 1
    fault(payload, last)


def test_a_chow_of_the_discard_after_the_last_tile() -> None:
    """The discard after the last tile may be claimed only to win: W, waiting on it in the
    middle of a chow, chows it instead."""
    played = selfplay.forced("final_discard")
    events = copy.deepcopy(played.record["events"])
    tile = parse(events[-1]["win"])[0]
    events[-1] = {"seat": events[-1]["seat"], "chow": compact([tile - 1, tile, tile + 1])}
    fault(edited(played, events), len(events) - 1)


def test_a_draw_after_a_washout() -> None:
    played = first_of(p for p in legal() if p.end == "washout")
    events = copy.deepcopy(played.record["events"])
    seat = selfplay.after(events[-1]["seat"])
    events.append({"seat": seat, "draw": single(played.census["stock"][0])})
    fault(edited(played, events), len(events) - 1)


def test_an_event_after_the_win() -> None:
    played = first_of(p for p in legal() if p.end == "win")
    events = copy.deepcopy(played.record["events"])
    events.append({"seat": events[-1]["seat"], "discard": events[-1]["win"]})
    fault(edited(played, events), len(events) - 1)


def test_a_hidden_seat_s_draw_given_as_a_tile() -> None:
    played = legal()[2]
    view = copy.deepcopy(played.views["E"])
    index = next(i for i, e in enumerate(view["events"]) if e == {"seat": "S", "draw": None})
    view["events"][index]["draw"] = played.record["events"][index]["draw"]
    fault({"record": view, "rules": played.rules}, index)


def test_a_hidden_winner_without_its_tiles() -> None:
    played = first_of(p for p in legal() if p.request and p.request["win"]["seat"] != "E")
    view = copy.deepcopy(played.views["E"])
    del view["events"][-1]["tiles"]
    fault({"record": view, "rules": played.rules}, len(view["events"]) - 1)


def test_a_bonus_tile_without_the_mod() -> None:
    played = first_of(p for p in legal() if "bonus_tiles" in p.endings)
    index = next(i for i, e in enumerate(played.record["events"]) if {"flower", "season"} & set(e))
    payload = edited(played, played.record["events"], bonus_tiles=False)
    payload["record"]["wall"] = min(payload["record"]["wall"], 69)
    fault(payload, index)


def test_a_win_on_a_hand_that_does_not_win() -> None:
    def places() -> Iterator[tuple[selfplay.Played, int]]:
        for played, index, states in passed_discards():
            events = played.record["events"]
            tile = parse(events[index]["discard"])[0]
            seat = events[index + 1]["seat"]
            held = list(states[index + 1][seat])
            held[tile] += 1
            if not oracle.wins(held, melds(events[:index], seat), selfplay.FORMS):
                yield played, index

    played, index = first_of(places())
    events = copy.deepcopy(played.record["events"][: index + 2])
    events[index + 1] = {"seat": events[index + 1]["seat"], "win": events[index]["discard"]}
    fault(edited(played, events), index + 1, "not_a_winning_hand")


def test_a_win_below_the_minimum() -> None:
    played = first_of(
        p
        for p in legal()
        if p.request and not p.rules.get("minimum") and engine.score(p.request)["score"] < 5
    )
    events = played.record["events"]
    fault(edited(played, events, minimum=5), len(events) - 1, "below_minimum")


# --- random changes ----------------------------------------------------------------------


def changed(record: Record, data: st.DataObject) -> Record:
    """The record with one random change: an event dropped, two swapped, a tile or a seat."""
    record = copy.deepcopy(record)
    events = record["events"]
    index = data.draw(st.integers(0, len(events) - 1))
    change = data.draw(st.sampled_from(("drop", "swap", "tile", "seat")))
    if change == "drop":
        del events[index]
    elif change == "swap":
        other = data.draw(st.integers(0, len(events) - 1))
        events[index], events[other] = events[other], events[index]
    elif change == "seat":
        events[index]["seat"] = data.draw(st.sampled_from("ESWN"))
    else:
        kind, value = action(events[index])
        if isinstance(value, str):
            tile = data.draw(st.integers(0, 33))
            size = len(parse(value))
            events[index][kind] = compact([tile] * size) if size > 1 else single(tile)
    return record


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_changes_answer_a_problem_or_a_possible_record(data: st.DataObject) -> None:
    played = data.draw(st.sampled_from(legal()[:40]))
    record = changed(played.record, data)
    try:
        answer = engine.replay({"record": record, "rules": played.rules})
    except Problem as problem:
        assert problem.status == 422
        return
    assert not impossible(record), answer
