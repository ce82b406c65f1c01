"""Hand analysis (RULES.md §7, API.md "Hand analysis"): shanten, useful tiles, discards.

Each value below was worked out by hand from the hand's tiles; the comment beside it says how.
The tests at the end hold the analysis to the definition of shanten on dealt hands, 0 to 6 from
ready, with melds and excluded forms: an oracle written apart from the service
(``tests/support/oracle.py``) counts it, and every draw and discard is checked against it.
"""

from __future__ import annotations

import random
from itertools import product
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service import engine
from service.domain.analysis import distance
from service.domain.analysis.analysis import Shape
from service.domain.analysis.distance import distances
from service.domain.rules import tiles as t
from service.domain.rules.decompose import Form
from service.domain.rules.hand import Meld, Win
from service.problems import Problem

from .support import handgen, oracle
from .support.strategies import _randoms


def waits_body(tiles: str, *melds: tuple[str, str], **top: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "hand": {"tiles": tiles, "melds": [{"kind": k, "tiles": m} for k, m in melds]},
        "win": {"seat": "E"},
    }
    body.update(top)
    return body


def analysed(tiles: str, *melds: tuple[str, str], **top: Any) -> tuple[int, list[str], int]:
    """A 13-tile hand's shanten, useful tiles (as "tile:remaining") and their sum."""
    answer = engine.waits(waits_body(tiles, *melds, **top))
    useful = [f"{u['tile']}:{u['remaining']}" for u in answer["useful"]]
    assert answer["useful_remaining"] == sum(u["remaining"] for u in answer["useful"])
    return answer["shanten"], useful, answer["useful_remaining"]


def every_tile_but(*held: str) -> list[str]:
    return [t.repeated(tile) for tile in range(t.KINDS) if t.repeated(tile) not in held]


# --- shanten and useful tiles, by hand ------------------------------------------------------


def test_a_wins_other_way_changes_its_way_and_discarder_only() -> None:
    """``Win.way`` builds the win ``replace`` would (every field given, none left default)."""
    given = {"by": "self_draw", "seat": "W", "discarder": None, "last_tile": True,
             "kong_replacement": True, "robbing_kong": True, "first_turn": True,
             "responsible": "N", "pay_as_self_draw": True, "go_around": (("N", 3),)}  # fmt: skip
    assert set(given) == set(Win.FIELDS), "a field of Win's own: give it here and in Win.way"
    win = Win(**given)
    assert win.way("discard", "S") == win.replace(by="discard", discarder="S")


def test_a_ready_hand_is_shanten_0_and_its_useful_tiles_are_its_waits() -> None:
    # 123m 456p 789s 11z + 55z: a pung of 1z or 5z (shanpon), two of each left.
    answer = engine.waits(waits_body("123m456p789s1155z"))
    assert answer["shanten"] == 0
    assert [u["tile"] for u in answer["useful"]] == [w["tile"] for w in answer["waits"]]
    assert [(u["tile"], u["remaining"]) for u in answer["useful"]] == [("1z", 2), ("5z", 2)]
    assert answer["useful_remaining"] == 4


def test_one_from_ready_lists_every_tile_that_makes_it_ready() -> None:
    # 123m 456p 789s + 112s 5z: two tiles short (e.g. 3s for 123s and a 5z for the pair).
    # One tile away from ready: 1s (111s), 2s (11s + 222s wanted), 3s (123s), 4s (11s + 24s),
    # 5z (55z + 12s); 1s has 2 copies left, 2s and 5z 3, the others 4.
    assert analysed("123m456p789s112s5z") == (1, ["1s:2", "2s:3", "3s:4", "4s:4", "5z:3"], 16)


def test_shanten_counts_the_tiles_a_hand_lacks() -> None:
    # 147m 258p 369s 1234z: no two tiles within two of each other, no pair. Regular: four
    # sets of two tiles more each and a pair of one more, less one: 8. Seven Pairs: 6 - 0 = 6.
    # Thirteen Terminals: 1m 9s 1234z are 6 orphans, no pair: 13 - 6 = 7.
    shanten, useful, _ = analysed("147m258p369s1234z")
    assert shanten == 6
    # Only a tile that pairs a held one helps Seven Pairs (each of the 13 held kinds).
    assert useful == [
        f"{tile}:3"
        for tile in (["1m", "4m", "7m", "2p", "5p", "8p", "3s", "6s", "9s", "1z", "2z", "3z", "4z"])
    ]


