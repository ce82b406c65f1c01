"""RULES.md §4 rulings 1-16, freedom of count, the limit, v2.51, invalid input.

Expected values are worked out by hand from ../shared/RULES.md (v3.3 unless said otherwise).
The winner sits South (seat wind 2z) unless said otherwise; a discard comes from the seat after
the winner (West for South).
"""

from __future__ import annotations

import pytest

from .support.hands import check, ids, paths, problem, request, score_hand

RULES_2_51 = {"version": "2.51"}
BONUS = {"bonus_tiles": True}

# A chicken hand: 111z (East: no Value Honor for South) 456p 789s 234p + 55s.
BASE_MELDS = [("pung", "111z")]
BASE = "456p789s234p55s"
# Two exposed kongs and nothing else: 2222p 5555s 123m 789p + 99s = 4.3.2 20.
TWO_KONGS = [("kong", "2222p"), ("kong", "5555s")]


# ---- 1: concealed triplets and the winning discard ------------------------------------------


def test_ruling_01_triplet_completed_by_discard_is_exposed() -> None:
    # 123m(exposed) 222p 444s 666m + 99s, the discarded 6m completes 666m:
    # 4.2.1 (222p 444s) 5 = 5
    check(score_hand("222p444s666m99s", "6m", "discard", melds=[("chow", "123m")]), {"4.2.1": 5}, 5)


def test_ruling_01_same_triplet_self_drawn_is_concealed() -> None:
    # the same hand self-drawn: 4.2.2 (222p 444s 666m) 30 = 30
    check(score_hand("222p444s666m99s", "6m", melds=[("chow", "123m")]), {"4.2.2": 30}, 30)


def test_ruling_01_hand_stays_concealed_on_discard() -> None:
    # all concealed 345m 555m 444s 777p + 99s, the discarded 4s completes 444s:
    # 1.2 5 + 4.2.1 (555m 777p) 5 = 10
    check(score_hand("345m555m444s777p99s", "4s", "discard"), {"1.2": 5, "4.2.1": 5}, 10)


def test_ruling_01_freedom_of_count_for_the_winning_tile() -> None:
    # 345m555m with the discarded 5m: count it as completing 345m, so 555m stays concealed:
    # 1.2 5 + 4.2.2 (555m 444s 777p) 30 = 35 (better than 555m exposed: 1.2 5 + 4.2.1 5 = 10)
    check(score_hand("345m555m444s777p99s", "5m", "discard"), {"1.2": 5, "4.2.2": 30}, 35)


# ---- 2: kongs --------------------------------------------------------------------------------


def test_ruling_02_concealed_kong_is_concealed_triplet() -> None:
    # 2222p(concealed kong) 444s 666m 123m + 99s, won on a discard of 9s:
    # 1.2 5 + 4.2.2 (2222p 444s 666m) 30 + 4.3.1 5 = 40
    result = score_hand("444s666m123m99s", "9s", "discard", melds=[("kong", "2222p", True)])
    check(result, {"1.2": 5, "4.2.2": 30, "4.3.1": 5}, 40)


def test_ruling_02_exposed_kong_is_neither() -> None:
    # the same kong exposed: 4.2.1 (444s 666m) 5 + 4.3.1 5 = 10
    result = score_hand("444s666m123m99s", "9s", "discard", melds=[("kong", "2222p")])
    check(result, {"4.2.1": 5, "4.3.1": 5}, 10)


def test_ruling_02_every_kong_counts_for_4_3() -> None:
    # 2222p concealed + 5555s exposed + 123m 789p + 99s: 4.3.2 20 (no 1.2; one concealed
    # triplet only, so no 4.2) = 20
    melds = [("kong", "2222p", True), ("kong", "5555s")]
    check(score_hand("123m789p99s", "9s", "discard", melds=melds), {"4.3.2": 20}, 20)


# ---- 3: Nine Gates ---------------------------------------------------------------------------


def test_ruling_03_nine_gates_self_draw() -> None:
    # 1112345678999m + 5m: 2.2 480, alone
    result = score_hand("11123455678999m", "5m")
    check(result, {"2.2": 480}, 480, "single_pattern", ("2.1.2",))


