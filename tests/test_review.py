"""POST /v1/replay's ``review`` (API.md "Hand records"): each decision of a reviewed seat, its
figures as the analysis endpoints answer its ``position``, that position as the self-play
generator's own books have it, the grades by the contract's thresholds, the summary, and the
claim chances listed exactly.

The searches run with a small state budget on short walls (few draws left): the figures are
the model's all the same, compared with what the endpoints answer under that budget.
"""

from __future__ import annotations

import io
import json
import random
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from service import cli, engine
from service.domain.analysis.expectation import Model, Outlooks
from service.domain.records import review as reviews
from service.domain.records.review import graded
from service.domain.rules.hand import Hand, Rules
from service.domain.rules.tiles import parse
from service.operations import OPERATIONS
from service.problems import Problem
from service.request import ReplayRequestSchema, loader
from tests.support import selfplay

BUDGET = "1500"


@pytest.fixture(autouse=True)
def _small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ZJ_EXPECT_STATES", BUDGET)


@cache
def hands() -> tuple[selfplay.Played, ...]:
    return tuple(selfplay.play(random.Random(seed), wall=24) for seed in (3, 11))


@cache
def reviewed(index: int, objective: str = "expected_score") -> dict[str, Any]:
    played = hands()[index]
    body = {
        **played.payload(),
        "review": {"expect": {"discard_rate": 0.25, "objective": objective}},
    }
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ZJ_EXPECT_STATES", BUDGET)
        return engine.replay(body)