def test_a_wait_on_a_tile_held_four_times_is_none() -> None:
    # 1111m 234p 567p 789s: four sets and 1m, waiting on a fifth 1m; standard tables say 0.
    # Draw anything else, discard a 1m: 111m + that tile waits on its pair. So every tile
    # but 1m is useful (33 kinds).
    shanten, useful, _ = analysed("1111m234p567p789s")
    assert shanten == 1
    assert [u.split(":")[0] for u in useful] == every_tile_but("1m")


def test_a_melded_pung_takes_its_copies_from_the_room_of_the_hand() -> None:
    # 555m declared, 5m 123p 456p 789p held: the pair would be a fourth 5m beside three in
    # the pung, held already: no wait. Every tile but 5m helps (draw, discard the 5m).
    shanten, useful, _ = analysed("5m123p456p789p", ("pung", "555m"))
    assert shanten == 1
    assert [u.split(":")[0] for u in useful] == every_tile_but("5m")


def test_four_alike_are_two_pairs_for_seven_pairs() -> None:
    # 1111m 22p 33p 44s 55s 6z: six pairs (1111m is two), waiting on 6z.
    assert analysed("1111m2233p4455s6z") == (0, ["6z:3"], 3)


def test_seven_pairs_is_counted_and_excluding_it_removes_it() -> None:
    # 11 33 55 77 99m 1p 3p 5p: five pairs, 6 - 5 = 1; the useful tiles pair the singles.
    assert analysed("1133557799m135p") == (1, ["1p:3", "3p:3", "5p:3"], 9)
    # Without 10.2 the regular form alone: no set, four blocks at most (pairs and the gapped
    # 13p, 35p): 8 - 4 - 1 for the pair = 3.
    rules = {"exclude": ["10.2"]}
    shanten, useful, _ = analysed("1133557799m135p", rules=rules)
    assert shanten == 3
    assert "1p:3" not in useful and "2m:4" in useful  # 2m makes 123m; 1p only another pair


def test_thirteen_terminals_waits_thirteen_ways() -> None:
    answer = engine.waits(waits_body("19m19p19s1234567z"))
    assert answer["shanten"] == 0
    assert [w["tile"] for w in answer["waits"]] == [t.repeated(tile) for tile in t.ORPHANS]
    assert {w["self_draw"]["score"] for w in answer["waits"]} == {160}


def test_thirteen_terminals_excluded_is_no_way_to_win() -> None:
    # The same 12 orphans with 6z paired: 13 - 12 - 1 = 0, waiting on 7z; without 10.1 only
    # Seven Pairs (one pair: 6 - 1 = 5) and the regular form (worse) remain.
    assert analysed("19m19p19s1234566z") == (0, ["7z:4"], 4)
    shanten, _, _ = analysed("19m19p19s1234566z", rules={"exclude": ["10.1"]})
    assert shanten == 5


def test_irregular_forms_need_a_hand_without_melds() -> None:
    # 123m declared; 11p 55p 88s 11z 33z: five pairs, but no Seven Pairs beside a meld.
    # Regular: the meld, three pairs as blocks and one as the pair: 8 - 2 - 3 - 1 = 2.
    assert analysed("1155p88s1133z", ("chow", "123m"))[0] == 2
    # The same pairs and 147m, no meld: Seven Pairs, 6 - 5 = 1.
    assert analysed("147m1155p88s1133z")[0] == 1


def test_visible_lowers_remaining_never_shanten() -> None:
    plain = engine.waits(waits_body("123m456p789s1155z"))
    seen = engine.waits(waits_body("123m456p789s1155z", visible="5z1z9p"))
    assert seen["shanten"] == plain["shanten"] == 0
    assert [(u["tile"], u["remaining"]) for u in seen["useful"]] == [("1z", 1), ("5z", 1)]
    assert [w["remaining"] for w in seen["waits"]] == [1, 1]
    # A tile all of whose copies are seen is still useful, with none remaining.
    gone = engine.waits(waits_body("123m456p789s1155z", visible=["5z", "5z"]))
    assert [(u["tile"], u["remaining"]) for u in gone["useful"]] == [("1z", 2), ("5z", 0)]


def test_a_fifth_copy_counting_visible_is_an_invalid_hand() -> None:
    with pytest.raises(Problem) as raised:
        engine.waits(waits_body("123m456p789s1155z", visible="5z5z5z"))
    assert raised.value.code == "invalid_hand"
    assert [e["path"] for e in raised.value.errors] == ["visible"]