def test_ruling_03_nine_gates_on_a_discard_of_a_terminal() -> None:
    # 1112345678999m + discarded 1m: 2.2 480
    result = score_hand("11112345678999m", "1m", "discard")
    check(result, {"2.2": 480}, 480, "single_pattern", ("2.1.2",))


def test_ruling_03_same_tiles_from_a_different_13() -> None:
    # 11123456789999m won on 1m: the 13 before were 1123456789999m, no nine-sided wait.
    # Only arrangement: 11m + 123m 456m 789m 999m: 1.2 5 + 2.1.2 80 + 7.1 40 = 125
    result = score_hand("11123456789999m", "1m")
    check(result, {"1.2": 5, "2.1.2": 80, "7.1": 40}, 125)


def test_ruling_03_same_tiles_with_the_nine_gates_wait() -> None:
    # the same 14 tiles won on 9m: the 13 before were 1112345678999m: 2.2 480
    result = score_hand("11123456789999m", "9m")
    check(result, {"2.2": 480}, 480, "single_pattern")


# ---- 4: All Sequences ------------------------------------------------------------------------


def test_ruling_04_all_sequences_any_pair_any_wait_exposed() -> None:
    # 123m(exposed) 456p 789s 234s + 22z (the seat wind's pair), edge wait on 7s, discard:
    # 1.1 5 = 5
    result = score_hand("456p789s234s22z", "7s", "discard", melds=[("chow", "123m")])
    check(result, {"1.1": 5}, 5)


# ---- 5: irregular hands and Concealed Hand ---------------------------------------------------

SEVEN_PAIRS = "1122m3355p77s1166z"
THIRTEEN = "19m19p19s12345677z"


def test_ruling_05_seven_pairs_no_concealed_hand_v33() -> None:
    # 10.2 30 = 30
    result = score_hand(SEVEN_PAIRS, "6z")
    check(result, {"10.2": 30}, 30)
    assert result["hand"]["form"] == "seven_pairs"


def test_ruling_05_seven_pairs_is_concealed_hand_v251() -> None:
    # v2.51: 10.2 25 + 1.2 5 = 30
    check(score_hand(SEVEN_PAIRS, "6z", rules=RULES_2_51), {"10.2": 25, "1.2": 5}, 30)
    check(score_hand(SEVEN_PAIRS, "6z", "discard", rules=RULES_2_51), {"10.2": 25, "1.2": 5}, 30)


def test_ruling_05_thirteen_terminals_no_concealed_hand() -> None:
    # 10.1 160 = 160
    result = score_hand(THIRTEEN, "7z")
    check(result, {"10.1": 160}, 160)
    assert result["hand"]["form"] == "thirteen_terminals"


# ---- 6: what Seven Pairs can count -----------------------------------------------------------


def test_ruling_06_seven_pairs_no_set_patterns() -> None:
    # 11 22m 33 55p 55 66 77z: dragon pairs score no 3.1 and no 3.2: 10.2 30 = 30
    check(score_hand("1122m3355p556677z", "7z"), {"10.2": 30}, 30)


def test_ruling_06_seven_pairs_with_one_suit() -> None:
    # 11 22 33 44 55 77 99m (no regular shape: 5577 99 make no sets): 10.2 30 + 2.1.2 80 = 110
    result = score_hand("11223344557799m", "9m")
    check(result, {"10.2": 30, "2.1.2": 80}, 110)
    assert result["hand"]["form"] == "seven_pairs"


def test_ruling_06_seven_pairs_with_no_terminals() -> None:
    # 22 44 66 88m 33 55p 77s: 10.2 30 + 1.3 5 = 35
    check(score_hand("22446688m3355p77s", "7s"), {"10.2": 30, "1.3": 5}, 35)


def test_ruling_06_seven_pairs_with_mixed_greater_terminals() -> None:
    # 11 99m 11 99p 11 99s 11z: 10.2 30 + 8.1.3 100 = 130
    check(score_hand("1199m1199p1199s11z", "1z"), {"10.2": 30, "8.1.3": 100}, 130)


def test_ruling_06_seven_pairs_pure_greater_terminals_with_four_of_a_kind() -> None:
    # 11 11 99m 11 99p 11 99s (1111m undeclared = two pairs): 8.1.4 400 alone
    result = score_hand("111199m1199p1199s", "9s")
    check(result, {"8.1.4": 400}, 400, "single_pattern", ("10.2",))


