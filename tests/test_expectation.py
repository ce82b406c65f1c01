"""Expected score (RULES.md §8, API.md "Expected score"): the search against an expectimax
written here from the model's definition, closed forms, and the properties every answer keeps.

The oracle shares nothing with service/domain/analysis/expectation.py but the scorer (what a
won hand is worth is the scoring's, tested elsewhere): its own wall, its own test of a winning
shape, every draw and every discard of every hand, recursively.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from functools import cache
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from service import engine
from service.domain.analysis.analysis import discards, waits_analysis
from service.domain.analysis.distance import (
    SUIT,
    TABLED,
    Index,
    Room,
    distances,
    moves,
    packed_distances,
    packed_neighbours,
)
from service.domain.analysis.expectation import (
    _SUIT_MOVES,
    Figures,
    Model,
    Outlook,
    _alike,
    _exact_moves,
    _figures,
    _Graph,
    _pool,
    _search_all,
    _search_bounded,
    _suit_moves,
    _tie_better,
    _win_taken,
    expect,
    shown,
    words,
)
from service.domain.errors import ScoringError
from service.domain.rules import tiles as t
from service.domain.rules.hand import Hand, Meld, Rules, Win, declared_melds
from service.domain.rules.versions import VERSIONS
from service.domain.scoring.scoring import best_score
from service.request import ScoreRequestSchema, WaitsRequestSchema, loader
from service.settings import EXPECT_STATES, SETTINGS

from .support import handgen, oracle

_WAITS = loader(WaitsRequestSchema())
_SCORE = loader(ScoreRequestSchema())

# --- The oracle ---------------------------------------------------------------------------


@cache
def _is_win(counts: tuple[int, ...], sets: int, irregular: bool) -> bool:
    """Sets and a pair from ``counts`` (``sets`` of them), or, with no meld, seven pairs
    (four alike are two) or the thirteen terminals: taken apart tile by tile."""
    if irregular and sum(counts) == 14:
        if sum(c // 2 for c in counts) == 7 and all(c % 2 == 0 for c in counts):
            return True
        orphans = [counts[tile] for tile in t.ORPHANS]
        if all(orphans) and sum(orphans) == 14:
            return True
    return any(
        counts[tile] >= 2 and _sets(_minus(counts, (tile, tile)), sets) for tile in range(34)
    )


def _minus(counts: tuple[int, ...], tiles: tuple[int, ...]) -> tuple[int, ...]:
    out = list(counts)
    for tile in tiles:
        out[tile] -= 1
    return tuple(out)


@cache
def _sets(counts: tuple[int, ...], sets: int) -> bool:
    if sets == 0:
        return not any(counts)
    first = next(tile for tile, count in enumerate(counts) if count)
    if counts[first] >= 3 and _sets(_minus(counts, (first,) * 3), sets - 1):
        return True
    run = (first, first + 1, first + 2)
    return (
        first < 27
        and first % 9 <= 6
        and counts[first + 1] > 0
        and counts[first + 2] > 0
        and _sets(_minus(counts, run), sets - 1)
    )


class Oracle:
    """RULES.md §8 as written: ``V(h, t)`` = the others' three discards (win or pass) then,
    with ``t`` > 0, a draw weighed by ``r_x / S`` (win, or any discard to ``V(h', t - 1)``)."""

    def __init__(self, body: dict[str, Any], model: Model) -> None:
        request = _WAITS.load(body)
        self.hand: Hand = request["hand"]
        self.rules: Rules = request["rules"]
        self.melds: tuple[Meld, ...] = declared_melds(self.hand, size=13)
        seat = request["win"].seat
        self.ways = {
            True: Win(by="self_draw", seat=seat),
            False: Win(by="discard", seat=seat, discarder="S" if seat == "E" else "E"),
        }
        self.model = model
        melded = [0] * 34
        for meld in self.melds:
            for tile in _meld_tiles(meld):
                melded[tile] += 1
        self.room = [4 - count for count in melded]
        seen = [0] * 34
        for tile in request["visible"]:
            seen[tile] += 1
        root = [0] * 34
        for tile in self.hand.tiles:
            root[tile] += 1
        self.root = tuple(root)
        # The copies the player does not see with the root hand in hand: r_x(root).
        self.base = [4 - melded[x] - seen[x] for x in range(34)]
        self.size = sum(self.base) - len(self.hand.tiles)
        self.sets = 4 - len(self.melds)
        self.irregular = not self.melds

    def left(self, hand: tuple[int, ...], tile: int) -> int:
        return self.base[tile] - hand[tile]

    @cache  # noqa: B019 - one oracle per test
    def score(self, hand: tuple[int, ...], tile: int, self_drawn: bool) -> float | None:
        tiles = tuple(x for x in range(34) for _ in range(hand[x]))
        won = Hand(tiles, self.hand.melds, tile, self.hand.flowers, self.hand.seasons)
        try:
            return float(best_score(won, self.melds, self.ways[self_drawn], self.rules).score)
        except ScoringError:
            return None

    def ready(self, hand: tuple[int, ...]) -> bool:
        return any(
            hand[x] < self.room[x] and _is_win(_plus(hand, x), self.sets, self.irregular)
            for x in range(34)
        )

    def better(self, a: tuple[float, ...], b: tuple[float, ...]) -> bool:
        """a = (self-draw, discard, expected score, ready): the better play, by the objective,
        then the other of chance and score, then ready, then self-draw (RULES.md §8 leaves
        ties open; the service breaks them so, and says so)."""
        chance_a, chance_b = a[0] + a[1], b[0] + b[1]
        if self.model.objective == "win_probability":
            order = [(chance_a, chance_b), (a[2], b[2])]
        else:
            order = [(a[2], b[2]), (chance_a, chance_b)]
        for x, y in [*order, (a[3], b[3]), (a[0], b[0])]:
            if abs(x - y) > 1e-9:
                return x > y
        return False

    @cache  # noqa: B019
    def value(self, hand: tuple[int, ...], left: int) -> tuple[float, ...]:
        after = self.drawn(hand, left)
        rate = self.model.discard_rate / self.size
        for _ in range(3):
            out = [0.0, 0.0, 0.0, 0.0]
            stay = 1.0
            for x in range(34):
                p = rate * self.left(hand, x)
                won = self.score(_plus(hand, x), x, False) if p > 0 else None
                if won is not None and not self.better(after, (0.0, 1.0, won, 1.0)):
                    stay -= p
                    out = [out[0], out[1] + p, out[2] + p * won, out[3] + p]
            after = tuple(o + stay * a for o, a in zip(out, after, strict=True))
        return after

    def drawn(self, hand: tuple[int, ...], left: int) -> tuple[float, ...]:
        if left == 0:
            return (0.0, 0.0, 0.0, 1.0 if self.ready(hand) else 0.0)
        out = [0.0, 0.0, 0.0, 0.0]
        for x in range(34):
            p = self.left(hand, x) / self.size
            if p <= 0:
                continue
            full = _plus(hand, x)
            best: tuple[float, ...] | None = None
            for y in self.discards(hand, x, full):
                option = self.value(_minus(full, (y,)), left - 1)
                if best is None or self.better(option, best):
                    best = option
            assert best is not None
            won = self.score(full, x, True) if self.may_win(hand, full) else None
            if won is not None and not self.better(best, (1.0, 0.0, won, 1.0)):
                best = (1.0, 0.0, won, 1.0)
            out = [o + p * b for o, b in zip(out, best, strict=True)]
        return tuple(out)

    def discards(self, hand: tuple[int, ...], x: int, full: tuple[int, ...]) -> list[int]:
        """The discards tried after ``hand`` draws ``x``: every tile held."""
        return [y for y in range(34) if full[y]]

    def may_win(self, hand: tuple[int, ...], full: tuple[int, ...]) -> bool:
        """Whether a self-drawn ``full`` is tried as a win (when it is one)."""
        return True

    def figures(self) -> dict[str, Any]:
        self_draw, discard, value, ready = self.value(self.root, self.model.draws_left)
        chance = self_draw + discard
        return {
            "win_probability": chance,
            "ready_probability": ready,
            "expected_score": value,
            "score_if_win": value / chance if chance else None,
            "win_by": {"self_draw": self_draw, "discard": discard},
        }


class ShortestWays(Oracle):
    """The oracle restricted to the moves RULES.md §8 gives the bounded search, each found
    here from the shanten oracle: from any hand, the draws that lower its distance (a
    ready hand's: its wins) and, after one, the discards that keep the drawn hand's
    distance; from the hand under evaluation also one step off them (a draw that does not
    lower the distance, kept for a discard that keeps it; a winning draw passed for any
    discard but the tile drawn). Any other draw is discarded again."""

    def __init__(self, body: dict[str, Any], model: Model) -> None:
        super().__init__(body, model)
        self.melded = tuple(4 - room for room in self.room)
        self.forms = frozenset({"standard", "seven_pairs", "thirteen_terminals"})

    def distance(self, hand: tuple[int, ...]) -> int:
        return oracle.lacked(hand, 4 - self.sets, self.melded, self.forms)

    def discards(self, hand: tuple[int, ...], x: int, full: tuple[int, ...]) -> list[int]:
        """The drawn tile again; after a draw that lowers the distance, the discards that
        keep the drawn hand's (a ready hand's win passed: any, from the root only); from
        the root, after any other draw too."""
        now = self.distance(hand)
        helps = self.distance(full) < now
        if not helps and hand != self.root:
            return [x]
        if helps and now == 1:
            passed = [y for y in range(34) if full[y] and y != x] if hand == self.root else []
            return [x, *passed]
        after = self.distance(full)
        return [x, *(y for y in range(34) if full[y] and y != x
                     and self.distance(_minus(full, (y,))) == after)]  # fmt: skip

    def may_win(self, hand: tuple[int, ...], full: tuple[int, ...]) -> bool:
        """Only a ready hand's winning draws are tried as wins."""
        return self.distance(hand) == 1 and self.distance(full) == 0


def _plus(counts: tuple[int, ...], tile: int) -> tuple[int, ...]:
    out = list(counts)
    out[tile] += 1
    return tuple(out)


def _meld_tiles(meld: Meld) -> Iterator[int]:
    if meld.kind == "chow":
        yield from (meld.tile, meld.tile + 1, meld.tile + 2)
    else:
        yield from [meld.tile] * (4 if meld.kind == "kong" else 3)


# --- The service's search, called as the engine does --------------------------------------


def _search(
    body: dict[str, Any],
    model: Model,
    *,
    bounded: bool = False,
    step_off: bool = True,
    whole: bool = False,
) -> dict[str, Any]:
    """The service's figures for the 13 tiles of ``body``: as ``expect`` answers them, which
    must be by the whole search; with ``bounded``, by the bounded one (which ``expect`` picks
    only when the whole does not fit; without ``step_off``, along the shortest ways only);
    with ``whole``, by the whole search even where ``expect`` would not pick it."""
    request = _WAITS.load(body)
    hand: Hand = request["hand"]
    melds = declared_melds(hand, size=13)
    outlook = Outlook(hand, melds, request["win"].seat, request["rules"])
    oracle = Oracle(body, model)
    unseen = [oracle.left(oracle.root, x) for x in range(34)]
    if not bounded and not whole:
        found, search = expect(outlook, hand, unseen, model)
        assert search.exhaustive, search
        assert found is not None
    else:
        low, high = words(list(oracle.root))
        graph = _Graph(outlook, _pool(low, high, unseen), model)
        if whole:
            _search_all(graph, low, high, model.draws_left, None)
        else:
            _search_bounded(graph, low, high, model.draws_left, step_off, None)
        found = _figures(graph, model, None)
    return {
        "win_probability": found.win_probability,
        "ready_probability": found.ready_probability,
        "expected_score": found.expected_score,
        "score_if_win": found.score_if_win,
        "win_by": {"self_draw": found.self_draw, "discard": found.discard},
    }


def _close(a: dict[str, Any], b: dict[str, Any]) -> None:
    for key in ("win_probability", "ready_probability", "expected_score"):
        assert a[key] == pytest.approx(b[key], abs=1e-9), key
    for key in ("self_draw", "discard"):
        assert a["win_by"][key] == pytest.approx(b["win_by"][key], abs=1e-9), key


FOUR_PUNGS = [{"kind": "pung", "tiles": f"{n}{n}{n}p"} for n in (2, 3, 4)] + [
    {"kind": "chow", "tiles": "789m"}
]
THREE_MELDS = [{"kind": "pung", "tiles": "777z"}, {"kind": "chow", "tiles": "234s"},
               {"kind": "pung", "tiles": "999m"}]  # fmt: skip
SMALL = [
    # A single tile beside four melds: the whole model is a few dozen hands.
    ({"tiles": "5p", "melds": FOUR_PUNGS}, {}),
    ({"tiles": "1z", "melds": FOUR_PUNGS}, {}),
    # Four tiles beside three melds, ready and not.
    ({"tiles": "55p67s", "melds": THREE_MELDS}, {}),
    ({"tiles": "1m5p67s", "melds": THREE_MELDS}, {}),
    # A minimum the cheapest wins do not reach: they are no wins (the 5p pair needs 1.x).
    ({"tiles": "55p67s", "melds": THREE_MELDS}, {"minimum": 15}),
]


def _cases() -> Iterator[tuple[dict[str, Any], dict[str, Any], int, str, float]]:
    """Each small hand, 0-2 draws, both objectives, with and without discard wins; two draws
    with discard wins only for the single tile (the oracle's cost beside four tiles)."""
    for hand, rules in SMALL:
        for draws_left in (0, 1, 2):
            for objective in ("expected_score", "win_probability"):
                for discard_rate in (0.0, 0.6):
                    if draws_left == 2 and discard_rate and len(t.parse(hand["tiles"])) > 1:
                        continue
                    yield hand, rules, draws_left, objective, discard_rate


_FIELDS = ("hand", "rules", "draws_left", "objective", "discard_rate")


@pytest.mark.parametrize(_FIELDS, list(_cases()))
def test_whole_search_is_the_models_optimum(
    hand: dict[str, Any], rules: dict[str, Any], draws_left: int, objective: str,
    discard_rate: float,
) -> None:  # fmt: skip
    body = {"hand": hand, "win": {"seat": "S"}, "rules": rules, "visible": "5s9s"}
    model = Model(draws_left, discard_rate, objective)  # type: ignore[arg-type]
    _close(_search(body, model), Oracle(body, model).figures())


@pytest.mark.parametrize("draws_left", [1, 2])
def test_bounded_never_exceeds_the_whole(draws_left: int) -> None:
    """The shortest ways alone, then with the step off them, then every play: each search
    tries the plays of the one before and more, so its figures are never lower."""
    for hand, rules in SMALL:
        body = {"hand": hand, "win": {"seat": "S"}, "rules": rules}
        for model, figure in (
            (Model(draws_left, 0.3), "expected_score"),
            (Model(draws_left, 0.3, "win_probability"), "win_probability"),
        ):
            shortest = _search(body, model, bounded=True, step_off=False)[figure]
            stepped = _search(body, model, bounded=True)[figure]
            assert shortest <= stepped + 1e-12 <= _search(body, model)[figure] + 2e-12


TWO_MELDS = [{"kind": "pung", "tiles": "777z"}, {"kind": "chow", "tiles": "234s"}]
ONE_MELD = [{"kind": "pung", "tiles": "999m"}]
# Every copy of the kinds these hands never use is seen: the wall holds the few kinds they
# play with, so the oracles can try every draw of two.
ELSEWHERE = "".join(
    f"{n}{n}{n}{n}{suit}" for suit, numbers in (("m", "46789"), ("p", "9"), ("s", "9"))
    for n in numbers
) + "2222z3333z4444z5555z6666z"  # fmt: skip


def _wall_of(tiles: str, kinds: str) -> str:
    """``visible`` that leaves in the wall only the copies of ``kinds`` not held."""
    held = t.counts(tuple(t.parse(tiles)))
    kept = set(t.parse(kinds))
    return t.compact([x for x in range(34) if x not in kept for _ in range(4 - held[x])])


TEN_TO_THIRTEEN = [
    # 7 tiles beside two melds, ready (2p 5p 8p) and one from ready.
    ({"tiles": "34567p55s", "melds": TWO_MELDS}, {}, ""),
    ({"tiles": "3457p55s1m", "melds": TWO_MELDS}, {}, ""),
    # 10 beside one meld; the ready hand's cheapest wins fall below a minimum, so passing a
    # win for another wait is worth something.
    ({"tiles": "123m45678p55s", "melds": ONE_MELD}, {}, ""),
    ({"tiles": "123m45678p55s", "melds": ONE_MELD}, {"minimum": 3}, ""),
    ({"tiles": "123m4578p55s1z", "melds": ONE_MELD}, {}, ""),
    # 13 alone, ready and one from ready, on a wall of a few kinds.
    ({"tiles": "123m456p78s11355s"}, {}, ELSEWHERE),
    ({"tiles": "123m456p78s11355s"}, {"minimum": 4}, ELSEWHERE),
    ({"tiles": "12m456p78s113558s"}, {}, ELSEWHERE),
    # One suit, ready on waits that the minimum leaves to the best of them: a win passed on
    # the first draw for a better wait is the best play.
    ({"tiles": "1234566788899s"}, {"minimum": 86}, _wall_of("1234566788899s", "123456789s")),
]


@pytest.mark.parametrize(("hand", "rules", "visible"), TEN_TO_THIRTEEN)
@pytest.mark.parametrize("draws_left", [1, pytest.param(2, marks=pytest.mark.sweep)])
def test_bounded_search_is_the_optimum_of_its_own_moves(
    hand: dict[str, Any], rules: dict[str, Any], visible: str, draws_left: int
) -> None:
    """The bounded search on 7 to 13 tiles is the exact optimum of the moves it allows
    (``ShortestWays``, found here from the shanten oracle), both objectives, with and
    without the others' discards."""
    body = {"hand": hand, "win": {"seat": "S"}, "rules": rules, "visible": visible}
    for objective in ("expected_score", "win_probability"):
        for discard_rate in (0.0, 0.5):
            model = Model(draws_left, discard_rate, objective)  # type: ignore[arg-type]
            found = _search(body, model, bounded=True)
            _close(found, ShortestWays(body, model).figures())


@pytest.mark.parametrize(("hand", "rules", "visible"), TEN_TO_THIRTEEN)
@pytest.mark.parametrize("draws_left", [0, 1])
def test_whole_search_of_a_real_hand_is_the_models_optimum(
    hand: dict[str, Any], rules: dict[str, Any], visible: str, draws_left: int
) -> None:
    """7 to 13 concealed tiles, 0 or 1 draw left: ``expect`` searches every play (the count
    fits), and finds the oracle's optimum."""
    body = {"hand": hand, "win": {"seat": "S"}, "rules": rules, "visible": visible}
    for objective in ("expected_score", "win_probability"):
        model = Model(draws_left, 0.5, objective)  # type: ignore[arg-type]
        _close(_search(body, model), Oracle(body, model).figures())


@pytest.mark.sweep
def test_whole_search_with_two_draws_of_thirteen_tiles_is_the_models_optimum() -> None:
    """13 tiles, two draws: every play searched, as ``expect`` does below the count, is the
    oracle's optimum (on a wall of the hand's own kinds and its waits, which the oracle can
    walk; a minimum its cheapest wins miss, so a win may be passed)."""
    tiles, rules = "123m456p78s11355s", {"minimum": 4}
    visible = _wall_of(tiles, "123m456p135689s")
    body = {"hand": {"tiles": tiles}, "win": {"seat": "S"}, "rules": rules, "visible": visible}
    model = Model(2, 0.5)
    _close(_search(body, model, whole=True), Oracle(body, model).figures())


def _hands_reached(held: tuple[int, ...], pool: list[int], draws: int) -> int:
    """The hands a whole search reaches from the 13 tiles ``held`` (their kinds' copies in
    ``pool``), each once: every 13-tile hand, at the fewest draws that reach it, draws on while
    it has some left; every 14-tile hand a draw makes."""
    hands = {held}
    drawn: set[tuple[int, ...]] = set()
    reached = [held]
    for _ in range(draws):
        nearer = []
        for hand in reached:
            for tile in range(t.KINDS):
                if pool[tile] - hand.count(tile) > 0:
                    with_tile = tuple(sorted((*hand, tile)))
                    drawn.add(with_tile)
                    for discard in set(with_tile):
                        left = list(with_tile)
                        left.remove(discard)
                        if tuple(left) not in hands:
                            hands.add(tuple(left))
                            nearer.append(tuple(left))
        reached = nearer
    return len(hands) + len(drawn)


@pytest.mark.parametrize("draws_left", [1, 2, 3])
def test_a_whole_search_lists_each_hand_within_reach_once(draws_left: int) -> None:
    """A whole search's states are the hands within reach, each once: a 14-tile hand met
    again by another draw (found by its tiles, not read: ``_Graph.after_any_draw``) is not
    listed again."""
    melds = [{"kind": "pung", "tiles": "444m"}, {"kind": "chow", "tiles": "789p"},
             {"kind": "pung", "tiles": "999m"}, {"kind": "pung", "tiles": "888s"}]  # fmt: skip
    answer = engine.waits({"hand": {"tiles": "3p", "melds": melds}, "win": {"seat": "W"},
                           "expect": {"draws_left": draws_left}})  # fmt: skip
    assert answer["expectation"]["search"] == "exhaustive"
    pool = [4] * t.KINDS
    for meld in melds:
        for tile in t.parse(meld["tiles"]):
            pool[tile] -= 1
    held = tuple(t.parse("3p"))
    assert answer["expectation"]["states"] == _hands_reached(held, pool, draws_left)


def test_three_from_ready_gets_figures_and_four_none() -> None:
    """The model reaches hands 3 from ready (MAX_SHANTEN); one 4 from ready is too far."""
    expect = {"draws_left": 4}
    near = engine.waits({"hand": {"tiles": "25m1278p13789s26z"}, "win": {"seat": "S"},
                         "expect": expect})  # fmt: skip
    assert near["shanten"] == 3 and near["expectation"]["limited"] is None
    assert near["expected"] is not None and near["expected"]["win_probability"] > 0
    far = engine.waits({"hand": {"tiles": "2456789m8p16s126z"}, "win": {"seat": "S"},
                        "expect": expect})  # fmt: skip
    assert far["shanten"] == 4 and far["expected"] is None
    assert far["expectation"]["limited"] == "too_far"


def test_over_the_budget_is_said_before_too_far() -> None:
    """A request whose discards are some too far and some over the budget says ``budget``:
    raising the budget would give figures; nothing would to the far ones."""
    request = _WAITS.load({"hand": {"tiles": "25m1278p13789s26z7z"}, "win": {"seat": "S"}})
    model = Model(6, 0.0, "expected_score", budget=30)
    _, found, expectation = discards(request["hand"], request["win"], request["rules"],
                                     (), model)  # fmt: skip
    assert {d.analysis.shanten for d in found} >= {3, 4}
    assert all(d.expected is None for d in found)
    assert expectation is not None and expectation.limited == "budget"


def test_a_win_worth_nothing_is_still_a_win() -> None:
    """A chicken hand scoring 0 (house rules) wins, by discard and by self-draw: the chance
    counts it, the expected score adds nothing."""
    melds = [{"kind": "chow", "tiles": "234m"}, {"kind": "chow", "tiles": "567p"},
             {"kind": "pung", "tiles": "999s"}, {"kind": "chow", "tiles": "345s"}]  # fmt: skip
    rules = {"chicken": 0}
    won = {"tiles": "55p", "winning_tile": "5p", "melds": melds}
    win = {"by": "discard", "seat": "S", "discarder": "E"}
    assert engine.score({"hand": won, "win": win, "rules": rules})["score"] == 0
    body = {"hand": {"tiles": "5p", "melds": melds}, "win": {"seat": "S"}, "rules": rules}
    for model in (Model(0, 0.5), Model(1, 0.0)):
        for found in (_search(body, model), _search(body, model, bounded=True)):
            assert found["win_probability"] > 0 and found["expected_score"] == 0
            _close(found, Oracle(body, model).figures())


@pytest.mark.parametrize("version", VERSIONS)
def test_a_self_drawn_win_scores_what_the_scorer_says_whatever_tile_won_it(
    version: str,
) -> None:
    """The search keeps one score for 14 tiles self-drawn, whatever tile of theirs won them
    (``Outlook.score``): each is what the scorer gives that winning tile, Nine Gates too."""
    compared = 0
    payloads = handgen.generate(150, 54)
    payloads.append({"hand": {"tiles": "11123455678999m", "winning_tile": "5m"},
                     "win": {"by": "self_draw", "seat": "E"}})  # fmt: skip
    for payload in payloads:
        request = _SCORE.load(payload)
        hand: Hand = request.hand
        rules: Rules = request.rules.replace(version=version)
        melds = declared_melds(hand)
        seat = request.win.seat
        outlook = Outlook(hand, melds, seat, rules)
        low, high = words(t.counts(hand.tiles))
        for tile in sorted(set(hand.tiles)):
            try:
                won = best_score(hand.replace(winning_tile=tile), melds,
                                 Win(by="self_draw", seat=seat), rules).score  # fmt: skip
            except ScoringError:
                won = -1
            assert outlook.score(low, high, tile, True) == won, (payload, tile)
            compared += 1
    assert compared > 500


def test_a_self_drawn_win_is_scored_once_whatever_tile_won_it() -> None:
    """The same 14 tiles self-drawn on another of their tiles are not scored again; but for
    one numbered suit without melds (Nine Gates: its 13 tiles before the winning one are the
    gates), nor are they won by discard (the tile tells which set the discard completed)."""
    for tiles, kept in (("123456m789p11155s", 1), ("11123455678999m", 2)):
        hand = Hand(tuple(t.parse(tiles)))
        outlook = Outlook(hand, (), "E", Rules())
        low, high = words(t.counts(hand.tiles))
        for tile in (0, 4):
            assert outlook.score(low, high, tile, True) > 0
        assert outlook.scores.size == kept
        for tile in (0, 4):
            outlook.score(low, high, tile, False)
        assert outlook.scores.size == kept + 2
    assert outlook.score(low, high, 0, True) < outlook.score(low, high, 4, True)


def test_plays_equal_but_for_the_way_they_win_prefer_the_self_draw() -> None:
    """RULES.md §8 leaves ties open; the service breaks the last of them by the chance of a
    self-draw, so a figure never depends on the order plays are tried in."""
    # Two plays alike by the objective, the other figure and the ready chance.
    assert _tie_better(0.2, 0.8, 0.2, 0.2, 0.8, 0.1)
    assert not _tie_better(0.2, 0.8, 0.1, 0.2, 0.8, 0.2)
    assert not _tie_better(0.2, 0.8, 0.2, 0.2, 0.8, 0.2)
    # A self-drawn win worth exactly what play goes on to get (won for certain, ready): taken.
    assert _win_taken(False, 0.5, True, 0.5, 1.0, 1.0, 1.0)
    assert not _win_taken(False, 0.5, False, 0.5, 1.0, 1.0, 1.0)


def test_a_single_wait_with_one_draw_is_its_copies_over_the_wall() -> None:
    """Four melds and 5p: one draw, no discard wins: the chance is 5p's copies unseen (3)
    over the wall (136 - 12 in the melds - the 5p held - 5s and 9s seen = 121)."""
    body = {"hand": {"tiles": "5p", "melds": FOUR_PUNGS}, "win": {"seat": "S"},
            "visible": "5s9s"}  # fmt: skip
    found = _search(body, Model(1, 0.0))
    assert found["win_probability"] == pytest.approx(3 / 121, abs=1e-15)
    assert found["win_by"]["discard"] == 0


def test_discard_wins_over_one_round_of_discards() -> None:
    """No draw left: only the others' three discards. 5p wins on 3 copies of 121 with rate
    q; each discard: q * 3/121; the chance at least one is won: 1 - (1 - q * 3/121) ** 3."""
    body = {"hand": {"tiles": "5p", "melds": FOUR_PUNGS}, "win": {"seat": "S"},
            "visible": "5s9s"}  # fmt: skip
    q = 0.5
    found = _search(body, Model(0, q))
    assert found["win_probability"] == pytest.approx(1 - (1 - q * 3 / 121) ** 3, abs=1e-15)
    assert found["win_by"]["self_draw"] == 0


# --- Through the API ------------------------------------------------------------------------


def _discards(tiles: str, expect: dict[str, Any], **more: Any) -> dict[str, Any]:
    return engine.discards({"hand": {"tiles": tiles}, "win": {"seat": "E"}, **more,
                            "expect": expect})  # fmt: skip


def test_the_fastest_discard_is_not_the_most_valuable() -> None:
    """123m456p789s11235s + 4s seen: every discard of 5s, 1s or 2s is ready; among the
    others, 3s leaves the most useful tiles (21), but 4p and 6p are worth more."""
    answer = _discards("123m456p789s11235s", {"draws_left": 12, "discard_rate": 0.5},
                       visible="4s")  # fmt: skip
    ranked = [(d["tile"], d["shanten"], d["useful_remaining"]) for d in answer["discards"]]
    one_shanten = [d for d in answer["discards"] if d["shanten"] == 1]
    fastest = max(one_shanten, key=lambda d: d["useful_remaining"])
    assert fastest["tile"] == "3s" and fastest["useful_remaining"] == 21
    worth = {d["tile"]: d["expected"]["expected_score"] for d in one_shanten}
    assert worth["4p"] > worth["3s"] and worth["6p"] > worth["3s"]
    assert ranked.index(("4p", 1, 15)) < ranked.index(("3s", 1, 21))
    values = [d["expected"]["expected_score"] for d in answer["discards"]]
    assert values == sorted(values, reverse=True)


def _waits_after(tiles: str, discard: str, expect: dict[str, Any], visible: str = "") -> Any:
    """/v1/waits' figures on the 13 tiles ``discard`` leaves, the discard seen."""
    left = t.parse(tiles)
    left.remove(t.parse(discard)[0])
    return engine.waits({"hand": {"tiles": t.compact(left)}, "win": {"seat": "E"},
                         "visible": visible + discard, "expect": expect})  # fmt: skip


@pytest.mark.parametrize(
    ("tiles", "visible", "expect"),
    [
        ("123m456p789s11235s", "4s", {"draws_left": 6, "discard_rate": 0.25}),
        # The best discard (3m) leaves the hand one from ready, farther than 3s or 6s do.
        ("12333m88p1233456s", "", {"draws_left": 8, "discard_rate": 0.5}),
    ],
)
def test_the_best_discard_is_its_waits_answer(
    tiles: str, visible: str, expect: dict[str, Any]
) -> None:
    """The best discard's figures are /v1/waits' on the 13 tiles it leaves, the discard seen."""
    answer = _discards(tiles, expect, visible=visible)
    best = answer["discards"][0]
    waits = _waits_after(tiles, best["tile"], expect, visible)
    assert waits["expected"] == best["expected"]
    assert waits["expectation"]["unseen"] == answer["expectation"]["unseen"]


def test_a_discard_farther_than_the_nearest_keeps_to_its_shortest_ways() -> None:
    """12333m88p1233456s: 3s and 6s leave it ready, 3m and 8p one from ready; those two are
    each a step off the hand's shortest ways already, and are searched along their own only
    (RULES.md §8). 3m comes out best and is searched again with its own step off (the test
    above); 8p keeps the figures of its shortest ways, below what its 13 tiles alone get."""
    expect = {"draws_left": 8, "discard_rate": 0.5}
    answer = _discards("12333m88p1233456s", expect)
    ranked = {d["tile"]: d for d in answer["discards"]}
    assert [d["tile"] for d in answer["discards"][:2]] == ["3m", "8p"]
    assert ranked["3s"]["shanten"] == 0 and ranked["8p"]["shanten"] == 1
    alone = _waits_after("12333m88p1233456s", "8p", expect)["expected"]
    assert ranked["8p"]["expected"]["expected_score"] == 4.7433
    assert alone["expected_score"] == 5.3462
    assert ranked["3s"]["expected"] == _waits_after("12333m88p1233456s", "3s", expect)["expected"]


ALIKE = [
    # Ready and one from ready, alone and beside melds; scores under a minimum (no win), the
    # others' discards won on, the chance of winning as the objective.
    ({"tiles": "123m456p78s11355s"}, {}, Model(17)),
    ({"tiles": "123m456p78s11355s"}, {"minimum": 4}, Model(17, 0.5)),
    ({"tiles": "12m456p78s113558s"}, {}, Model(17, 0.0, "win_probability")),
    ({"tiles": "12m456p78s113558s"}, {}, Model(9, 0.5)),
    ({"tiles": "3457p55s1m", "melds": TWO_MELDS}, {}, Model(17, 0.5)),
    ({"tiles": "124m4578p55s1z", "melds": ONE_MELD}, {"minimum": 3}, Model(17)),
]


def _graph(hand: dict[str, Any], rules: dict[str, Any], model: Model, alike: bool) -> _Graph:
    """A bounded search's graph of the 13 tiles, searched as ``expect`` searches them."""
    body = {"hand": hand, "win": {"seat": "W"}, "rules": rules}
    request = _WAITS.load(body)
    held: Hand = request["hand"]
    outlook = Outlook(held, declared_melds(held, size=13), "W", request["rules"])
    counts = t.counts(held.tiles)
    pool = Oracle(body, model).base
    unseen = [copies - count for copies, count in zip(pool, counts, strict=True)]
    low, high = words(counts)
    graph = _Graph(outlook, _pool(low, high, unseen), model)
    graph.alike = alike
    _search_bounded(graph, low, high, model.draws_left, True, None)
    return graph


@pytest.mark.parametrize(("hand", "rules", "model"), ALIKE)
def test_hands_alike_solved_once_give_the_figures_of_each_solved(
    hand: dict[str, Any], rules: dict[str, Any], model: Model
) -> None:
    """Ready hands whose wins are alike, and hands whose draws lead alike, are solved once
    (``_Graph.leaves``, ``_alike``): the figures are those of the same graph solved hand by
    hand, to the last bit, and the states counted the same. Some are (the test can fail)."""
    alike = _graph(hand, rules, model, True)
    each = _graph(hand, rules, model, False)
    assert alike.states == each.states
    assert alike.merged > 0
    solved, several = _alike(_graph(hand, rules, model, True))
    assert len(solved) < alike.hands == each.hands - alike.merged
    assert len(several) < alike.nodes
    assert _figures(alike, model, None).as_dict() == _figures(each, model, None).as_dict()


def _alone(tiles: str, discard: int, model: Model) -> Figures | None:
    """The figures /v1/waits gives the 13 tiles ``discard`` leaves, the discard seen."""
    left = t.parse(tiles)
    left.remove(discard)
    request = _WAITS.load({"hand": {"tiles": t.compact(left)}, "win": {"seat": "E"}})
    return waits_analysis(request["hand"], request["win"], request["rules"], (discard,),
                          model)[2]  # fmt: skip


@pytest.mark.parametrize(("budget", "best", "states"), [(50_000, 5.7161, 1_086),
                                                        (1_000, 5.7161, 1_086)])  # fmt: skip
def test_the_best_discard_searched_again_has_the_whole_budget(
    budget: int, best: float, states: int
) -> None:
    """The same hand: its discards' searches take 276 states, and 3m, best along its shortest
    ways (5.2528), is searched again with its step off, as its 13 tiles alone are (810 more).
    Within 1,000 states, that search has the request's whole budget, not the 724 left, and 3m
    has the figures /v1/waits gives its 13 tiles (5.7161): one position, one answer."""
    request = _WAITS.load({"hand": {"tiles": "12333m88p1233456s"}, "win": {"seat": "E"}})
    model = Model(8, 0.5, "expected_score", budget)
    _, found, expectation = discards(request["hand"], request["win"], request["rules"], (),
                                     model)  # fmt: skip
    assert expectation is not None and expectation.limited is None
    assert expectation.states == states
    assert [t.name(d.tile) for d in found[:2]] == ["3 Characters", "8 Circles"]
    assert found[0].expected is not None
    assert round(found[0].expected.expected_score, 4) == best
    assert found[0].expected == _alone("12333m88p1233456s", found[0].tile, model)
    assert all(d.expected is not None for d in found)


def test_a_best_discard_whose_tiles_alone_do_not_fit_keeps_its_first_figures() -> None:
    """The same hand within 800 states: 3m's 13 tiles alone take 810, and /v1/waits has no
    figures for them; 3m keeps those of its shortest ways (5.2528), still the best."""
    request = _WAITS.load({"hand": {"tiles": "12333m88p1233456s"}, "win": {"seat": "E"}})
    model = Model(8, 0.5, "expected_score", 800)
    assert _alone("12333m88p1233456s", t.parse("3m")[0], model) is None
    _, found, expectation = discards(request["hand"], request["win"], request["rules"], (),
                                     model)  # fmt: skip
    assert expectation is not None and expectation.limited is None
    assert expectation.states == 276 + 800
    assert t.name(found[0].tile) == "3 Characters" and found[0].expected is not None
    assert round(found[0].expected.expected_score, 4) == 5.2528
    assert all(d.expected is not None for d in found)


@pytest.mark.sweep
@pytest.mark.parametrize(
    "body",
    [
        # 8p leaves it three from ready, one farther than its nearest discards: it came out
        # best along its shortest ways, and its second search did not fit what they had left.
        {"hand": {"tiles": "3m3568p111222357z"}, "win": {"seat": "N"},
         "expect": {"objective": "win_probability"}},
        {"hand": {"tiles": "4m111p47s36z", "melds": [
            {"kind": "chow", "tiles": "678s", "concealed": False},
            {"kind": "chow", "tiles": "234s", "concealed": False}]},
         "win": {"seat": "E"}, "expect": {}},
    ],
)  # fmt: skip
def test_the_best_discard_is_its_waits_answer_when_the_budget_runs_short(
    body: dict[str, Any],
) -> None:
    """Hands whose discards' searches spend most of the default budget: the best discard's
    figures are still those /v1/waits gives its 13 tiles (they once differed: 0.1894 against
    0.2009 win chance for the first)."""
    answer = engine.discards(body)
    best = answer["discards"][0]
    left = t.parse(body["hand"]["tiles"])
    left.remove(t.parse(best["tile"])[0])
    waits = engine.waits({**body, "hand": {**body["hand"], "tiles": t.compact(left)},
                          "visible": best["tile"]})  # fmt: skip
    assert best["expected"] is not None
    assert waits["expected"] == best["expected"]


def test_every_kind_is_searched_compiled_as_interpreted() -> None:
    """37m22s6z beside three melds: the search's steps draw and keep the Green dragon, kind
    32, whose bit a compiled shift of a C int loses (it once did): both builds search the
    same 1,550 hands and find the same figures (this suite runs on both)."""
    melds = [{"kind": "kong", "tiles": "1111p", "concealed": True},
             {"kind": "chow", "tiles": "234s"}, {"kind": "chow", "tiles": "234s"}]  # fmt: skip
    answer = engine.discards({"hand": {"tiles": "37m22s6z", "melds": melds},
                              "win": {"seat": "W"}, "expect": {"draws_left": 17}})  # fmt: skip
    assert answer["expectation"]["states"] == 1550
    assert [(d["tile"], d["expected"]["expected_score"]) for d in answer["discards"]] == [
        ("6z", 7.809),
        ("3m", 7.0255),
        ("7m", 7.0255),
        ("2s", 5.312),
    ]


def test_too_far_and_over_the_budget_have_no_figures() -> None:
    answer = _discards("147m258p369s12345z", {"draws_left": 4})
    assert answer["expectation"]["limited"] == "too_far"
    assert all(d["expected"] is None for d in answer["discards"] if d["shanten"] > 3)
    body = {"hand": {"tiles": "1m5p67s", "melds": THREE_MELDS}, "win": {"seat": "S"}}
    model = Model(2, 0.0, "expected_score", budget=10)
    request = _WAITS.load(body)
    hand = request["hand"]
    melds = declared_melds(hand, size=13)
    outlook = Outlook(hand, melds, "S", request["rules"])
    found, search = expect(outlook, hand, [3] * 34, model)
    assert found is None and search.limited == "budget" and search.states == 10


# --- Properties -----------------------------------------------------------------------------

# Ready and one-shanten 13-tile hands beside two melds (a search of a few hundred hands).
_MELDS = [{"kind": "pung", "tiles": "777z"}, {"kind": "chow", "tiles": "234s"}]


@st.composite
def _near_hands(draw: st.DrawFn) -> str:
    sets = ["123m", "456m", "789p", "555p", "678s", "111z", "345p", "999s"]
    chosen = draw(st.lists(st.sampled_from(sets), min_size=1, max_size=1))
    pair = draw(st.sampled_from(["22m", "88p", "44z"]))
    partial = draw(st.sampled_from(["13m", "45p", "79s", "66z", "57m", "2m5p", "1s9p"]))
    return "".join(chosen) + pair + partial


def _copies_ok(tiles: str) -> bool:
    counts = [0] * 34
    for tile in t.parse(tiles) + t.parse("777z234s"):
        counts[tile] += 1
    return max(counts) <= 4


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_near_hands(), st.integers(0, 4), st.sampled_from([0.0, 0.5, 1.0]))
def test_figures_are_consistent(tiles: str, draws: int, rate: float) -> None:
    if not _copies_ok(tiles):
        return
    body = {"hand": {"tiles": tiles, "melds": _MELDS}, "win": {"seat": "W"}}
    found = engine.waits({**body, "expect": {"draws_left": draws, "discard_rate": rate}})
    figures = found["expected"]
    assert figures is not None
    chance = figures["win_probability"]
    assert 0 <= chance <= figures["ready_probability"] + 1e-4 <= 1 + 1e-4
    assert figures["win_by"]["self_draw"] + figures["win_by"]["discard"] == pytest.approx(
        chance, abs=2e-4
    )
    if rate == 0:
        assert figures["win_by"]["discard"] == 0
    if chance == 0:
        assert figures["score_if_win"] is None
    else:
        # Each figure is rounded to 4 decimals: the product is off by up to half a unit of the
        # chance's last place times the score, and the score's rounding times the chance.
        slack = 0.5e-4 * (figures["score_if_win"] + chance + 1)
        assert figures["expected_score"] == pytest.approx(
            chance * figures["score_if_win"], abs=slack
        )
    # More draws are never worth less, by the objective, within one kind of search (a bounded
    # search with more draws may fall below the whole one with fewer: a lower bound).
    for objective, figure in (("expected_score", "expected_score"),
                              ("win_probability", "win_probability")):  # fmt: skip
        asked = {"discard_rate": rate, "objective": objective}
        fewer, more = (
            engine.waits({**body, "expect": {**asked, "draws_left": left}})
            for left in (draws, draws + 1)
        )
        if fewer["expectation"]["search"] == more["expectation"]["search"]:
            assert more["expected"][figure] >= fewer["expected"][figure] - 1e-4


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example("678s22m66z", 21, 4, 0.0)  # 4s drawn: 2m, one from ready, comes out best
@given(_near_hands(), st.integers(0, 33), st.integers(1, 4), st.sampled_from([0.0, 0.5]))
def test_the_best_discard_is_always_its_waits_answer(
    tiles: str, drawn: int, draws: int, rate: float
) -> None:
    """Whatever its distance, the discard an answer puts first has the figures its 13 tiles
    get alone (a farther one is searched again with its step off)."""
    tiles = t.compact(sorted([*t.parse(tiles), drawn]))
    if not _copies_ok(tiles):
        return
    expect = {"draws_left": draws, "discard_rate": rate}
    hand = {"tiles": tiles, "melds": _MELDS}
    answer = engine.discards({"hand": hand, "win": {"seat": "W"}, "expect": expect})
    best = answer["discards"][0]
    left = t.parse(tiles)
    left.remove(t.parse(best["tile"])[0])
    waits = engine.waits({"hand": {**hand, "tiles": t.compact(left)}, "win": {"seat": "W"},
                          "visible": best["tile"], "expect": expect})  # fmt: skip
    assert waits["expected"] == best["expected"]


def _swap_suits(tiles: str) -> str:
    """Characters and Circles swapped (no pattern tells them apart; Bamboo has All Green)."""
    return t.compact([x + 9 if x < 9 else x - 9 if x < 18 else x for x in t.parse(tiles)])


@settings(max_examples=15, deadline=None)
@given(_near_hands(), st.integers(1, 3))
def test_suits_permuted_give_the_same_figures(tiles: str, draws: int) -> None:
    if not _copies_ok(tiles):
        return
    expect = {"draws_left": draws, "discard_rate": 0.3}
    one = engine.waits({"hand": {"tiles": tiles, "melds": _MELDS}, "win": {"seat": "N"},
                        "visible": "1m9p", "expect": expect})  # fmt: skip
    other = engine.waits({"hand": {"tiles": _swap_suits(tiles), "melds": _MELDS},
                          "win": {"seat": "N"}, "visible": "1p9m", "expect": expect})  # fmt: skip
    assert one["expected"] == other["expected"]


def test_probabilities_stay_proper_on_a_long_wall() -> None:
    """17 draws with every discard offered (rate 1): no figure leaves [0, 1]."""
    answer = _discards("123m456p789s11235s", {"draws_left": 17, "discard_rate": 1.0})
    for discard in answer["discards"]:
        figures = discard["expected"]
        if figures is None:
            continue
        assert 0 <= figures["win_probability"] <= figures["ready_probability"] <= 1
    chances = [d["expected"]["win_probability"] for d in answer["discards"] if d["expected"]]
    assert all(0 <= c <= 1 for c in chances)
    assert any(b != a for a, b in pairwise(chances))


def test_an_index_tells_keys_apart_by_both_words() -> None:
    """Keys alike in one word, and more than a new index's places (it grows as it fills):
    each keeps its own number, and a key never put has none."""
    index = Index()
    for number in range(1000):
        at, found = index.find(number % 3, number // 3)
        assert found == -1
        index.put(at, number % 3, number // 3, number)
    assert index.size == 1000
    assert [index.get(number % 3, number // 3) for number in range(1000)] == list(range(1000))
    assert index.get(3, 0) == index.get(0, 334) == -1


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2**42 - 1), st.integers(0, 2**45 - 1)), max_size=600))
def test_an_index_numbers_its_keys_as_a_dict_does(keys: list[tuple[int, int]]) -> None:
    """What the search keys by a hand's two words (``Index``) finds what a dict would."""
    index = Index()
    numbers: dict[tuple[int, int], int] = {}
    for low, high in keys:
        at, found = index.find(low, high)
        assert found == numbers.get((low, high), -1)
        if (low, high) not in numbers:
            index.put(at, low, high, len(numbers))
            numbers[low, high] = len(numbers)
    for (low, high), number in numbers.items():
        assert index.get(low, high) == number
        assert index.get(low, high ^ 1) == numbers.get((low, high ^ 1), -1)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 4), min_size=9, max_size=9).filter(lambda c: sum(c) <= 14),
    st.lists(st.integers(0, 4), min_size=9, max_size=9),
    st.booleans(),
)
def test_a_suits_moves_are_its_neighbours_distances(
    counts: list[int], room: list[int], runs: bool
) -> None:
    """A draw lowers a distance, or a discard keeps it, exactly when the suit with that tile
    more, or less, has the lower, or the same, distance (``distances`` run on it)."""
    room = [max(r, c) for r, c in zip(room, counts, strict=True)]
    now, lower, keep = moves(counts, room, runs)
    assert now == distances(counts, room, runs)
    for place in range(9):
        more = [*counts[:place], counts[place] + 1, *counts[place + 1 :]]
        less = [*counts[:place], counts[place] - 1, *counts[place + 1 :]]
        up = distances(more, room, runs) if counts[place] < room[place] else None
        down = distances(less, room, runs) if counts[place] else None
        for index in range(10):
            helps = up is not None and up[index] < now[index]
            assert bool(lower[index] >> place & 1) == helps, (place, index)
            kept = down is not None and down[index] == now[index] < 99
            assert bool(keep[index] >> place & 1) == kept, (place, index)


