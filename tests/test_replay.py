"""Hand records (API.md "Hand records", RULES.md §9): records written by hand, one for each
way a hand ends, with the score request each amounts to worked out by hand beside it; each
fault once, at its path; a player's own view of a record replays as the full record does."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from service import engine
from service.domain.records import replay as replays
from service.domain.rules import tiles as t
from service.problems import Problem
from service.request import MAX_EVENTS, ReplayRequestSchema
from service.request.loading import fast_loader

# The deal most records start from. E: 123m 456m 789p 111s 2s 5z (14); S: 234p 567p 789s 33z
# 55z, ready on 3z or 5z (13); W: 111m 999m 111p 999p 5z; N: one each of 2468 of the three
# suits and 4z. Every tile at most 4 times (1m: E 1 + W 3; 5z: E 1 + S 2 + W 1).
DEAL = {
    "E": "123m456m789p1112s5z",
    "S": "234p567p789s33z55z",
    "W": "111m999m111p999p5z",
    "N": "2468m2468p2468s4z",
}
ACTIONS = {
    "D": "draw",
    "d": "discard",
    "c": "chow",
    "p": "pung",
    "k": "kong",
    "K": "concealed_kong",
    "a": "added_kong",
    "f": "flower",
    "s": "season",
    "w": "win",
}


def events(text: str) -> list[dict[str, Any]]:
    """Events written short: "S:D3p" is S drawing 3p ("W:D-": a hidden draw), d discards,
    c/p/k claim a chow, pung or kong, K a concealed kong, a an added kong, f/s a flower or
    season by number, w a win ("W:w5s/123m...": with the tiles a hidden winner reveals)."""
    found: list[dict[str, Any]] = []
    for word in text.split():
        seat, rest = word.split(":")
        action, value = ACTIONS[rest[0]], rest[1:]
        event: dict[str, Any] = {"seat": seat}
        if "/" in value:
            value, event["tiles"] = value.split("/")
        event[action] = (
            None if value == "-" else int(value) if action in ("flower", "season") else value
        )
        found.append(event)
    return found


def record(text: str, deal: dict[str, str | None] | None = None, **more: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"deal": DEAL if deal is None else deal, "events": events(text)}
    return {"record": {**body, **more.pop("record", {})}, **more}


def replayed(text: str, deal: dict[str, str | None] | None = None, **more: Any) -> dict[str, Any]:
    return engine.replay(record(text, deal, **more))


def win(by: str, seat: str, **flags: Any) -> dict[str, Any]:
    """A request's ``win``, every flag given (false unless said)."""
    body = {
        "by": by,
        "seat": seat,
        "last_tile": False,
        "kong_replacement": False,
        "robbing_kong": False,
        "first_turn": False,
    }
    go_around = flags.pop("go_around", None)
    body.update(flags)
    if go_around is not None:
        body["go_around"] = [{"seat": d[0], "tile": d[1:]} for d in go_around.split()]
    return body


def hand(tiles: str, winning: str, melds: list[dict[str, Any]] | None = None, **bonus: Any) -> Any:
    return {
        "tiles": tiles,
        "melds": melds or [],
        "winning_tile": winning,
        "flowers": bonus.get("flowers", []),
        "seasons": bonus.get("seasons", []),
    }


def scored_alike(answer: dict[str, Any]) -> None:
    """The answer's score is /v1/score's answer to its request, payments included."""
    assert answer["score"] == engine.score({**answer["request"], "rules": answer["rules"]})