def test_ruling_06_seven_pairs_all_honors() -> None:
    # 11 22 33 44 55 66 77z: 3.4 320 alone (10.2 30 not counted)
    result = score_hand("11223344556677z", "7z")
    check(result, {"3.4": 320}, 320, "single_pattern", ("10.2",))


def test_ruling_06_seven_pairs_with_category_9() -> None:
    # self-drawn on the seabed tile: 10.2 30 + 9.1.1 10 = 40
    check(score_hand(SEVEN_PAIRS, "6z", last_tile=True), {"10.2": 30, "9.1.1": 10}, 40)


# ---- 7: Thirteen Terminals is not Mixed Greater Terminals ------------------------------------


def test_ruling_07_thirteen_terminals_no_mixed_greater_terminals() -> None:
    # 10.1 160 only (no 8.1.3 100)
    result = score_hand(THIRTEEN, "1m", "discard")
    check(result, {"10.1": 160}, 160)


def test_ruling_07_thirteen_terminals_v251() -> None:
    # v2.51: 10.1 320, alone; its Concealed Hand (§4.5) is held, not counted
    result = score_hand(THIRTEEN, "7z", rules=RULES_2_51)
    check(result, {"10.1": 320}, 320, "single_pattern", ("1.2",))


def test_ruling_05_thirteen_terminals_is_concealed_hand_v251() -> None:
    # v2.51 counts 1.2 on Thirteen Terminals: it shows where the limit is raised (10.1 320 +
    # 1.2 5 = 325 under a limit of 400) or 10.1 is valued lower (100 + 5 = 105)
    raised = {**RULES_2_51, "limit": 400}
    check(score_hand(THIRTEEN, "7z", rules=raised), {"10.1": 320, "1.2": 5}, 325)
    lowered = {**RULES_2_51, "values": {"10.1": 100}}
    check(score_hand(THIRTEEN, "1m", "discard", rules=lowered), {"10.1": 100, "1.2": 5}, 105)
    # v3.3 never counts it (1.2 is "a regular hand which is concealed")
    check(score_hand(THIRTEEN, "7z", rules={"limit": 400}), {"10.1": 160}, 160)


# ---- 8: Nine-Tile Straight -------------------------------------------------------------------


def test_ruling_08_nine_tile_straight_with_exposed_chow() -> None:
    # 456s(exposed) 123s 789s 234m + 55p: 1.1 5 + 7.1 40 = 45
    result = score_hand("123s789s234m55p", "5p", "discard", melds=[("chow", "456s")])
    check(result, {"1.1": 5, "7.1": 40}, 45)


# ---- 9: similar sets need three suits --------------------------------------------------------


def test_ruling_09_similar_sequences_in_two_suits_do_not_count() -> None:
    # 345m(exposed) 345p 345p 789s + 11z: 1.1 5 + 5.1.1 10 = 15 (no 6.1)
    result = score_hand("345p345p789s11z", "1z", "discard", melds=[("chow", "345m")])
    check(result, {"1.1": 5, "5.1.1": 10}, 15)


def test_ruling_09_small_similar_triplets_needs_the_pair_in_the_third_suit() -> None:
    # 444m(exposed) 444p 123s 789p + 11z: no 6.2.1; chicken 1
    result = score_hand("444p123s789p11z", "1z", "discard", melds=[("pung", "444m")])
    check(result, {"0": 1}, 1)


# ---- 10: Two Identical Sequences Twice vs four identical -------------------------------------


def test_ruling_10_four_identical_sequences_not_twice() -> None:
    # 234p x4 + 99m, all concealed: 5.1.4 480 alone (never 5.1.2 with it)
    result = score_hand("222233334444p99m", "9m")
    check(result, {"5.1.4": 480}, 480, "single_pattern")
    assert "5.1.2" not in ids(result["not_counted"])


def test_ruling_10_two_different_doubled_sequences() -> None:
    # 234p(exposed) 234p 567s 567s + 99m: 1.1 5 + 5.1.2 60 = 65
    result = score_hand("234p567s567s99m", "9m", "discard", melds=[("chow", "234p")])
    check(result, {"1.1": 5, "5.1.2": 60}, 65)


# ---- 11: Win on Kong, Final Draw, Final Discard ----------------------------------------------

KONG_MELDS = [("kong", "2222p")]
KONG = "123m456s789p99s"