def decisions(answer: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [
        (seat, decision)
        for seat, review in answer["review"]["seats"].items()
        for decision in review["decisions"]
    ]


def figures(entry: dict[str, Any]) -> dict[str, Any]:
    return {key: entry[key] for key in ("shanten", "useful_remaining", "expected")}


@pytest.mark.sweep
@pytest.mark.parametrize("index", [0, 1])
def test_each_decision_s_figures_are_its_position_s(index: int) -> None:
    """Sent to its endpoint, a decision's position answers its figures: a discard's played
    and best discards (the best first, the fastest first without ``expect``), a claim's
    option played (passing and a kong by /v1/waits, a pung or chow by its best discard, a
    win by /v1/score)."""
    for seat, decision in decisions(reviewed(index)):
        position = decision["position"]
        played = decision["played"]
        if decision["kind"] == "discard":
            answer = engine.discards(position)
            by_tile = {entry["tile"]: entry for entry in answer["discards"]}
            assert figures(by_tile[played]) == decision["played_figures"], (seat, decision)
            assert figures(by_tile[decision["best"]]) == decision["best_figures"]
            assert answer["discards"][0]["tile"] == decision["best"]
            assert len(by_tile) == decision["of"]
            fast = engine.discards({k: v for k, v in position.items() if k != "expect"})
            assert fast["discards"][0]["tile"] == decision["fastest"]
        elif played == "win":
            score = engine.score(position)["score"]
            assert decision["played_figures"]["expected"]["expected_score"] == score
            assert decision["played_figures"]["expected"]["win_probability"] == 1
        elif played in ("pass", "kong"):
            answer = engine.waits(position)
            assert {**figures(answer), "expected": answer["expected"]} == decision["played_figures"]
        else:
            answer = engine.discards(position)
            assert figures(answer["discards"][0]) == decision["played_figures"]


@pytest.mark.parametrize("index", [0, 1])
def test_a_discard_s_position_is_the_generator_s(index: int) -> None:
    """Every discard of a reviewed seat is a decision, at the generator's own position: the
    tiles, melds and visible tiles as its books have them, and the draws still coming."""
    played = hands()[index]
    made = {(d["position"]["win"]["seat"], d["event"]): d for _, d in decisions(reviewed(index))}
    discards = [p for p in played.positions]
    assert len([d for d in made.values() if d["kind"] == "discard"]) == len(discards)
    for position in discards:
        decision = made[(position.seat, position.event)]
        assert decision["kind"] == "discard"
        body = decision["position"]
        assert Counter(parse(body["hand"]["tiles"])) == Counter(position.tiles)
        assert sorted(Counter(parse(m["tiles"])).most_common() for m in body["hand"]["melds"]) == (
            sorted(Counter(m.tiles).most_common() for m in position.melds)
        )
        assert Counter(parse(body.get("visible", ""))) == Counter(position.visible)
        assert body["expect"]["draws_left"] == decision["draws_left"] == position.draws_left
        record_event = played.record["events"][position.event]
        assert record_event == {"seat": position.seat, "discard": decision["played"]}


@pytest.mark.sweep
@pytest.mark.parametrize("objective", ["expected_score", "win_probability"])
def test_the_best_is_best_by_the_objective_and_the_rank_counts_those_better(
    objective: str,
) -> None:
    """``best`` has the highest figure of the objective among the options, ``rank`` is one
    more than the options worth more than the one played, ``loss`` the difference: a review
    ranking by another figure (the shanten, or the expected score under win_probability)
    fails here."""
    key = objective
    checked = differs = 0
    for index in (0, 1):
        for _, decision in decisions(reviewed(index, objective)):
            if decision["kind"] == "discard":
                answer = engine.discards(decision["position"])
                options = {e["tile"]: e["expected"] for e in answer["discards"]}
            else:
                options = {o["play"]: o["expected"] for o in decision["options"]}
            worth = {play: e[key] for play, e in options.items() if e is not None}
            if not worth:
                assert decision["grade"] == "not_assessed"
                continue
            checked += 1
            top = max(worth.values())
            assert worth[decision["best"]] == top
            mine = worth.get(decision["played"])
            if mine is None:
                assert decision["grade"] == "not_assessed"
                continue
            assert decision["rank"] == 1 + sum(1 for v in worth.values() if v > mine)
            assert decision["loss"] == round(top - mine, 4)
            other = "win_probability" if key == "expected_score" else "expected_score"
            differs += max(worth, key=lambda p: (options[p][other], p)) != decision["best"]
    assert checked > 20
    assert differs  # the two objectives part somewhere: the test can tell them apart


@pytest.mark.parametrize(
    ("best", "played", "objective", "loss", "grade"),
    [
        (10.0, 10.0, "expected_score", 0.0, "best"),
        (10.0, 9.0001, "expected_score", 0.9999, "good"),  # under 10%
        (10.0, 9.0, "expected_score", 1.0, "inaccuracy"),  # 10% is not under 10%
        (10.0, 7.5001, "expected_score", 2.4999, "inaccuracy"),
        (10.0, 7.5, "expected_score", 2.5, "mistake"),  # 25%
        (10.0, 5.0001, "expected_score", 4.9999, "mistake"),
        (10.0, 5.0, "expected_score", 5.0, "blunder"),  # half
        (10.0, 0.0, "expected_score", 10.0, "blunder"),
        (0.4, 0.1501, "expected_score", 0.2499, "good"),  # 62% lost, but under 0.25 points
        (0.4, 0.15, "expected_score", 0.25, "blunder"),  # 0.25 points is not under
        (0.04, 0.0301, "win_probability", 0.0099, "good"),  # under 0.01 of win chance
        (0.04, 0.03, "win_probability", 0.01, "mistake"),  # 25% lost
        (0.5, 0.451, "win_probability", 0.049, "good"),  # 9.8%
        (0.5, 0.45, "win_probability", 0.05, "inaccuracy"),
        (None, 1.0, "expected_score", None, "not_assessed"),
        (3.0, None, "expected_score", None, "not_assessed"),
    ],
)
def test_the_grade_follows_the_thresholds(
    best: float | None, played: float | None, objective: str, loss: float | None, grade: str
) -> None:
    assert graded(best, played, objective) == (loss, grade)


@pytest.mark.parametrize("index", [0, 1])
def test_the_summary_adds_up(index: int) -> None:
    for review in reviewed(index)["review"]["seats"].values():
        summary, made = review["summary"], review["decisions"]
        grades = Counter(decision["grade"] for decision in made)
        assert summary["decisions"] == len(made) == sum(summary["grades"].values())
        assert summary["grades"] == {
            grade: grades[grade]
            for grade in ("best", "good", "inaccuracy", "mistake", "blunder", "not_assessed")
        }
        assert summary["best"] == grades["best"]
        assert summary["assessed"] == len(made) - grades["not_assessed"]
        lost = sum(d["loss"] for d in made if d["loss"] is not None)
        assert summary["expected_lost"] == round(lost, 4)


# A hand-made record (API.md "Hand records"). East discards 6m: South (next) holds 45m and is
# otherwise complete (111p 222p 333p 77z), so it may win on it or chow 456m; West holds 78m,
# but only the next seat may chow; North holds 66m: a pung. South draws instead: every chance
# is passed. South's 9s is then open to West's chow (789s), but the record stops there.
DEAL = {
    "E": "16999m4578p115s56z",
    "S": "45m111222333p77z",
    "W": "78m123456789s12z",
    "N": "66m258s369p12347z",
}
EVENTS = [
    {"seat": "E", "discard": "6m"},
    {"seat": "S", "draw": "9s"},
    {"seat": "S", "discard": "9s"},
]


def claims(answer: dict[str, Any]) -> dict[str, list[tuple[int, str, list[str]]]]:
    return {
        seat: [
            (d["event"], d["played"], sorted(o["play"] for o in d["options"]))
            for d in review["decisions"]
            if d["kind"] == "claim"
        ]
        for seat, review in answer["review"]["seats"].items()
    }


def test_claim_chances_passed_are_listed_exactly() -> None:
    """A win and a chow passed by the next seat, a pung passed by another; no chow for a seat
    that is not next; a chance the record does not say the end of is not judged."""
    answer = engine.replay({"record": {"deal": DEAL, "events": EVENTS}, "review": {}})
    assert claims(answer) == {
        "E": [],
        "S": [(0, "pass", ["chow 456m", "pass", "win"])],
        "W": [],
        "N": [(0, "pass", ["pass", "pung"])],
    }
    south = answer["review"]["seats"]["S"]["decisions"]
    assert [d["kind"] for d in south] == ["claim", "discard"]
    win = next(o for o in south[0]["options"] if o["play"] == "win")
    assert win["expected"]["win_probability"] == 1
    assert south[0]["best"] == "win"
    assert south[0]["grade"] != "best"


def test_a_claim_made_overrides_what_it_takes_precedence_over() -> None:
    """North pungs East's 6m: South's chow was never its to make (a pung goes first), its
    win was (a win goes first), so South passed a win; North's own decision is the pung."""
    events = [
        {"seat": "E", "discard": "6m"},
        {"seat": "N", "pung": "666m"},
        {"seat": "N", "discard": "1z"},
    ]
    answer = engine.replay({"record": {"deal": DEAL, "events": events}, "review": {}})
    found = claims(answer)
    assert found["S"][0] == (0, "pass", ["pass", "win"])
    assert found["N"][0] == (0, "pung", ["pass", "pung"])
    pung = answer["review"]["seats"]["N"]["decisions"][0]
    assert pung["position"]["hand"]["melds"] == [
        {"kind": "pung", "tiles": "666m", "concealed": False}
    ]
    assert "visible" not in pung["position"]  # the claimed 6m left the table: nothing seen


def test_a_win_taken_is_a_claim_decision() -> None:
    """A win is valued as the model values wins (RULES.md §8): by discard, without the
    incidental patterns of the moment (here Earthly Hand, which the record's score counts)."""
    events = [{"seat": "E", "discard": "6m"}, {"seat": "S", "win": "6m"}]
    answer = engine.replay({"record": {"deal": DEAL, "events": events}, "review": {}})
    south = answer["review"]["seats"]["S"]["decisions"]
    assert [(d["played"], d["grade"]) for d in south] == [("win", "best")]
    valued = south[0]["played_figures"]["expected"]["expected_score"]
    assert engine.score(south[0]["position"])["score"] == valued < answer["score"]["score"]


def test_a_win_that_stands_only_with_the_moment_s_patterns_is_valued_with_them() -> None:
    """Under a minimum of 136 South's win (135 as the model counts it) stands only with
    Blessing of Earth: the option is that win, its position the /v1/score body that says so."""
    events = [{"seat": "E", "discard": "6m"}, {"seat": "S", "win": "6m"}]
    body = {"record": {"deal": DEAL, "events": events}, "rules": {"minimum": 136}}
    answer = engine.replay({**body, "review": {"seats": ["S"]}})
    decision = answer["review"]["seats"]["S"]["decisions"][0]
    assert decision["played"] == "win"
    assert decision["position"]["win"]["first_turn"] is True
    assert engine.score(decision["position"])["score"] == answer["score"]["score"]
    valued = decision["played_figures"]["expected"]["expected_score"]
    assert valued == answer["score"]["score"]


def test_hidden_seats_are_not_reviewable() -> None:
    deal = {**DEAL, "W": None}
    record = {"deal": deal, "events": EVENTS}
    answer = engine.replay({"record": record, "review": {}})
    assert list(answer["review"]["seats"]) == ["E", "S", "N"]
    with pytest.raises(Problem) as raised:
        engine.replay({"record": record, "review": {"seats": ["S", "W"]}})
    body = raised.value.body()
    assert raised.value.status == 422
    assert [error["path"] for error in body["errors"]] == ["review.seats[1]"]


@pytest.mark.parametrize(
    ("review", "path"),
    [
        ({"expect": {"draws_left": 5}}, "review.expect.draws_left"),
        ({"seat": ["S"]}, "review.seat"),
        ({"seats": ["S", "S"]}, "review.seats"),
        ({"seats": ["X"]}, "review.seats[0]"),
        ({"expect": {"objective": "speed"}}, "review.expect.objective"),
    ],
)
def test_a_review_is_checked_strictly(review: dict[str, Any], path: str) -> None:
    with pytest.raises(Problem) as raised:
        engine.replay({"record": {"deal": DEAL, "events": EVENTS}, "review": review})
    assert raised.value.body()["code"] == "invalid_request"
    assert [error["path"] for error in raised.value.body()["errors"]] == [path]


def test_without_review_the_answer_has_none() -> None:
    answer = engine.replay({"record": {"deal": DEAL, "events": EVENTS}})
    assert "review" not in answer


def test_the_answer_says_what_judged() -> None:
    review = engine.replay({"record": {"deal": DEAL, "events": EVENTS}, "review": {}})["review"]
    assert review["model"] == "solo-v1"
    assert "defence" in review["judged"]


def test_the_cli_prints_a_seat_s_review_as_a_table(tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    path.write_text(json.dumps({"record": {"deal": DEAL, "events": EVENTS}}), encoding="utf-8")
    out = io.StringIO()
    assert cli.main(["replay", str(path), "--review", "S"], stdout=out) == 0
    answer = engine.replay({"record": {"deal": DEAL, "events": EVENTS}, "review": {"seats": ["S"]}})
    lines = out.getvalue().splitlines()
    header = lines.index("S  event  kind     played      best        loss      grade")
    rows = [line.split() for line in lines[header + 1 : header + 3]]
    decisions = answer["review"]["seats"]["S"]["decisions"]
    assert rows == [
        [str(d["event"]), d["kind"], d["played"], d["best"], f"{d['loss']:g}", d["grade"]]
        for d in decisions
    ]
    assert "not its defence" in out.getvalue()


def test_a_review_is_long_work_given_the_server_s_pause() -> None:
    """With ``review`` the request waits its turn after single ones and takes the pause;
    without it, replaying is short work."""
    operation = OPERATIONS["/v1/replay"]
    body = {"record": {"deal": DEAL, "events": EVENTS}, "review": {}}
    assert operation.long(body) and operation.long_body(json.dumps(body).encode())
    assert not operation.long({"record": body["record"]})
    paused = []
    answer = operation.answer(body, lambda: paused.append(1))
    assert answer["review"]["seats"]["S"]["decisions"] and paused


def test_a_seat_s_outlook_is_kept_within_its_cap() -> None:
    """Kept across analyses of one seat with the same melds, made again when the melds
    change or its tables pass the cap: a review holds at most about one budget of them."""
    hand = Hand(tuple(parse("123m456p789s1122z")), (), 0)
    rules = Rules()
    kept = Outlooks(cap=5)
    first = kept.get(hand, (), "S", rules)
    assert kept.get(hand, (), "S", rules) is first
    assert kept.get(hand, (), "W", rules) is not first
    again = kept.get(hand, (), "S", rules)
    for tile in range(6):  # six hands' moves read: past the cap
        again.moves([1 if kind == tile else 0 for kind in range(34)])
    assert again.kept() == 6
    assert kept.get(hand, (), "S", rules) is not again


@pytest.mark.sweep
def test_a_meld_claimed_and_the_discard_after_it_are_searched_once() -> None:
    """A pung or chow claimed asks /v1/discards of the position the discard after it is made
    in: that decision's options are the claim's own answer (the same figures, not searched
    again), as /v1/discards answers them."""
    played = selfplay.play(random.Random(35), wall=24)
    request = loader(ReplayRequestSchema()).load(played.payload())
    model = Model(budget=int(BUDGET))
    repeated = 0
    for seat in reviews.review(request["record"], request["rules"], "ESWN", model):
        for claim, after in zip(seat.decisions, seat.decisions[1:], strict=False):
            if claim.kind != "claim" or claim.played.play.split()[0] not in ("pung", "chow"):
                continue
            assert after.kind == "discard" and after.event == claim.event + 2
            assert after.options[0].question.position() == claim.played.question.position()
            assert after.options[0].expected is claim.played.expected
            repeated += 1
    assert repeated == 7


@pytest.mark.sweep
def test_every_ending_is_reviewed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A record of each ending (robbing a kong, the last tile, a kong's replacement, Heaven,
    Earth, a washout, ...) reviews every known seat: each discard a decision, each claim
    decision's play among its options."""
    monkeypatch.setenv("ZJ_EXPECT_STATES", "300")
    for ending in selfplay.ENDINGS:
        played = selfplay.forced(ending, 0)
        answer = engine.replay({**played.payload(), "review": {}})
        made = decisions(answer)
        assert sum(d["kind"] == "discard" for _, d in made) == len(played.positions), ending
        for _, decision in made:
            if decision["kind"] == "claim":
                assert decision["played"] in [o["play"] for o in decision["options"]]