@pytest.mark.sweep
@pytest.mark.slow
def test_the_models_bias_against_the_game_is_measured() -> None:
    """bench/expect_bias.py plays the service's own choices against a shuffled wall: a
    figure (docs/PERFORMANCE.md), kept runnable here on a few games; every game ends in a
    win the scorer allows or none, and the rates are proper."""
    from bench import expect_bias

    for row in expect_bias.measure(games=8, draws_left=3):
        print(row)
        assert 0 <= row.game_win <= 1 and 0 <= row.model_win <= 1
        assert row.game_score >= row.game_win  # every win scores at least 1
        assert row.model_score >= row.model_win


def test_the_peer_bench_writes_each_hand_as_the_peer_reads_it() -> None:
    """bench/expect_peer.py gives its C++ peer a hand's tiles and melds, a kong as a pung (the
    peer takes no fourth tile of a set): 14 tiles in all, the kong's kind kept."""
    from bench import expect_peer

    body = {
        "hand": {
            "tiles": "8p5z",
            "melds": [
                {"kind": "chow", "tiles": "456p", "concealed": False},
                {"kind": "pung", "tiles": "555p", "concealed": False},
                {"kind": "kong", "tiles": "2222z", "concealed": True},
                {"kind": "kong", "tiles": "5555s", "concealed": False},
            ],
        }
    }
    written = expect_peer.written(body)
    assert written == "8p5z chow:456p pung:555p pung:222z pung:555s"
    assert sum(len(t.parse(part.split(":")[-1])) for part in written.split()) == 14
    assert expect_peer.written({"hand": {"tiles": "123m456p789s1122z"}}) == "123m456p789s1122z"


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 4), min_size=9, max_size=9).filter(lambda c: sum(c) <= 15),
    st.booleans(),
)
@example([4, 4, 4, 2, 0, 0, 0, 0, 0], False)  # 14 tiles: a tile more passes the table
@example([0, 0, 0, 0, 0, 0, 0, 0, 1], False)  # every place before the last holds none
def test_a_suits_neighbours_in_the_table_are_read_in_one_walk(
    counts: list[int], honours: bool
) -> None:
    """``packed_neighbours`` gives the entries ``packed_distances`` reads for the suit and for
    each suit a tile more or less of one kind; nothing when a tile more passes the table."""
    counts = counts[:7] if honours else counts
    places = len(counts)
    digits = sum(c * 5**p for p, c in enumerate(counts))
    found = list(packed_neighbours(digits, places))
    if sum(counts) >= TABLED:
        assert found == []
        return
    expected = [packed_distances(digits, places)]
    for place, count in enumerate(counts):
        expected.append(packed_distances(digits + 5**place, places) if count < 4 else -1)
        expected.append(packed_distances(digits - 5**place, places) if count else -1)
    assert found == expected
    assert min(expected[0], *(e for e in expected if e != -1)) >= 0


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 4), min_size=9, max_size=9).filter(lambda c: sum(c) <= 14),
    st.integers(0, 3),
)
def test_a_whole_suits_moves_read_from_the_table_are_its_counted_moves(
    counts: list[int], suit: int
) -> None:
    """Suits the melds leave whole read their masks from their neighbours in the table; the
    one pass of ``distance.moves`` counts them: the two agree."""
    counts = counts[:7] if suit == 3 else counts
    key = sum(c * 5**p for p, c in enumerate(counts)) + suit * SUIT
    now, lower, keep = moves(counts, [4] * len(counts), suit < 3)
    base = 9 * suit
    expected = [*now, *(m << base for m in lower), *(m << base for m in keep)]
    _SUIT_MOVES.cache_clear()
    assert list(_suit_moves(key, [4] * 34))[:31] == [*expected, 0]  # none loose