# --- discards, by hand ------------------------------------------------------------------------


def discards(tiles: str, *melds: tuple[str, str], **top: Any) -> dict[str, Any]:
    return engine.discards(waits_body(tiles, *melds, **top))


def test_discards_rank_ready_discards_first_then_useful_copies() -> None:
    # 123m 456p 789s 11233s. Discarding 3s keeps 1123s (11s + 23s: 1s, 4s; 2 + 4 left);
    # 2s keeps 1133s (1s or 3s; 2 + 2 left); 1s keeps 1233s (123s + 3s, 33s + 12s: 3s; 2 left).
    # Any other discard breaks a set: one from ready.
    answer = discards("123m456p789s11233s")
    assert answer["shanten"] == 0
    ranked = [(d["tile"], d["shanten"], d["useful_remaining"]) for d in answer["discards"]]
    assert ranked[:3] == [("3s", 0, 6), ("2s", 0, 4), ("1s", 0, 2)]
    assert all(shanten == 1 for _, shanten, _ in ranked[3:])
    best = answer["discards"][0]
    assert [w["tile"] for w in best["waits"]] == ["1s", "4s"]
    # 4s: 234s with the pair 11s, all chows and concealed: 1.1 + 1.2 = 10 each way.
    assert best["waits"][1]["self_draw"] == {
        "score": 10, "points": 10, "limit": "none", "patterns": ["1.1", "1.2"]
    }  # fmt: skip
    assert "waits" not in answer["discards"][3]


def test_the_discarded_tile_counts_as_seen() -> None:
    # Discarding 2s keeps 1133s: 1s and 3s have 4 - 2 held left each.
    answer = discards("123m456p789s11233s")
    by_tile = {d["tile"]: d for d in answer["discards"]}
    assert [(u["tile"], u["remaining"]) for u in by_tile["2s"]["useful"]] == [("1s", 2), ("3s", 2)]
    # Discarding 4p keeps 56p: 4p is useful again, with 3 left, the discarded one gone.
    assert ("4p", 3) in [(u["tile"], u["remaining"]) for u in by_tile["4p"]["useful"]]


def test_a_hand_that_already_wins_is_shanten_minus_one_and_lists_its_discards() -> None:
    answer = discards("123m456p789s11234s")
    assert answer["shanten"] == -1
    assert answer["discards"] and all(d["shanten"] == 0 for d in answer["discards"])


def test_a_wait_below_the_minimum_is_null() -> None:
    # 234m 567p 345s 678s 99s wins already; every ready discard's waits make all chows,
    # concealed, with a 9s: 1.1 + 1.2 = 10, below a minimum of 15, so each way is null.
    answer = discards("234m567p345s678s99s", rules={"minimum": 15})
    ready = [d for d in answer["discards"] if d["shanten"] == 0]
    assert ready
    assert all(w["self_draw"] is None and w["discard"] is None for d in ready for w in d["waits"])


def test_discards_with_melds_and_flags() -> None:
    # 777z declared; 123m 456p 2355s 9s: discarding 9s leaves 23s and the pair 55s: 1s or 4s.
    answer = discards("123m456p2355s9s", ("pung", "777z"), win={"seat": "S", "last_tile": True})
    best = answer["discards"][0]
    assert best["tile"] == "9s" and best["shanten"] == 0
    assert [w["tile"] for w in best["waits"]] == ["1s", "4s"]
    # Red pung 10 + Final Draw / Final Discard 10 = 20 each way.
    assert {w["self_draw"]["score"] for w in best["waits"]} == {20}
    assert set(best["waits"][0]["discard"]["patterns"]) == {"3.1", "9.1.2"}


@pytest.mark.parametrize(
    ("body", "code", "path"),
    [
        (waits_body("123m456p789s1155z"), "invalid_hand", "hand.tiles"),  # 13, not 14
        (waits_body("123m456p789s11555z", visible="5z5z"), "invalid_hand", "visible"),
        (waits_body("123m456p789s1155z5z", visible="x"), "invalid_request", "visible"),
        (waits_body("123m456p789s1155z5z", visible=["1m"] * 137), "invalid_request", "visible"),
        (waits_body("123m456p789s1155z5z", visible="1m" * 201), "invalid_request", "visible"),
        (waits_body("123m456p789s11555z", win={"seat": "E", "by": "discard"}),
         "invalid_request", "win.by"),
    ],
)  # fmt: skip
def test_bad_discards_requests_name_the_field(body: dict[str, Any], code: str, path: str) -> None:
    with pytest.raises(Problem) as raised:
        engine.discards(body)
    assert raised.value.code == code
    assert path in [e["path"] for e in raised.value.errors]