# Each way a hand ends: the record, the request it amounts to, and the wall left.
ENDINGS = {
    # S draws its 3z: a self-draw, 333z and 55z with three chows.
    "self_draw": (
        record("E:d2s S:D3z S:w3z"),
        hand("234567p789s33355z", "3z"),
        win("self_draw", "S"),
        68,
    ),
    # E's discards are passed round to E's 3z: the go-around runs back to S's own discard.
    "discard": (
        record("E:d2s S:D6s S:d6s W:D4z W:d4z N:D8m N:d8m E:D3z E:d3z S:w3z"),
        hand("234567p789s33355z", "3z"),
        win("discard", "S", discarder="E", go_around="S6s W4z N8m E3z"),
        65,
    ),
    # S chows E's 8p with 67p, discards 5p; W and N pass; S wins on N's 3z.
    "chow": (
        record("E:d8p S:c678p S:d5p W:D4z W:d4z N:D3z N:d3z S:w3z"),
        hand("234p789s33355z", "3z", [{"kind": "chow", "tiles": "678p", "concealed": False}]),
        win("discard", "S", discarder="N", go_around="S5p W4z N3z"),
        67,
    ),
    # W pungs E's 1m, skipping S; W discards 9p, N draws 3z and discards it: S wins on it.
    # The go-around is every discard since the deal (E's 1m, claimed, included): no seat twice.
    "claim_skips_a_seat": (
        record("E:d1m W:p111m W:d9p N:D3z N:d3z S:w3z"),
        hand("234567p789s33355z", "3z"),
        win("discard", "S", discarder="N", go_around="E1m W9p N3z"),
        68,
    ),
    # E wins on the 14 dealt tiles: Heaven, any tile held named as the winning one.
    "heaven": (
        record(
            "E:w4s",
            {**DEAL, "E": "123m456m789p11234s"},
        ),
        hand("123456m789p11234s", "4s"),
        win("self_draw", "E", first_turn=True),
        69,
    ),
    # S wins on East's first discard, no claim before it: Earth.
    "earth": (
        record("E:d5z S:w5z"),
        hand("234567p789s33555z", "5z"),
        win("discard", "S", discarder="E", first_turn=True, go_around="E5z"),
        69,
    ),
    # S declares 3333z, draws 5z as its replacement and wins on it.
    "kong_replacement": (
        record(
            "E:d2s S:D9s S:K3333z S:D5z S:w5z",
            {**DEAL, "S": "234m567p78s3333z5z", "W": "111m999m111p999p6z"},
        ),
        hand("234m567p789s55z", "5z", [{"kind": "kong", "tiles": "3333z", "concealed": True}]),
        win("self_draw", "S", kong_replacement=True),
        68,
    ),
    # W pungs E's 1m and later adds its own fourth 1m: S, waiting on 1m or 4m with 23m, robs it.
    # The robbed tile ends the go-around, as the winning discard would.
    "robbing_kong": (
        record(
            "E:d1m W:p111m W:d6z N:D7z N:d7z E:D9s E:d9s S:D1s S:d1s W:D4z W:a1m S:w1m",
            {**DEAL, "S": "23m567p789s33555z", "W": "111m999m111p999p6z"},
        ),
        hand("123m567p789s33555z", "1m"),
        win("discard", "S", discarder="W", robbing_kong=True, go_around="S1s W1m"),
        65,
    ),
    # A wall of one draw: S draws its last tile and wins on it.
    "last_tile_by_draw": (
        record("E:d2s S:D3z S:w3z", record={"wall": 1}),
        hand("234567p789s33355z", "3z"),
        win("self_draw", "S", last_tile=True),
        0,
    ),
    # A wall of two: W draws the last tile, 3z, and discards it; S wins on that discard.
    "last_tile_by_discard": (
        record("E:d2s S:D6s S:d6s W:D3z W:d3z S:w3z", record={"wall": 2}),
        hand("234567p789s33355z", "3z"),
        win("discard", "S", discarder="W", last_tile=True, go_around="S6s W3z"),
        0,
    ),
    # The bonus-tile mod (77 draws): S draws flower 2 from the wall, lays it out and wins on
    # its replacement tile (a replacement after a bonus tile, not a kong's).
    "bonus_tiles": (
        record("E:d2s S:f2 S:D3z S:w3z", rules={"bonus_tiles": True}),
        hand("234567p789s33355z", "3z", flowers=[2]),
        win("self_draw", "S"),
        76,
    ),
    # East was dealt season 1 and a tile for it (bonus tiles are not in the deal): it lays the
    # season out in its first turn, with no draw, and wins on its 14 tiles: still Heaven.
    "bonus_tile_dealt": (
        record("E:s1 E:w4s", {**DEAL, "E": "123m456m789p11234s"}, rules={"bonus_tiles": True}),
        hand("123456m789p11234s", "4s", seasons=[1]),
        win("self_draw", "E", first_turn=True),
        77,
    ),
}