@pytest.mark.sweep
@settings(max_examples=400, deadline=None)
@given(
    st.integers(0, 3),
    st.lists(st.tuples(st.sampled_from(["chow", "pung", "kong"]), st.integers(0, 8)), max_size=4),
    st.lists(st.integers(0, 4), min_size=9, max_size=9),
)
@example(0, [("pung", 4)], [0, 0, 1, 1, 0, 1, 1, 0, 0])  # a pair of 5m would pass its room
@example(3, [("pung", 0), ("chow", 0)], [0, 1, 2, 2, 0, 0, 0, 0, 0])  # honours: no chow
def test_a_melded_suits_moves_read_from_the_table_are_its_counted_moves(
    suit: int, chosen: list[tuple[str, int]], counts: list[int]
) -> None:
    """A suit beside the melds reads its moves from the table: at each index it may be read
    at, as one pass of ``distance.moves`` counts them with the room and the sets the melds
    leave, or loose there (a lower bound) where that room binds a cheapest way; its exact
    moves are that pass's."""
    places = 7 if suit == 3 else 9
    melds = tuple(
        Meld(
            "pung" if suit == 3 else kind,
            9 * suit + min(tile, places - 3 if kind == "chow" else places - 1),
            False,
            True,
        )
        for kind, tile in chosen
    )
    room = Room[object](melds, frozenset()).room
    base = 9 * suit
    counts = [min(c, room[base + p]) for p, c in enumerate(counts[:places])]
    assume(melds and sum(counts) <= 14 and min(room) >= 0)
    held = [0] * base + counts + [0] * (34 - base - places)
    key = Room[object](melds, frozenset()).keys(held)[suit]
    now, lower, keep = moves(counts, room[base : base + places], suit < 3, most=4 - len(melds))
    _SUIT_MOVES.cache_clear()
    read = _suit_moves(key, room)
    loose = read[30]
    assert loose >> 2 * (5 - len(melds)) == 0  # (only where a hand reads it)
    for index in range(10):
        got = (read[index], read[10 + index] >> base, read[20 + index] >> base)
        if loose >> index & 1:
            assert got[0] <= now[index]
        else:
            assert got == (now[index], lower[index], keep[index]), index
    exact = _exact_moves(key, room)
    assert list(exact)[:31] == [*now, *(m << base for m in lower), *(m << base for m in keep), 0]