def test_a_winning_tile_given_to_discards_is_refused_at_its_path(client: FlaskClient) -> None:
    body = waits_body("123m456p789s11555z")
    body["hand"]["winning_tile"] = "5z"
    response = client.post("/v1/discards", json=body)
    assert response.status_code == 422
    assert response.get_json()["code"] == "invalid_request"
    assert [e["path"] for e in response.get_json()["errors"]] == ["hand.winning_tile"]


def test_discards_over_http(client: FlaskClient) -> None:
    response = client.post("/v1/discards", json=waits_body("123m456p789s11233s"))
    assert response.status_code == 200
    assert response.get_json() == discards("123m456p789s11233s")


# --- shanten against its definition -----------------------------------------------------------

# The irregular forms a table may drop (RULES.md §6): the forms each exclusion leaves.
EXCLUSIONS: dict[tuple[str, ...], frozenset[Form]] = {
    (): frozenset({"standard", "seven_pairs", "thirteen_terminals"}),
    ("10.1",): frozenset({"standard", "seven_pairs"}),
    ("10.2",): frozenset({"standard", "thirteen_terminals"}),
    ("10.1", "10.2"): frozenset({"standard"}),
}


def dealt(rng: Any, size: int) -> tuple[list[int], tuple[Meld, ...]]:
    """A hand of ``size`` tiles (less 3 per meld), never a fifth copy of a kind: a third of them
    dealt off a shuffled wall, the rest a winning shape (with its melds) with up to 12 tiles
    swapped for others, near ready and far from it."""
    if rng.randrange(3) == 0:
        wall = [tile for tile in range(t.KINDS) for _ in range(4)]
        return t.counts(tuple(rng.sample(wall, size))), ()
    shape = handgen.draw_shape(rng)
    melds = tuple(Meld(kind, min(tiles), concealed, True) for kind, tiles, concealed in shape.melds)
    held = list(shape.concealed)
    room = [4 - count for count in _melded(melds)]
    for _ in range(rng.randrange(13)):
        held.pop(rng.randrange(len(held)))
        counts = t.counts(tuple(held))
        held.append(rng.choice([tile for tile in range(t.KINDS) if counts[tile] < room[tile]]))
    if size == 13:
        held.pop(rng.randrange(len(held)))
    return t.counts(tuple(held)), melds


@st.composite
def hands(draw: st.DrawFn, size: int) -> tuple[list[int], tuple[Meld, ...]]:
    return dealt(draw(_randoms()), size)


def _melded(melds: tuple[Meld, ...]) -> list[int]:
    copies = [0] * t.KINDS
    for meld in melds:
        for tile in meld.tiles:
            copies[tile] += 1
    return copies


def _body(counts: list[int], melds: tuple[Meld, ...], exclude: tuple[str, ...]) -> dict[str, Any]:
    declared = [
        {"kind": meld.kind, "tiles": t.compact(meld.tiles), "concealed": meld.concealed}
        for meld in melds
    ]
    return {
        "hand": {"tiles": _written(counts), "melds": declared},
        "win": {"seat": "S"},
        "rules": {"exclude": list(exclude)},
    }


def held_to_definition(counts: list[int], melds: tuple[Meld, ...], exclude: tuple[str, ...]) -> int:
    """Check POST /v1/waits' shanten and useful tiles for 13 tiles against the definition;
    the shanten."""
    forms = EXCLUSIONS[exclude]
    melded = _melded(melds)
    expected = oracle.shanten(counts, len(melds), melded, forms)
    # Each drawable tile (fewer than four held, melds included): -1 if it wins, else the best
    # shanten a discard after it leaves.
    after: dict[int, int] = {}
    for tile in range(t.KINDS):
        if counts[tile] + melded[tile] >= 4:
            continue
        counts[tile] += 1
        if oracle.wins(counts, len(melds), forms):
            after[tile] = -1
        else:
            after[tile] = min(
                oracle.shanten(_without(counts, out), len(melds), melded, forms)
                for out in range(t.KINDS)
                if counts[out]
            )
        counts[tile] -= 1
    # The definition: ready when a drawable tile wins; n when some draw and discard reach
    # n - 1, none lower.
    assert (expected == 0) == (-1 in after.values())
    assert min(after.values()) == expected - 1
    answer = engine.waits(_body(counts, melds, exclude))
    assert answer["shanten"] == expected
    useful = [tile for tile, reached in after.items() if reached < expected]
    assert [u["tile"] for u in answer["useful"]] == [t.repeated(tile) for tile in useful]
    # The 14 tiles after each draw (POST /v1/discards' own shanten): -1 if they win.
    shape = Shape(melds, forms)
    for tile, reached in after.items():
        counts[tile] += 1
        assert shape.shanten(counts) == reached
        counts[tile] -= 1
    return expected