def test_ruling_11_win_on_kong_and_final_draw_both_count() -> None:
    # 4.3.1 5 + 9.2 10 + 9.1.1 10 = 25
    result = score_hand(KONG, "9s", melds=KONG_MELDS, kong_replacement=True, last_tile=True)
    check(result, {"4.3.1": 5, "9.2": 10, "9.1.1": 10}, 25)


def test_ruling_11_final_discard() -> None:
    # 4.3.1 5 + 9.1.2 10 = 15
    result = score_hand(KONG, "9s", "discard", melds=KONG_MELDS, last_tile=True)
    check(result, {"4.3.1": 5, "9.1.2": 10}, 15)


def test_ruling_11_win_on_kong_needs_self_draw() -> None:
    prob = problem(request(KONG, "9s", "discard", melds=KONG_MELDS, kong_replacement=True))
    assert prob.code == "invalid_context"


def test_ruling_11_win_on_kong_needs_a_kong() -> None:
    prob = problem(request(BASE, "5s", melds=BASE_MELDS, kong_replacement=True))
    assert prob.code == "invalid_context"


# ---- 12: Robbing a Kong ----------------------------------------------------------------------


def test_ruling_12_robbing_a_kong() -> None:
    # West adds a kong of 3p; South's 3p completes 234p: 9.3 10 = 10
    result = score_hand(BASE, "3p", "discard", melds=BASE_MELDS, robbing_kong=True)
    check(result, {"9.3": 10}, 10)


def test_ruling_12_robbed_tile_completing_a_pair_is_invalid() -> None:
    # the winner holds another 5s: the robbed kong would be a fifth 5s
    prob = problem(request(BASE, "5s", "discard", melds=BASE_MELDS, robbing_kong=True))
    assert prob.code == "invalid_context"


def test_ruling_12_robbed_tile_also_held_elsewhere_is_invalid() -> None:
    # 456p 789s 234p 33p: the winning 3p with two more 3p held
    prob = problem(request("456p789s234p33p", "3p", "discard", melds=BASE_MELDS, robbing_kong=True))
    assert prob.code == "invalid_context"


def test_ruling_12_robbing_a_kong_needs_a_discard_win() -> None:
    prob = problem(request(BASE, "3p", melds=BASE_MELDS, robbing_kong=True))
    assert prob.code == "invalid_context"
    assert paths(prob) == ["win.robbing_kong"]


# ---- 13: Blessings ---------------------------------------------------------------------------

DEALT = "123m456p789s234p55s"  # 1.1 5 + 1.2 5 = 10 when concealed


def test_ruling_13_blessing_of_heaven() -> None:
    # East on the dealt 14: 1.1 5 + 1.2 5 + 9.4.1 155 = 165
    result = score_hand(DEALT, "5s", seat="E", first_turn=True)
    check(result, {"1.1": 5, "1.2": 5, "9.4.1": 155}, 165)


def test_ruling_13_blessing_of_earth() -> None:
    # North on East's first discard: 1.1 5 + 1.2 5 + 9.4.2 155 = 165
    result = score_hand(DEALT, "5s", "discard", seat="N", discarder="E", first_turn=True)
    check(result, {"1.1": 5, "1.2": 5, "9.4.2": 155}, 165)


def test_ruling_13_blessings_v251() -> None:
    # v2.51: 9.4.1 320, alone; 9.4.2 320, alone
    heaven = score_hand(DEALT, "5s", seat="E", first_turn=True, rules=RULES_2_51)
    check(heaven, {"9.4.1": 320}, 320, "single_pattern", ("1.1", "1.2"))
    earth = score_hand(DEALT, "5s", "discard", discarder="E", first_turn=True, rules=RULES_2_51)
    check(earth, {"9.4.2": 320}, 320, "single_pattern", ("1.1", "1.2"))


@pytest.mark.parametrize(
    ("melds", "tiles", "win"),
    [
        pytest.param([("kong", "2222p", True)], KONG, "9s", id="concealed-kong"),
        pytest.param([("pung", "111z")], BASE, "5s", id="exposed-pung"),
    ],
)
def test_ruling_13_first_turn_with_a_meld_is_invalid(melds: list, tiles: str, win: str) -> None:
    prob = problem(request(tiles, win, seat="E", melds=melds, first_turn=True))
    assert prob.code == "invalid_context"