_FORMS = frozenset({"standard", "seven_pairs", "thirteen_terminals"})


@st.composite
def _whole_hands(draw: st.DrawFn) -> list[int]:
    """13 tiles without melds, often near Seven Pairs or Thirteen Terminals."""
    near = draw(st.sampled_from(["pairs", "orphans", "any"]))
    kinds = st.integers(0, 33)
    if near == "pairs":
        tiles = [kind for kind in draw(st.lists(kinds, min_size=5, max_size=6)) for _ in "xx"]
    elif near == "orphans":
        tiles = draw(st.lists(st.sampled_from(oracle.ORPHANS), min_size=9, max_size=13))
    else:
        tiles = []
    tiles += draw(st.lists(kinds, min_size=13 - len(tiles), max_size=13 - len(tiles)))
    counts = [min(4, tiles.count(kind)) for kind in range(34)]
    kind = draw(kinds)
    while sum(counts) < 13:  # back to 13 where a fifth copy was dropped
        kind = (kind + 7) % 34
        counts[kind] += counts[kind] < 4
    return counts


# Melds a hand may hold beside its concealed tiles (kind, lowest tile): in one suit or across.
_MELD_CHOICES = [("chow", 0), ("pung", 4), ("chow", 12), ("pung", 17), ("kong", 20), ("pung", 31)]