def _without(counts: list[int], tile: int) -> list[int]:
    rest = list(counts)
    rest[tile] -= 1
    return rest


@pytest.mark.sweep
def test_shanten_from_0_to_6_meets_its_definition() -> None:
    # A fixed draw of hands (seeded, so the spread below holds every run): random deals and
    # worked-over winning shapes, with melds, under each exclusion of the irregular forms. One
    # hand of each shanten for each exclusion, with melds and without, is held to the
    # definition: the draw is mostly 2 to 4 from ready, and this spreads the checks.
    rng = random.Random(41)
    checked: set[tuple[bool, tuple[str, ...], int]] = set()
    for _ in range(400):
        counts, melds = dealt(rng, 13)
        exclude = rng.choice(sorted(EXCLUSIONS))
        forms = EXCLUSIONS[exclude]
        bucket = (bool(melds), exclude, oracle.shanten(counts, len(melds), _melded(melds), forms))
        if bucket not in checked:
            held_to_definition(counts, melds, exclude)
            checked.add(bucket)
    for melded, exclude in product((False, True), EXCLUSIONS):
        assert {n for m, e, n in checked if (m, e) == (melded, exclude)} >= set(range(4))
    assert {n for m, _, n in checked if not m} >= set(range(7))
    assert {n for m, _, n in checked if m} >= set(range(5))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands(13), st.sampled_from(sorted(EXCLUSIONS)))
def test_shanten_and_useful_tiles_meet_the_definition(
    hand: tuple[list[int], tuple[Meld, ...]], exclude: tuple[str, ...]
) -> None:
    held_to_definition(*hand, exclude)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands(14))
def test_ready_discards_wait_and_score_as_waits_and_score_do(
    hand: tuple[list[int], tuple[Meld, ...]],
) -> None:
    counts, melds = hand
    tiles = _written(counts)
    declared = [
        {"kind": meld.kind, "tiles": t.compact(meld.tiles), "concealed": meld.concealed}
        for meld in melds
    ]
    body = {"hand": {"tiles": tiles, "melds": declared}, "win": {"seat": "S"}}
    answer = engine.discards(body)
    for discard in answer["discards"]:
        if discard["shanten"] != 0:
            continue
        rest = list(counts)
        rest[t.parse(discard["tile"])[0]] -= 1
        held = _written(rest)
        waits = engine.waits({**body, "hand": {**body["hand"], "tiles": held}})
        assert [w["tile"] for w in discard["waits"]] == [w["tile"] for w in waits["waits"]]
        for compact, full in zip(discard["waits"], waits["waits"], strict=True):
            for way in ("self_draw", "discard"):
                if full[way] is None:
                    assert compact[way] is None
                    continue
                assert compact[way] == {
                    "score": full[way]["score"], "points": full[way]["points"],
                    "limit": full[way]["limit"],
                    "patterns": [p["id"] for p in full[way]["patterns"]],
                }  # fmt: skip
            scored = engine.score(
                {
                    "hand": {**body["hand"], "tiles": held + compact["tile"],
                             "winning_tile": compact["tile"]},
                    "win": {"seat": "S", "by": "self_draw"},
                }
            )  # fmt: skip
            assert scored["score"] == compact["self_draw"]["score"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands(14), st.sampled_from(sorted(EXCLUSIONS)))