@pytest.mark.parametrize(
    ("by", "seat", "discarder"),
    [
        pytest.param("self_draw", "S", None, id="non-east-self-draw"),
        pytest.param("discard", "E", "S", id="east-on-a-discard"),
        pytest.param("discard", "S", "W", id="discard-not-by-east"),
    ],
)
def test_ruling_13_first_turn_wrong_seats_is_invalid(
    by: str, seat: str, discarder: str | None
) -> None:
    prob = problem(request(DEALT, "5s", by, seat=seat, discarder=discarder, first_turn=True))
    assert prob.code == "invalid_context"


# ---- 14: four identical tiles not declared ---------------------------------------------------


def test_ruling_14_four_tiles_held_are_not_a_kong() -> None:
    # 222p 234p 567s 789m + 55s all concealed, self-drawn: 1.2 5 = 5 (no 4.3.1)
    result = score_hand("222234p567s789m55s", "5s")
    check(result, {"1.2": 5}, 5)


# ---- 15: bonus tiles -------------------------------------------------------------------------


def test_ruling_15_proper_and_improper() -> None:
    # seat W (number 3): flower 3 proper 4 + season 1 improper 2 = 6
    result = score_hand(
        BASE, "5s", "discard", seat="W", melds=BASE_MELDS, flowers=[3], seasons=[1], rules=BONUS
    )
    check(result, {"11.1.2": 4, "11.1.1": 2}, 6)


def test_ruling_15_bonus_tiles_count_toward_the_cap() -> None:
    # 333m 444m(exposed) 555m 666m + 99m: 2.1.2 80 + 4.1 30 + 4.2.1 5 + 7.2.2 200 = 315;
    # + flower 1 improper 2 + flower 2 proper 4 = 321 > 320 -> capped at 320
    melds = [("pung", "333m"), ("pung", "444m")]
    result = score_hand("555m666m99m", "9m", "discard", melds=melds, flowers=[1, 2], rules=BONUS)
    expected = {"2.1.2": 80, "4.1": 30, "4.2.1": 5, "7.2.2": 200, "11.1.1": 2, "11.1.2": 4}
    check(result, expected, 320, "capped")


def test_ruling_15_just_under_the_cap() -> None:
    # the same hand with flower 2 only: 315 + 4 = 319, not capped
    melds = [("pung", "333m"), ("pung", "444m")]
    result = score_hand("555m666m99m", "9m", "discard", melds=melds, flowers=[2], rules=BONUS)
    check(result, {"2.1.2": 80, "4.1": 30, "4.2.1": 5, "7.2.2": 200, "11.1.2": 4}, 319)


def test_ruling_15_only_bonus_tiles_is_not_a_chicken_hand() -> None:
    # chicken shape + season 4 (improper for South): 11.1.1 2 = 2, no "0"
    result = score_hand(BASE, "5s", "discard", melds=BASE_MELDS, seasons=[4], rules=BONUS)
    check(result, {"11.1.1": 2}, 2)


def test_ruling_15_bonus_tiles_count_toward_the_minimum() -> None:
    # flowers 1 + 2: 11.1.1 2 + 11.1.2 4 = 6 >= 5
    rules = {"bonus_tiles": True, "minimum": 5}
    result = score_hand(BASE, "5s", "discard", melds=BASE_MELDS, flowers=[1, 2], rules=rules)
    check(result, {"11.1.1": 2, "11.1.2": 4}, 6)


# ---- 16: the 5-point minimum -----------------------------------------------------------------


def test_ruling_16_below_minimum() -> None:
    prob = problem(request(BASE, "5s", "discard", melds=BASE_MELDS, rules={"minimum": 5}))
    assert prob.code == "below_minimum"
    assert prob.status == 422
    assert prob.breakdown is not None
    assert prob.breakdown["score"] == 1
    assert [p["id"] for p in prob.breakdown["patterns"]] == ["0"]


def test_ruling_16_bonus_below_minimum() -> None:
    # flower 2 only: 11.1.2 4 < 5
    rules = {"bonus_tiles": True, "minimum": 5}
    prob = problem(request(BASE, "5s", "discard", melds=BASE_MELDS, flowers=[2], rules=rules))
    assert prob.code == "below_minimum"
    assert prob.breakdown is not None
    assert prob.breakdown["score"] == 4