@pytest.mark.parametrize("name", ENDINGS)
def test_each_ending_amounts_to_its_score_request(name: str) -> None:
    body, expected_hand, expected_win, wall_left = ENDINGS[name]
    answer = engine.replay(body)
    assert answer["end"] == "win"
    assert answer["events"] == len(body["record"]["events"])
    assert answer["wall_left"] == wall_left
    assert answer["request"] == {"hand": expected_hand, "win": expected_win}
    assert list(answer) == ["rules", "events", "wall_left", "end", "score", "request"]
    scored_alike(answer)


def test_the_go_around_says_who_pays() -> None:
    # S discarded 6s and won on E's 3z: E, who discarded the 3z, is responsible. Below the
    # standard value the formal scheme has each of the three pay the value anyway.
    answer = engine.replay(ENDINGS["discard"][0])
    value = answer["score"]["score"]
    assert answer["score"]["payments"] == {"E": -value, "S": 3 * value, "W": -value, "N": -value}
    # Under discarder-pays-all, E alone pays 3 x the value.
    answer = engine.replay({**ENDINGS["discard"][0], "rules": {"payoff": "discarder_pays_all"}})
    assert answer["score"]["payments"] == {"E": -3 * value, "S": 3 * value, "W": 0, "N": 0}


def test_a_washout_has_no_score() -> None:
    # A wall of two: S and W draw it; W's 4z is passed (the record ends): no win.
    answer = replayed("E:d2s S:D6s S:d6s W:D4z W:d4z", record={"wall": 2})
    assert answer == {
        "rules": answer["rules"],
        "events": 5,
        "wall_left": 0,
        "end": "washout",
    }


def test_an_open_record_is_checked_as_far_as_it_goes() -> None:
    answer = replayed("E:d2s S:D6s")
    assert (answer["end"], answer["events"], answer["wall_left"]) == ("open", 2, 68)
    assert "score" not in answer and "request" not in answer
    # API.md's own example, which hides W and N and stops after S's discard.
    example = {
        "record": {
            "deal": {"E": "19m19p19s12345677z", "S": "234m5556789m112p", "W": None, "N": None},
            "wall": 69,
            "events": events(
                "E:d6z S:D3p S:d9m W:D- W:d7z E:p777z E:d9s S:D5m S:K5555m S:D8p S:d1p"
            ),
        },
        "rules": {"payoff": "formal"},
    }
    answer = engine.replay(example)
    assert (answer["end"], answer["events"], answer["wall_left"]) == ("open", 11, 66)


def hidden(body: dict[str, Any], *seats: str) -> dict[str, Any]:
    """The record as a player saw it: ``seats``' deals and draws hidden, a hidden winner
    revealing its tiles (as the full record's request has them)."""
    view = copy.deepcopy(body)
    answer = engine.replay(body)
    for seat in seats:
        view["record"]["deal"][seat] = None
    for event in view["record"]["events"]:
        if event["seat"] in seats and "draw" in event:
            event["draw"] = None
        if event["seat"] in seats and "win" in event:
            event["tiles"] = answer["request"]["hand"]["tiles"]
    return view


@pytest.mark.parametrize("name", ENDINGS)
def test_a_players_own_view_replays_as_the_full_record(name: str) -> None:
    body = ENDINGS[name][0]
    full = engine.replay(body)
    winner = full["request"]["win"]["seat"]
    for seat in "ESWN":
        others = [other for other in "ESWN" if other != seat]
        view = hidden(body, *others)  # what ``seat`` saw: its own tiles only
        assert engine.replay(view) == full, (seat, view)
    assert engine.replay(hidden(body, winner)) == full


def fault(body: dict[str, Any], code: str = "invalid_record") -> tuple[str, str]:
    """The path and message of the one error a record is refused with."""
    with pytest.raises(Problem) as raised:
        engine.replay(body)
    problem = raised.value
    assert problem.code == code, problem.body()
    assert problem.status == 422
    assert len(problem.errors) == 1
    return problem.errors[0]["path"], problem.errors[0]["message"]