def test_with_expect_the_hands_are_read_as_without(
    hand: tuple[list[int], tuple[Meld, ...]], exclude: tuple[str, ...]
) -> None:
    """With ``expect``, /v1/discards and /v1/waits read the shanten and useful tiles from the
    search's tables (``Outlook``), not the analysis' own (``Shape``): the same answers, for
    the 14 tiles, each discard, and the 13 tiles of the first, with melds and under each
    exclusion of the irregular forms."""
    counts, melds = hand
    body = _body(counts, melds, exclude)
    expect = {"draws_left": 1}
    plain = engine.discards(body)
    searched = engine.discards({**body, "expect": expect})
    assert searched["shanten"] == plain["shanten"]
    read = ("shanten", "useful", "waits")
    by_tile = {d["tile"]: [d.get(key) for key in read] for d in searched["discards"]}
    assert by_tile == {d["tile"]: [d.get(key) for key in read] for d in plain["discards"]}
    first = next(tile for tile, count in enumerate(counts) if count)
    body = _body(_without(counts, first), melds, exclude)
    plain = engine.waits(body)
    searched = engine.waits({**body, "expect": expect})
    assert [searched[key] for key in read] == [plain[key] for key in read]


def _written(counts: list[int]) -> str:
    return t.compact([tile for tile in range(t.KINDS) for _ in range(counts[tile])])


def test_suit_distances_by_hand() -> None:
    # One suit, 1m 2m: a chow needs 3m (1 tile); a chow and the pair, 3m and two of any (3).
    found = distances([1, 1, 0, 0, 0, 0, 0, 0, 0], [4] * 9, True)
    assert found[2 * 1 + 0] == 1
    assert found[2 * 1 + 1] == 3
    assert found[2 * 0 + 1] == 1  # a pair: another 1m or 2m
    assert found[0] == 0
    # Honours never run: 1z 2z 3z make no set but a pung from one of them (2 tiles).
    honours = distances([1, 1, 1, 0, 0, 0, 0], [4] * 7, False)
    assert honours[2] == 2
    # 1111m: a set and the pair is 111m + 22m or 123m + 11m (2 tiles), never 111m + a fifth 1m.
    assert distances([4, 0, 0, 0, 0, 0, 0, 0, 0], [4] * 9, True)[2 * 1 + 1] == 2
    # With room for one more 1m only (three in a melded pung elsewhere... here: room 1): 1m
    # alone, a pair needs another 1m (room 1 allows it), a pung does not fit.
    assert distances([1, 0, 0, 0, 0, 0, 0, 0, 0], [2] + [4] * 8, True)[1] == 1
    assert distances([1, 0, 0, 0, 0, 0, 0, 0, 0], [2] + [4] * 8, True)[2] == 2  # 123m


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands(14), st.randoms(use_true_random=False))
def test_the_order_of_the_tiles_never_changes_the_analysis(
    hand: tuple[list[int], tuple[Meld, ...]], rng: Any
) -> None:
    counts, melds = hand
    tiles = [tile for tile in range(t.KINDS) for _ in range(counts[tile])]
    declared = [{"kind": meld.kind, "tiles": t.compact(meld.tiles)} for meld in melds]
    body = {"hand": {"tiles": t.compact(tiles), "melds": declared}, "win": {"seat": "W"}}
    rng.shuffle(tiles)
    rng.shuffle(declared)
    shuffled = {"hand": {"tiles": [t.repeated(tile) for tile in tiles], "melds": declared},
                "win": {"seat": "W"}}  # fmt: skip
    assert engine.discards(shuffled) == engine.discards(body)


def test_the_suits_table_is_complete_and_holds_the_counted_distances() -> None:
    """service/domain/analysis/suits.bin (scripts/suit_table.py): every suit the melds leave
    whole with at most 14 tiles; a sample of them read from it equals ``distances`` counted now,
    and a suit the melds touch, or of more tiles, is counted, not read."""
    assert len(distance.TABLE) == distance._WAYS[9][14] + distance._sizes(7)[7][14] == 448_480
    rng = random.Random(7)
    for _ in range(3000):
        places = rng.choice((9, 7))
        counts = [0] * places
        for _ in range(rng.randrange(15)):
            place = rng.randrange(places)
            counts[place] = min(4, counts[place] + 1)
        suit = 0 if places == 9 else 3
        key = sum(c * 5**p for p, c in enumerate(counts)) + suit * distance.SUIT
        assert distance.tabled(key, counts) == distances(counts, [4] * places, places == 9)
    assert distance.tabled(4 * distance.SUIT + 1, [1] + [0] * 8) is None  # a meld in the suit
    assert distance.rank([4, 4, 4, 3, 0, 0, 0, 0, 0]) == -1  # 15 tiles
    assert distance.rank([0] * 9) == 0 and distance.rank([0] * 8 + [1]) == 1