def test_ruling_16_at_minimum() -> None:
    # 2222p(exposed) 123m 456s 789p + 99s: 4.3.1 5 = 5, allowed
    result = score_hand(KONG, "9s", "discard", melds=KONG_MELDS, rules={"minimum": 5})
    check(result, {"4.3.1": 5}, 5)


# ---- freedom of count ------------------------------------------------------------------------


def test_freedom_of_count_sequences_beat_seven_pairs() -> None:
    # 2222 33 44 55 66 77p self-drawn on 7p.
    # Seven Pairs: 10.2 30 + 2.1.2 80 + 1.3 5 = 115.
    # 234p 234p 567p 567p + 22p: 1.1 5 + 1.2 5 + 1.3 5 + 2.1.2 80 + 5.1.2 60 = 155 (best)
    result = score_hand("22223344556677p", "7p")
    check(result, {"1.1": 5, "1.2": 5, "1.3": 5, "2.1.2": 80, "5.1.2": 60}, 155)
    assert result["hand"]["form"] == "standard"


def test_freedom_of_count_triplets_or_sequences() -> None:
    # 111222333p 789s 55s all concealed, self-drawn 5s:
    # 111p 222p 333p: 1.2 5 + 4.2.2 30 + 7.2.1 100 = 135 (best)
    # 123p x3: 1.1 5 + 1.2 5 + 5.1.3 120 = 130
    result = score_hand("111222333p789s55s", "5s")
    check(result, {"1.2": 5, "4.2.2": 30, "7.2.1": 100}, 135)


def test_freedom_of_count_triplets_or_sequences_on_a_discard() -> None:
    # the same tiles won on a discarded 3p: a triplet reading leaves 333p exposed:
    # 1.2 5 + 4.2.1 5 + 7.2.1 100 = 110; 123p x3 gives 1.1 5 + 1.2 5 + 5.1.3 120 = 130 (best)
    result = score_hand("111222333p789s55s", "3p", "discard")
    check(result, {"1.1": 5, "1.2": 5, "5.1.3": 120}, 130)


def test_freedom_of_count_lesser_terminals_beat_consecutive_triplets() -> None:
    # 111222333m 789p 99p self-drawn on 9p:
    # 123m x3: 1.1 5 + 1.2 5 + 5.1.3 120 + 8.1.2 50 (123 123 123 789 99 all hold a terminal)
    #   = 180 (best)
    # 111m 222m 333m: 1.2 5 + 4.2.2 30 + 7.2.1 100 = 135
    result = score_hand("111222333m789p99p", "9p")
    check(result, {"1.1": 5, "1.2": 5, "5.1.3": 120, "8.1.2": 50}, 180)


# ---- chicken hand ----------------------------------------------------------------------------


def test_chicken_hand_scores_one() -> None:
    result = score_hand(BASE, "5s", "discard", melds=BASE_MELDS)
    check(result, {"0": 1}, 1)
    (chicken,) = result["patterns"]
    assert (chicken["value"], chicken["count"], chicken["points"]) == (1, 1, 1)


# ---- the limit -------------------------------------------------------------------------------

WINDS3 = [("pung", "111z"), ("pung", "333z"), ("pung", "444z")]


def test_limit_sum_capped() -> None:
    # 555z 666z 777z(exposed) 111m + 99m: 3.1 3x10 30 + 3.2.2 130 + 2.1.1 40 + 4.1 30
    # + 8.1.3 100 = 330 -> 320
    melds = [("pung", "555z"), ("pung", "666z"), ("pung", "777z")]
    result = score_hand("111m99m", "9m", "discard", melds=melds)
    check(result, {"3.1": 30, "3.2.2": 130, "2.1.1": 40, "4.1": 30, "8.1.3": 100}, 320, "capped")


def test_limit_single_pattern_small_four_winds() -> None:
    # 111z 333z 444z + 123m 22z: 3.3.3 320, alone (2.1.1 40 + 8.1.1 40 not counted)
    result = score_hand("123m22z", "2z", "discard", melds=WINDS3)
    check(result, {"3.3.3": 320}, 320, "single_pattern", ("2.1.1", "8.1.1"))