@st.composite
def _melded_hands(draw: st.DrawFn) -> tuple[list[int], tuple[Meld, ...]]:
    """1-3 melds and the concealed tiles beside them, never a fifth copy with the melds'."""
    chosen = draw(st.lists(st.sampled_from(_MELD_CHOICES), min_size=1, max_size=3, unique=True))
    melds = tuple(Meld(kind, tile, False, True) for kind, tile in chosen)
    room = [4 - copies for copies in _melded_copies(melds)]
    counts = [0] * 34
    for kind in draw(st.lists(st.integers(0, 33), min_size=40, max_size=40)):
        if sum(counts) < 13 - 3 * len(melds) and counts[kind] < room[kind]:
            counts[kind] += 1
    return counts, melds


def _melded_copies(melds: tuple[Meld, ...]) -> list[int]:
    copies = [0] * 34
    for meld in melds:
        for tile in _meld_tiles(meld):
            copies[tile] += 1
    return copies


@pytest.mark.sweep
@settings(max_examples=200, deadline=None)
@given(st.one_of(_whole_hands().map(lambda counts: (counts, ())), _melded_hands()),
       st.integers(0, 33))  # fmt: skip
def test_a_hands_moves_are_the_oracles(
    hand: tuple[list[int], tuple[Meld, ...]], drawn: int
) -> None:
    """A hand's distance, the draws that lower it, and after a draw the discards that keep
    it, as the search reads them (suit tables, melded suits counted, the irregular forms
    combined), are the shanten oracle's: every draw and every discard counted on its own."""
    counts, melds = hand
    if sum(counts) < 13 - 3 * len(melds):
        return  # too few kinds with room were drawn
    outlook = Outlook(Hand(tiles=(0,) * 13), melds, "E", Rules())
    melded = tuple(_melded_copies(melds))
    room = [4 - copies for copies in melded]

    def lacked(hand: list[int]) -> int:
        return oracle.lacked(tuple(hand), len(melds), melded, _FORMS)

    distance, lower, _ = outlook.moves(counts)
    assert distance == lacked(counts)
    for kind in range(34):
        if counts[kind] < room[kind]:
            more = [*counts[:kind], counts[kind] + 1, *counts[kind + 1 :]]
            assert bool(lower >> kind & 1) == (lacked(more) < distance), kind
    if counts[drawn] == room[drawn]:
        return
    counts[drawn] += 1
    distance = lacked(counts)
    assert outlook.moves(counts)[0] == distance
    if distance == 0:
        return  # a winning hand: any discard leaves it ready, none is asked of the masks
    keep = outlook.moves(counts)[2]
    for kind in range(34):
        if counts[kind]:
            less = [*counts[:kind], counts[kind] - 1, *counts[kind + 1 :]]
            assert bool(keep >> kind & 1) == (lacked(less) == distance), kind


def test_an_edges_lead_fits_32_bits_within_the_most_budget_allowed() -> None:
    """``_Graph.leads`` keeps ``8 * node + left`` in 32 bits (compiled, a wider number is cut
    without a word): every node number, ``-2 - n`` included, is under the most budget that
    ``ZJ_EXPECT_STATES`` takes."""
    parse = SETTINGS[EXPECT_STATES].parse
    most = 10_000_000
    assert parse(str(most)) == most
    assert parse(str(most + 1)) is None
    assert 8 * (-2 - most) >= -(2**31) and 8 * most + 4 < 2**31


@given(st.floats(allow_nan=False, allow_infinity=False))
@example(0.0)
@example(-0.0)
@example(-1e-9)
@example(0.00015)
@example(2.0**41)
def test_a_figure_is_shown_as_round_shows_it(value: float) -> None:
    """``shown`` is ``round(value, 4)`` to the bit: a zero's sign kept, a tie near half a
    ten-thousandth and a value past its fast path left to ``round``."""
    assert shown(value) == round(value, 4)
    assert math.copysign(1.0, shown(value)) == math.copysign(1.0, round(value, 4))