HIDDEN_S_W = {**DEAL, "S": None, "W": None}
ALL_HIDDEN = dict.fromkeys("ESWN")
# W, hidden, draws the 8 bonus tiles one after another (the first from the wall, 7
# replacements), and its 8th replacement; it makes four kongs (12 replacements); N makes two
# more (14): there is no replacement for a third, at event 26.
EVERY_REPLACEMENT = (
    "E:d1z S:D- S:d2z W:f1 W:f2 W:f3 W:f4 W:s1 W:s2 W:s3 W:s4 W:D-"
    " W:K1111s W:D- W:K2222s W:D- W:K3333s W:D- W:K4444s W:D- W:d3z"
    " N:D- N:K1111p N:D- N:K2222p N:D- N:K3333p"
)
FAULTS = {
    # S draws a 5z: E holds one, S two, W one.
    "a fifth copy": (record("E:d2s S:D5z"), "record.events[1]", "a fifth 5z"),
    "a fifth copy dealt": (
        record("", {**DEAL, "N": "2468m2468p2468s5z"}),
        "record.deal.N",
        "a fifth 5z",
    ),
    "a discard not held": (
        record("E:d9m"),
        "record.events[0]",
        "E discards 9m, which E does not hold",
    ),
    "a meld of tiles not held": (
        record("E:d8p S:c789p"),
        "record.events[1]",
        "S makes a chow 789p with 9p, which S does not hold",
    ),
    "a seat out of turn": (
        record("E:d2s S:D6s S:d6s W:D4z W:d4z W:D8m"),
        "record.events[5]",
        "W acts out of turn: N was to draw",
    ),
    "a draw twice": (
        record("E:d2s S:D6s S:D6s"),
        "record.events[2]",
        "S acts out of turn: S has drawn already and was to discard",
    ),
    "a chow by a seat not next": (
        record("E:d2s S:D- S:d6z W:D- W:d5s S:c456s", HIDDEN_S_W),
        "record.events[5]",
        "S cannot chow the 5s discarded by W: only N, the next seat, may chow",
    ),
    "a claim of a discard passed": (
        record("E:d2s S:D6s S:d6s W:D4z W:d4z N:D8m E:p444z"),
        "record.events[6]",
        "E cannot pung 444z: the last discard, 4z by W, was passed when N drew",
    ),
    "a claim of another tile": (
        record("E:d2s S:p555z"),
        "record.events[1]",
        "S cannot pung 555z: the last discard, 2s by E, is not in it",
    ),
    "a second claim on one discard": (
        record("E:d1m W:p111m N:k1111m"),
        "record.events[2]",
        "N cannot kong 1111m: the last discard, 1m by E, was claimed already",
    ),
    "a kong with no replacement left": (
        record(EVERY_REPLACEMENT, ALL_HIDDEN, rules={"bonus_tiles": True}),
        "record.events[26]",
        "N cannot take a replacement tile: all 14 have been drawn",
    ),
    "a draw past the wall": (
        record("E:d2s S:D6s S:d6s W:D4z", record={"wall": 1}),
        "record.events[3]",
        "a draw past the wall: its last tile was drawn at record.events[1]",
    ),
    "a claim after the wall's last tile": (
        record("E:d1m W:p111m", record={"wall": 0}),
        "record.events[1]",
        "W cannot pung the 1m: the discard after the wall's last tile may be claimed only to win",
    ),
    "an event after the end": (
        record("E:d5z S:w5z W:D4z"),
        "record.events[2]",
        "an event after the end: the hand ended with S's win at record.events[1]",
    ),
    "a hidden seat's draw given as a tile": (
        record("E:d2s S:D6s S:d6s W:D4z", {**DEAL, "W": None}),
        "record.events[3]",
        "W's tiles are hidden (record.deal.W is null): its draws are null",
    ),
    "a known seat's draw given as null": (
        record("E:d2s S:D-"),
        "record.events[1]",
        "S's tiles are known (record.deal.S): its draw is a tile",
    ),
    "a winner whose tiles are unknown": (
        record("E:d5z S:w5z", {**DEAL, "S": None}),
        "record.events[1]",
        'S\'s tiles are hidden: its win reveals them, as {"seat": "S", "win": "...",'
        ' "tiles": "..."}',
    ),
    "a bonus tile without the mod": (
        record("E:d2s S:f1"),
        "record.events[1]",
        "a flower is laid out only with the bonus-tile mod (rules.bonus_tiles)",
    ),
    "a bonus tile twice": (
        record("E:d2s S:f1 S:f1", rules={"bonus_tiles": True}),
        "record.events[2]",
        "a second flower 1: there is one of each",
    ),
    "a bonus tile laid out late": (
        record("E:d2s S:D6s S:d6s W:D4z W:d4z N:D8m N:d8m E:D3z E:f2", rules={"bonus_tiles": True}),
        "record.events[8]",
        "E lays out a flower it did not just draw: a bonus tile is laid out in place of the"
        " draw that drew it, or, dealt, before its seat's first discard",
    ),
    "a deal of the wrong size": (
        record("", {**DEAL, "S": "234p567p789s33z5z"}),
        "record.deal.S",
        "S is dealt 13 tiles (East 14, the others 13): 12 given",
    ),
    "an event with no action": (
        {"record": {"deal": DEAL, "events": [{"seat": "E"}]}},
        "record.events[0]",
        "an event is a seat and exactly one action (draw, discard, chow, pung, kong,"
        " concealed_kong, added_kong, flower, season, win): none",
    ),
    "an event with two actions": (
        {"record": {"deal": DEAL, "events": [{"seat": "E", "discard": "2s", "draw": "3p"}]}},
        "record.events[0]",
        "an event is a seat and exactly one action (draw, discard, chow, pung, kong,"
        " concealed_kong, added_kong, flower, season, win): draw and discard",
    ),
    "a win on another tile": (
        record("E:d5z S:w3z"),
        "record.events[1]",
        "S wins on 3z, but the tile discarded is 5z",
    ),
}