def test_limit_big_four_winds_and_all_honors() -> None:
    # 111z 333z 444z + 222z 55z: 3.3.4 400 > 3.4 320: 400
    result = score_hand("222z55z", "5z", "discard", melds=WINDS3)
    check(result, {"3.3.4": 400}, 400, "single_pattern", ("3.4",))


def test_limit_small_four_winds_and_all_honors_tie_goes_to_lowest_id() -> None:
    # 111z 333z 444z + 555z 22z: 3.3.3 320 = 3.4 320 -> 3.3.3 alone, 320
    result = score_hand("555z22z", "2z", "discard", melds=WINDS3)
    check(result, {"3.3.3": 320}, 320, "single_pattern", ("3.4",))


def test_limit_exactly_320_is_not_capped() -> None:
    # 3333m(kong) 444m(exposed) 555m 666m + 99m: 2.1.2 80 + 4.1 30 + 4.2.1 5 + 4.3.1 5
    # + 7.2.2 200 = 320, not over 320: limit none
    melds = [("kong", "3333m"), ("pung", "444m")]
    result = score_hand("555m666m99m", "9m", "discard", melds=melds)
    check(result, {"2.1.2": 80, "4.1": 30, "4.2.1": 5, "4.3.1": 5, "7.2.2": 200}, 320)


def test_thirteen_terminals_with_blessing_of_heaven() -> None:
    # East's dealt 14 are Thirteen Terminals: 10.1 160 + 9.4.1 155 = 315 (no pattern >= 320)
    result = score_hand(THIRTEEN, "7z", seat="E", first_turn=True)
    check(result, {"10.1": 160, "9.4.1": 155}, 315)


def test_v251_thirteen_terminals_with_blessing_tie_goes_to_lowest_id() -> None:
    # v2.51: 9.4.1 320 and 10.1 320 tie; the lower id in the official numbering is 9.4.1
    result = score_hand(THIRTEEN, "7z", seat="E", first_turn=True, rules=RULES_2_51)
    check(result, {"9.4.1": 320}, 320, "single_pattern", ("1.2", "10.1"))


def test_limit_nine_gates() -> None:
    check(score_hand("11123455678999m", "5m"), {"2.2": 480}, 480, "single_pattern")


# ---- v2.51 -----------------------------------------------------------------------------------


def test_v251_pure_one_suit() -> None:
    # 123p(exposed) 345p 678p 999p + 22p: 2.1.2 100
    result = score_hand(
        "345p678p999p22p", "2p", "discard", melds=[("chow", "123p")], rules=RULES_2_51
    )
    check(result, {"2.1.2": 100}, 100)


def test_v251_win_on_kong() -> None:
    # 4.3.1 5 + 9.2 15 = 20
    result = score_hand(KONG, "9s", melds=KONG_MELDS, kong_replacement=True, rules=RULES_2_51)
    check(result, {"4.3.1": 5, "9.2": 15}, 20)


def test_v251_nine_gates_unchanged() -> None:
    check(
        score_hand("11123455678999m", "5m", rules=RULES_2_51), {"2.2": 480}, 480, "single_pattern"
    )


def test_v251_rules_echoed() -> None:
    result = score_hand(SEVEN_PAIRS, "6z", rules=RULES_2_51)
    assert result["rules"]["version"] == "2.51"


# ---- invalid contexts ------------------------------------------------------------------------


def test_invalid_context_robbing_kong_with_self_draw() -> None:
    prob = problem(request(BASE, "3p", melds=BASE_MELDS, robbing_kong=True))
    assert prob.code == "invalid_context"


def test_invalid_context_kong_replacement_without_kong() -> None:
    prob = problem(request(BASE, "5s", melds=BASE_MELDS, kong_replacement=True))
    assert prob.code == "invalid_context"


def test_invalid_context_kong_replacement_on_discard() -> None:
    prob = problem(request(KONG, "9s", "discard", melds=KONG_MELDS, kong_replacement=True))
    assert prob.code == "invalid_context"


def test_invalid_context_discarder_is_the_winner() -> None:
    prob = problem(request(BASE, "5s", "discard", seat="S", discarder="S", melds=BASE_MELDS))
    assert prob.code == "invalid_context"
    assert paths(prob) == ["win.discarder"]


def test_invalid_context_discarder_with_self_draw() -> None:
    prob = problem(request(BASE, "5s", "self_draw", discarder="W", melds=BASE_MELDS))
    assert prob.code == "invalid_context"
    assert paths(prob) == ["win.discarder"]


def test_invalid_discard_without_discarder() -> None:
    # API.md: discarder is required with discard; the schema allows leaving it out (a
    # self-drawn win has none), so it is the win context that is wrong.
    prob = problem(request(BASE, "5s", "discard", discarder=None, melds=BASE_MELDS))
    assert prob.code == "invalid_context"
    assert paths(prob) == ["win.discarder"]


def test_invalid_context_first_turn_with_melds() -> None:
    prob = problem(request(BASE, "5s", seat="E", melds=BASE_MELDS, first_turn=True))
    assert prob.code == "invalid_context"


def test_invalid_context_first_turn_by_non_east_self_draw() -> None:
    prob = problem(request(DEALT, "5s", seat="W", first_turn=True))
    assert prob.code == "invalid_context"


def test_invalid_context_robbing_kong_winner_holds_another_copy() -> None:
    prob = problem(request(BASE, "5s", "discard", melds=BASE_MELDS, robbing_kong=True))
    assert prob.code == "invalid_context"


# ---- invalid hands ---------------------------------------------------------------------------


def test_invalid_hand_thirteen_tiles() -> None:
    prob = problem(request("123m456p789s234p5s", "5s"))
    assert prob.code == "invalid_hand"
    assert prob.status == 422


def test_invalid_hand_fifteen_tiles() -> None:
    prob = problem(request("456p789s234p555s", "5s", melds=BASE_MELDS))
    assert prob.code == "invalid_hand"


def test_invalid_hand_fifth_copy_across_meld() -> None:
    # 111m pung + 11m held: five 1m
    prob = problem(request("123p456p789s11m", "1m", melds=[("pung", "111m")]))
    assert prob.code == "invalid_hand"


def test_invalid_hand_fifth_copy_in_tiles() -> None:
    prob = problem(request("11111m234p567s789s", "1m"))
    assert prob.code == "invalid_hand"


def test_invalid_hand_fifth_copy_with_kong() -> None:
    # 1111m kong + 11m pair
    prob = problem(request("123p456p789s11m", "1m", melds=[("kong", "1111m")]))
    assert prob.code == "invalid_hand"


@pytest.mark.parametrize(
    ("meld", "field"),
    [
        pytest.param({"kind": "chow", "tiles": "78m9p"}, "tiles", id="chow-789-across-suits"),
        pytest.param({"kind": "chow", "tiles": "123z"}, "tiles", id="honours-chow"),
        pytest.param({"kind": "chow", "tiles": "135m"}, "tiles", id="chow-with-gaps"),
        pytest.param({"kind": "pung", "tiles": "123m"}, "tiles", id="pung-of-different-tiles"),
        pytest.param(
            {"kind": "pung", "tiles": "777z", "concealed": True}, "concealed", id="concealed-pung"
        ),
    ],
)
def test_invalid_hand_impossible_meld(meld: dict, field: str) -> None:
    prob = problem(request("123m456p789s55s", "5s", melds=[meld]))
    assert prob.code == "invalid_hand"
    assert paths(prob) == [f"hand.melds[0].{field}"]


def test_invalid_hand_winning_tile_not_held() -> None:
    prob = problem(request("123m456p789s234p55s", "9p"))
    assert prob.code == "invalid_hand"
    assert paths(prob) == ["hand.winning_tile"]


def test_invalid_hand_winning_tile_only_in_a_meld() -> None:
    # tiles include the winning tile; 7z is only in the declared pung
    prob = problem(request("123m456p789s55s", "7z", melds=[("pung", "777z")]))
    assert prob.code == "invalid_hand"


@pytest.mark.parametrize(
    ("tiles", "win"),
    [
        pytest.param("1234567m1234567p", "7p", id="no-shape"),
        pytest.param("29m19p19s12345677z", "7z", id="thirteen-terminals-missing-1m"),
        pytest.param("1122m3355p77s1167z", "7z", id="six-pairs"),
        pytest.param("123m456p789s23456s", "5s", id="three-sets-and-a-run-of-five"),
    ],
)
def test_not_a_winning_hand(tiles: str, win: str) -> None:
    prob = problem(request(tiles, win))
    assert prob.code == "not_a_winning_hand"
    assert prob.status == 422