@pytest.mark.parametrize("name", FAULTS)
def test_each_fault_is_refused_at_its_event(name: str) -> None:
    body, path, message = FAULTS[name]
    assert fault(body) == (path, message)


def test_a_win_that_does_not_stand_is_refused_at_its_event() -> None:
    # S wins on 6s, which completes nothing.
    path, message = fault(record("E:d2s S:D6s S:w6s"), "not_a_winning_hand")
    assert path == "record.events[2]"
    assert message.startswith("S's win: 234567p6789s3355z with 0 melds forms no winning hand")
    assert message.endswith("(hand.tiles)")
    # Below the minimum: the problem still shows the breakdown.
    with pytest.raises(Problem) as raised:
        engine.replay(record("E:d2s S:D3z S:w3z", rules={"minimum": 1000}))
    assert raised.value.code == "below_minimum"
    assert raised.value.errors[0]["path"] == "record.events[2]"
    assert raised.value.breakdown is not None


def test_at_most_400_events() -> None:
    # A schema limit, as every other: the record is refused before it is replayed.
    body = {"record": {"deal": DEAL, "events": [{"seat": "E", "discard": "2s"}] * 401}}
    assert fault(body, "invalid_request") == ("record.events", f"at most {MAX_EVENTS} items")


def test_play_yields_what_each_seat_sees() -> None:
    # Before N's draw: W has punged E's 1m and discarded 9p. S sees the 9p and W's pung;
    # W's pung is its own meld, not among what it sees.
    loaded = engine._REPLAY.load(record("E:d1m W:p111m W:d9p N:D3z"))
    seen = {
        index: (event.given, {seat: table.position(seat) for seat in "ESWN"})
        for index, event, table in replays.play(loaded["record"])
    }
    given, positions = seen[3]
    assert given == ("draw",)
    south = positions["S"]
    assert south.tiles == tuple(t.parse("234p567p789s33z55z"))
    assert (t.compact(south.visible), south.melds) == ("111m9p", ())
    west = positions["W"]
    assert t.compact(west.visible) == "9p"
    assert [meld.text for meld in west.melds] == ["111m"]
    assert t.compact(west.tiles or ()) == "1999m11199p5z"  # its 9p discarded
    # 69 draws left, N draws next: N gets 18 of them (the 1st, 5th, ... 69th), E, S, W 17.
    assert [positions[seat].draws_left for seat in "NESW"] == [18, 17, 17, 17]
    # Before W's discard, W in turn: the draws go N, E, S, W: N 18 again, W 17.
    assert [seen[2][1][seat].draws_left for seat in "NESW"] == [18, 17, 17, 17]


def test_the_endpoint_answers_as_the_engine(client: FlaskClient) -> None:
    body = ENDINGS["robbing_kong"][0]
    response = client.post("/v1/replay", json=body)
    assert response.status_code == 200
    assert response.get_json() == engine.replay(body)
    response = client.post("/v1/replay", json=FAULTS["a fifth copy"][0])
    assert response.status_code == 422
    assert response.get_json()["code"] == "invalid_record"


def test_a_sheet_settles_a_record_as_replayed() -> None:
    answer = engine.replay(ENDINGS["discard"][0])
    sheet = engine.settle(
        {
            "hands": [
                {"record": ENDINGS["discard"][0]["record"]},
                {"record": record("E:d2s S:D6s S:d6s W:D4z W:d4z", record={"wall": 2})["record"]},
            ]
        }
    )
    value = answer["score"]["score"]
    paid = answer["score"]["payments"]
    assert sheet["hands"][0] == {"score": value, "winner": "S", "payments": paid}
    assert sheet["hands"][1] == {"draw": True}
    with pytest.raises(Problem) as raised:
        engine.settle({"hands": [{"record": record("E:d2s S:D6s")["record"]}]})
    assert raised.value.errors[0]["path"] == "hands[0].record.events"
    with pytest.raises(Problem) as raised:
        engine.settle({"hands": [FAULTS["a fifth copy"][0]]})
    assert raised.value.errors[0] == {"path": "hands[0].record.events[1]", "message": "a fifth 5z"}


@st.composite
def altered(draw: st.DrawFn) -> dict[str, Any]:
    """A record of ``ENDINGS`` with one to three of its events dropped, doubled, swapped with
    the next, given to another seat, or given another tile or action: mostly broken records,
    some still legal (a seat's draw swapped for another tile)."""
    body = copy.deepcopy(draw(st.sampled_from([body for body, *_ in ENDINGS.values()])))
    played = body["record"]["events"]
    for _ in range(draw(st.integers(1, 3))):
        if not played:
            break
        at = draw(st.integers(0, len(played) - 1))
        change = draw(st.sampled_from(["drop", "double", "swap", "seat", "tile", "action"]))
        event = played[at]
        if change == "drop":
            del played[at]
        elif change == "double":
            played.insert(at, copy.deepcopy(event))
        elif change == "swap" and at + 1 < len(played):
            played[at], played[at + 1] = played[at + 1], played[at]
        elif change == "seat":
            event["seat"] = draw(st.sampled_from("ESWN"))
        else:
            action = next(key for key in event if key not in ("seat", "tiles"))
            value = event.pop(action)
            if change == "action":
                action = draw(st.sampled_from(list(ACTIONS.values())))
            if action in ("flower", "season"):
                value = draw(st.integers(1, 4))
            elif change == "tile" or not isinstance(value, str):
                # As many copies of one tile as the value had tiles (a meld's three or four).
                copies = len(value) - 1 if isinstance(value, str) and len(value) > 2 else 1
                value = t.repeated(draw(st.integers(0, t.KINDS - 1)), copies)
            event[action] = value
    return body


@given(altered())
@settings(max_examples=400, deadline=None, derandomize=True, database=None)
def test_an_altered_record_is_replayed_or_refused_at_a_record_path(body: dict[str, Any]) -> None:
    try:
        answer = engine.replay(body)
    except Problem as problem:
        # invalid_request: an action given tiles its schema refuses (a draw of three tiles).
        assert problem.code in ("invalid_record", "invalid_request", "not_a_winning_hand")
        assert problem.errors[0]["path"].startswith("record.")
        return
    if answer["end"] == "win":
        scored_alike(answer)
    else:
        assert "score" not in answer and "request" not in answer


def spelled(loaded: dict[str, Any]) -> tuple[Any, ...]:
    """A loaded replay request as plain values, to compare two loads."""
    record = loaded["record"]
    played = tuple((e.seat, e.given, e.tiles, e.number, e.revealed) for e in record.events)
    return record.deal, record.wall, played, loaded["rules"]


@pytest.mark.parametrize("name", ENDINGS)
def test_the_fast_path_loads_a_hidden_record_as_marshmallow_does(name: str) -> None:
    # A hidden seat's deal and draws are nulls: the fast path takes them (no doubt, so no
    # marshmallow: ten times the cost), and loads what marshmallow loads.
    body = ENDINGS[name][0]
    view = hidden(body, *"ESWN"[1:])
    schema = ReplayRequestSchema()
    for payload in (body, view):
        assert spelled(fast_loader(schema).load(payload)) == spelled(schema.load(payload))
    # A null where none is allowed is still refused, as marshmallow refuses it.
    for where, wrong in (("discard", None), ("seat", None)):
        broken = copy.deepcopy(view)
        broken["record"]["events"][0][where] = wrong
        path, message = fault(broken, "invalid_request")
        assert (path, message) == (f"record.events[0].{where}", "must not be null")
