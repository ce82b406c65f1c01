"""python -m service: the same engine as the API, for files, stdin and people."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from service import __version__, engine
from service.cli import main
from service.domain.rules.rulesets import install_profiles

from .support.hands import EXAMPLE


def run(*argv: str, stdin: str = "") -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), stdin=io.StringIO(stdin), stdout=out)
    return code, out.getvalue()


def test_json_from_a_file(tmp_path: Path) -> None:
    request = tmp_path / "request.json"
    request.write_text(json.dumps(EXAMPLE), encoding="utf-8")
    code, out = run("score", str(request))
    assert code == 0
    body = json.loads(out)
    assert body["score"] == 10 and body["payments"] == {"E": -10, "S": 30, "W": -10, "N": -10}


def test_json_from_stdin_matches_the_engine() -> None:
    from service.engine import score

    code, out = run("score", stdin=json.dumps(EXAMPLE))
    assert code == 0
    assert json.loads(out) == score(EXAMPLE)


def test_a_client_error_prints_the_problem_and_exits_1() -> None:
    code, out = run("score", "-", stdin=json.dumps({"hand": {"tiles": "123m"}}))
    assert code == 1
    problem = json.loads(out)
    assert problem["code"] == "invalid_request"
    assert {"path": "win", "message": "required"} in problem["errors"]


def test_unreadable_input_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "missing.json"
    assert run("score", str(missing)) == (2, "")
    assert capsys.readouterr().err == (
        f"cannot read the request: [Errno 2] No such file or directory: '{missing}'\n"
    )


def test_input_that_is_not_json_is_the_problem_and_exits_1(tmp_path: Path) -> None:
    # As the server answers such a body (400 malformed_json), the source named.
    code, out = run("score", "-", stdin="{not json")
    assert code == 1
    assert json.loads(out) == {
        "type": "urn:zj-service:problem:malformed_json",
        "title": "Body is not JSON",
        "status": 400,
        "detail": "standard input is not valid JSON: Expecting property name enclosed in double"
        " quotes: line 1 column 2 (char 1)",
        "code": "malformed_json",
        "errors": [],
    }
    request = tmp_path / "request.json"
    request.write_bytes(b"\xff{}")  # not UTF-8: not JSON either, as for the server
    code, out = run("waits", str(request))
    assert code == 1
    assert json.loads(out)["detail"].startswith(f"{request} is not valid JSON: 'utf-8' codec")


def test_friendly_form() -> None:
    code, out = run("score", "123m456p789s2355s4s", "--win", "4s", "--self-draw", "--seat", "E")
    assert code == 0
    assert "All Sequences" in out and "Concealed Hand" in out
    assert "score 10" in out
    assert "E +30  S -10  W -10  N -10" in out


def test_friendly_form_in_glyphs() -> None:
    mpsz = run("score", "123m456p2355s4s", "--win", "4s", "--pung", "777z")
    # 123m 456p 2355s 4s and a pung of Red, written as glyphs (mixed for the pung).
    glyphs = run("score", "🀇🀈🀉🀜🀝🀞🀑🀒🀔🀔🀓", "--win", "🀓", "--pung", "🀄🀄7z")
    assert glyphs == mpsz
    assert mpsz[0] == 0


def test_friendly_form_with_melds_and_discard() -> None:
    code, out = run(
        "score", "123m789p23455s", "--pung", "777z", "--win", "4s", "--seat", "S",
        "--discard", "W", "--json",
    )  # fmt: skip
    assert code == 0
    assert json.loads(out)["patterns"][0]["reason"] == "pung of Red"


def test_friendly_form_limit_hand_lists_what_is_not_counted() -> None:
    code, out = run("score", "11123455678999m", "--win", "5m")
    assert code == 0
    assert "Nine Gates" in out and "not counted" in out and "score 480" in out


def test_friendly_form_error_is_one_readable_line() -> None:
    code, out = run("score", "123m456p789s2359s", "--win", "9s")
    assert code == 1
    assert out.startswith("Impossible hand: hand.tiles:")


def test_a_fault_in_the_last_tile_is_reported_where_it_was_typed() -> None:
    # No --win: the winning tile is the last typed, so its fault is the tiles' alone.
    code, out = run("score", "123m456p789s2355s9z", "--json")
    assert code == 1
    assert json.loads(out)["errors"] == [
        {"path": "hand.tiles", "message": "'9z' at character 18 is not a tile: z takes 1-7"}
    ]
    code, out = run("score", "123m456p789s2355s4")
    assert (code, out.split(": ")[:2]) == (1, ["Request does not match the schema", "hand.tiles"])
    assert "winning_tile" not in out
    # The last tile written as a glyph is one tile (the last two characters were taken).
    code, out = run("score", "123m456p234s55s🀄🀄🀄")
    assert code == 0 and "won on 7z" in out
    code, out = run("score", "123m456p789s2355s 4s ")
    assert code == 0 and "won on 4s" in out


def test_waits() -> None:
    code, out = run("waits", stdin=json.dumps({"hand": {"tiles": "1112345678999m"},
                                               "win": {"seat": "S"}}))  # fmt: skip
    assert code == 0
    assert [w["tile"] for w in json.loads(out)["waits"]] == [f"{n}m" for n in range(1, 10)]


def test_python_dash_m_service() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "service", "score", "-"],
        input=json.dumps(EXAMPLE),
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["score"] == 10
    # The CLI never needs Flask: the domain and the engine are importable without it.
    probe = "import sys, service.cli, service.engine; print('flask' in sys.modules)"
    imported = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                              check=True, timeout=60)  # fmt: skip
    assert imported.stdout.strip() == "False"


def test_friendly_form_flags_bonus_tiles_and_seven_pairs() -> None:
    code, out = run(
        "score", "1133557799m1122p", "--win", "2p", "--seat", "N", "--last-tile",
        "--flowers", "4,1", "--seasons", "2",
    )  # fmt: skip
    assert code == 0
    assert "seven pairs" in out and "11m 33m" in out
    assert "Final Draw" in out and "Proper Flower/Season" in out


def test_friendly_form_thirteen_terminals() -> None:
    code, out = run("score", "19m19p19s12345677z", "--first-turn")
    assert code == 0
    assert "thirteen terminals" in out and "Blessing of Heaven" in out


# ---- House rules ------------------------------------------------------------------------------


def test_house_rule_flags() -> None:
    # Value Honor at 40 under formal_double: B 25, E 15; West discarded: 115, the others 70.
    code, out = run(
        "score", "123m789p23455s", "--pung", "777z", "--win", "4s", "--seat", "S",
        "--discard", "W", "--value", "3.1=40", "--payoff", "formal_double", "--json",
    )  # fmt: skip
    assert code == 0
    body = json.loads(out)
    assert body["score"] == 40
    assert body["payments"] == {"E": -70, "S": 255, "W": -115, "N": -70}


def test_house_rules_are_shown_in_the_breakdown() -> None:
    code, out = run(
        "score", "123m789p23455s", "--pung", "777z", "--win", "4s", "--exclude", "3.1",
        "--chicken", "0", "--limit", "200",
    )  # fmt: skip
    assert code == 0
    assert "Chicken Hand" in out and "score 0" in out
    assert "Rules    without 3.1, chicken 0, limit 200" in out


def test_a_rules_file_and_flags_on_top(tmp_path: Path) -> None:
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps({"values": {"3.1": 30}, "minimum": 5}), encoding="utf-8")
    code, out = run("score", "123m789p23455s", "--pung", "777z", "--win", "4s",
                    "--rules-file", str(rules), "--value", "1.1=7", "--json")  # fmt: skip
    assert code == 0
    applied = json.loads(out)["rules"]
    assert applied["values"] == {"1.1": 7, "3.1": 30} and applied["minimum"] == 5


def test_a_profile_from_a_profiles_file(tmp_path: Path) -> None:
    profiles = tmp_path / "profiles.json"
    profiles.write_text(json.dumps({"club": {"minimum": 15}}), encoding="utf-8")
    try:
        code, out = run("score", "123m789p23455s", "--pung", "777z", "--win", "4s",
                        "--profiles", str(profiles), "--profile", "club")  # fmt: skip
    finally:
        install_profiles({})
    assert code == 1
    assert out == (
        "Hand below the minimum: the hand scores 10, below the minimum of 15 (rules.minimum)\n"
    )


def test_a_profile_not_loaded_points_to_profiles(tmp_path: Path) -> None:
    code, out = run("score", "123m789p23455s", "--pung", "777z", "--profile", "club", "--json")
    assert code == 1
    message = "no profiles are loaded: name their file with --profiles FILE (or $ZJ_PROFILES)"
    assert json.loads(out)["errors"] == [{"path": "rules.profile", "message": message}]
    assert json.loads(out)["detail"] == f"rules.profile: {message}"
    profiles = tmp_path / "profiles.json"
    profiles.write_text(json.dumps({"family": {}, "pub": {}}), encoding="utf-8")
    try:
        code, out = run("claim", "--profiles", str(profiles), "--profile", "club")
    finally:
        install_profiles({})
    assert (code, out) == (
        1,
        "Request does not match the schema: rules.profile: not a profile of"
        f" {profiles} (one of: family, pub)\n",
    )


def test_settle_takes_profiles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    profiles = tmp_path / "profiles.json"
    profiles.write_text(json.dumps({"pub": {"payoff": "uniform"}}), encoding="utf-8")
    claim = {"patterns": [{"id": "4.1"}], "win": {"by": "discard", "seat": "W", "discarder": "S"}}
    sheet = {"players": ["A", "B", "C", "D"], "hands": [{"claim": claim}],
             "rules": {"profile": "pub"}}  # fmt: skip
    monkeypatch.setenv("ZJ_PROFILES", str(profiles))  # read as the parser is made
    try:
        code, out = run("settle", "-", "--json", stdin=json.dumps(sheet))
    finally:
        install_profiles({})
    assert code == 0, out
    assert json.loads(out)["totals"] == {"A": -30, "B": -30, "C": 90, "D": -30}


def test_a_bad_rules_file_is_named_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = tmp_path / "rules.txt"
    hand = ("score", "123m789p23455s", "--pung", "777z", "--rules-file", str(rules))
    assert run(*hand) == (2, "")
    assert capsys.readouterr().err == f"--rules-file {rules}: No such file or directory\n"
    rules.write_text("minimum: 5", encoding="utf-8")
    assert run(*hand) == (2, "")
    assert capsys.readouterr().err == (
        f"--rules-file {rules}: not JSON: Expecting value: line 1 column 1 (char 0)\n"
    )
    rules.write_text("[5]", encoding="utf-8")
    assert run(*hand) == (2, "")
    assert capsys.readouterr().err == (
        f"--rules-file {rules}: not a JSON object: a request's rules, e.g."
        ' {"minimum": 5, "values": {"2.1.2": 100}}\n'
    )


def test_a_bad_house_rule_is_the_problem_with_its_path() -> None:
    code, out = run("score", "123m789p23455s", "--pung", "777z", "--win", "4s",
                    "--value", "2.1.9=5", "--json")  # fmt: skip
    assert code == 1
    assert [e["path"] for e in json.loads(out)["errors"]] == ["rules.values.2.1.9"]


def test_a_bad_profiles_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    profiles = tmp_path / "profiles.json"
    profiles.write_text('{"club": {"chicken": -1}}', encoding="utf-8")
    assert run("waits", "--profiles", str(profiles), stdin="{}")[0] == 2
    assert capsys.readouterr().err == (
        f"bad profiles file: {profiles}: club.chicken: must be from 0 to 10000\n"
    )


def test_explain_lists_the_other_readings() -> None:
    # 155 for the sets, 115 for Seven Pairs (hand-checked in test_explain.py).
    status, out = run("score", "22223344556677p", "--win", "7p", "--seat", "S", "--explain")
    assert status == 0
    assert "Points   155  limit none  score 155" in out
    assert "Or       22p 22p 33p 44p 55p 66p 77p: 1.3 5, 2.1.2 80, 10.2 30; score 115" in out
    status, out = run("score", "-", "--explain", stdin=json.dumps(EXAMPLE))
    assert status == 0 and json.loads(out)["alternatives"] == []


# ---- Waits, the command itself -----------------------------------------------------------------


def test_waits_friendly_form() -> None:
    # 123m 456p 789s 55s + 23s: the 1s and the 4s complete it, All Sequences (1.1, 5) and
    # Concealed Hand (1.2, 5) either way: 10 (a discard win keeps a hand concealed).
    code, out = run("waits", "123m456p789s2355s", "--seat", "S")
    assert code == 0
    assert out.splitlines() == [
        "Waits    2 tiles: 1s 4s",
        "  1s \U0001f010  4 left  self-draw  10  discard  10",
        "  4s \U0001f013  4 left  self-draw  10  discard  10",
    ]


def test_waits_friendly_form_with_a_meld_and_flags() -> None:
    code, out = run("waits", "123m456p2355s", "--pung", "777z", "--kong-replacement", "--json")
    assert code == 1  # a kong replacement needs a kong
    assert json.loads(out)["code"] == "invalid_context"
    code, out = run("waits", "123m456p2355s", "--pung", "777z", "--seat", "W", "--json")
    assert code == 0
    waits = json.loads(out)["waits"]
    assert [w["tile"] for w in waits] == ["1s", "4s"]
    assert waits[0]["self_draw"]["rules"]["version"] == "3.3"


def test_waits_friendly_form_rules_version() -> None:
    code, out = run("waits", "123m456p789s2355s", "--rules", "2.51", "--json")
    assert code == 0
    assert json.loads(out)["waits"][0]["discard"]["rules"]["version"] == "2.51"


def test_waits_on_nothing() -> None:
    # 13m 57m 24p 68p 13s 57s 9s: no set, no pair, four of six gapped pairs as blocks: 8 - 4 = 4.
    # A held kind's pair or a gap's middle tile makes it 3.
    code, out = run("waits", "1357m2468p1357s9s")
    assert code == 0
    assert out.splitlines()[0] == "Waits    none: no tile completes this hand"
    assert out.splitlines()[1].startswith("Shanten  4 (4 from ready); useful 1m(3) 2m(4) 3m(3)")


def test_counts_are_singular_for_one() -> None:
    code, out = run("score", "123m456p789s3s", "--pung", "777z", "--win", "3s")
    assert code == 1
    assert "the hand has 10 tiles and 1 meld, which count as 13 tiles" in out
    code, out = run("score", "123m456p78s9s", "--pung", "777z", "--pung", "111z", "--win", "9s")
    assert code == 1
    assert "the hand has 9 tiles and 2 melds, which count as 15 tiles" in out


def test_version_is_the_tool_s() -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0


def command(*argv: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "service", *argv],
        capture_output=True, text=True, check=False, timeout=60, **kwargs,  # type: ignore[call-overload]
    )  # fmt: skip


def test_version_and_help_name_the_command_as_run() -> None:
    assert command("--version").stdout == f"python -m service {__version__}\n"
    assert command("--help").stdout.startswith("usage: python -m service ")
    installed = Path(sys.executable).parent / "zj-score"
    if installed.exists():  # the console script of an installed package
        result = subprocess.run([str(installed), "--version"], capture_output=True, text=True,
                                check=True, timeout=60)  # fmt: skip
        assert result.stdout == f"zj-score {__version__}\n"


def test_a_closed_pipe_ends_quietly() -> None:
    reader, writer = os.pipe()
    os.close(reader)  # as `| head -1` does once it has its line
    try:
        result = subprocess.run(
            [sys.executable, "-m", "service", "score", "11123455678999m"],
            stdout=writer, stderr=subprocess.PIPE, text=True, check=False, timeout=60,
        )  # fmt: skip
    finally:
        os.close(writer)
    assert result.stderr == ""
    assert result.returncode == 141


def test_waits_of_a_hand_not_ready_and_discards() -> None:
    code, out = run("waits", "13m456p789s1125s5z", "--visible", "2m2m")
    assert code == 0
    assert out.splitlines() == [
        "Waits    none: no tile completes this hand",
        "Shanten  2 (2 from ready); useful 2m(2) 1s(2) 2s(3) 3s(4) 4s(4) 5s(3) 6s(4) 7s(3)"
        " 5z(3), 28 left",
    ]
    code, out = run("discards", "123m456p789s11233s", "--visible", "4s4s")
    assert code == 0
    lines = out.splitlines()
    assert lines[:2] == ["Shanten  0", "Discard  3s 🀒  0 (ready); useful 1s(2) 4s(2), 4 left"]
    assert lines[2].split() == ["wait", "1s", "🀐", "2", "left", "self-draw", "10", "discard",
                                "10", "s:1.1,1.2", "d:1.1,1.2"]  # fmt: skip
    code, out = run("discards", "123m456p789s11233s", "--json")
    assert json.loads(out)["discards"][0]["tile"] == "3s"


def test_claim_friendly_and_json(tmp_path: Path) -> None:
    code, out = run("claim", "2.1.2", "3.1x2", "1.2", "--discard", "W", "--seat", "S")
    assert code == 0
    assert out.splitlines()[-2:] == [
        "Points   105  limit none  score 105",
        "Payments E -25  S +315  W -265  N -25",
    ]
    code, out = run("claim", "2.1.2", "--discard", "W", "--seat", "S", "--go-around", "N:5m,W:5m")
    assert out.splitlines()[-1] == "Payments E -25  S +240  W -25  N -190"
    request = tmp_path / "claim.json"
    request.write_text(json.dumps({"patterns": [{"id": "10.2"}, {"id": "4.1"}],
                                   "win": {"by": "self_draw", "seat": "E"}}))  # fmt: skip
    code, out = run("claim", str(request))
    assert code == 1 and json.loads(out)["code"] == "invalid_claim"


def test_a_claim_of_no_patterns_is_a_chicken_hand() -> None:
    code, out = run("claim", "--discard", "W", "--seat", "S", stdin="not read")
    assert code == 0
    assert out.splitlines()[1:] == [
        "  0      Chicken Hand                     1  no pattern",
        "Points   1  limit none  score 1",
        "Payments E -1  S +3  W -1  N -1",  # each pays the score, up to 25
    ]
    assert run("claim", stdin="{}")[1].endswith("Payments E +3  S -1  W -1  N -1\n")
    # A request from stdin is asked for with -.
    code, out = run(
        "claim", "-", stdin=json.dumps({"patterns": [], "win": {"seat": "E", "by": "self_draw"}})
    )
    assert code == 0 and json.loads(out)["score"] == 1


def test_a_claimed_count_is_a_number(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("claim", "3.1xtwo") == (2, "")
    assert capsys.readouterr().err == "3.1xtwo: the count after x is a whole number, e.g. 3.1x2\n"


def test_settle_a_sheet(tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.json"
    sheet.write_text(json.dumps({
        "players": ["Ann", "Bob", "Cat", "Dan"],
        "hands": [{"claim": {"patterns": [{"id": "4.1"}],
                             "win": {"by": "discard", "seat": "W", "discarder": "S"}}},
                  {"draw": True}],
    }))  # fmt: skip
    code, out = run("settle", str(sheet))
    assert code == 0
    assert out.splitlines() == [
        "Hand       Ann     Bob     Cat     Dan",
        "   1       -25     -40     +90     -25  Cat 30",
        "   2         -       -       -       -  draw",
        "Total      -25     -40     +90     -25",
    ]
    code, out = run("settle", str(sheet), "--json")
    assert json.loads(out)["totals"] == {"Ann": -25, "Bob": -40, "Cat": 90, "Dan": -25}


MELDS = ("--chow", "123m", "--chow", "456p", "--pung", "777z", "--seat", "S")


def test_discards_with_their_expected_scores() -> None:
    code, out = run(
        "discards", "2355s9s", *MELDS, "--visible", "1s1s4s", "--draws-left", "2",
        "--discard-rate", "0.5",
    )  # fmt: skip
    assert code == 0
    request = {
        "hand": {"tiles": "2355s9s", "melds": [{"kind": "chow", "tiles": "123m"},
                 {"kind": "chow", "tiles": "456p"}, {"kind": "pung", "tiles": "777z"}]},
        "win": {"seat": "S"}, "visible": "1s1s4s", "expect": {"draws_left": 2, "discard_rate": 0.5},
    }  # fmt: skip
    answer = engine.discards(request)
    lines = out.splitlines()
    for discard in answer["discards"]:  # each discard's figures under its line, best first
        at = lines.index(
            next(line for line in lines if line.startswith(f"Discard  {discard['tile']}"))
        )
        figures = discard["expected"]
        assert lines[at + 1] == (
            f"  expected {figures['expected_score']:.2f},"
            f" win {figures['win_probability']:.1%}"
            f" (self-draw {figures['win_by']['self_draw']:.1%},"
            f" discard {figures['win_by']['discard']:.1%}),"
            f" ready {figures['ready_probability']:.1%}"
        )
    model = answer["expectation"]
    assert lines[-1] == (
        f"Model    solo-v1, 2 draws left, discard rate 0.5, best expected score;"
        f" {model['unseen']} unseen, {model['states']} hands searched ({model['search']})"
    )
    code, out = run("discards", "2355s9s", *MELDS, "--visible", "1s1s4s", "--json",
                    "--expect", "--draws-left", "2", "--discard-rate", "0.5")  # fmt: skip
    assert json.loads(out) == answer


def test_waits_expect_from_a_json_request_and_no_figures_beyond_the_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    request = tmp_path / "waits.json"
    hand = {"hand": {"tiles": "123m456p789s2355s"}, "win": {"seat": "S"}}
    request.write_text(json.dumps(hand), encoding="utf-8")
    code, out = run("waits", str(request), "--expect", "--objective", "win_probability")
    assert code == 0
    answer = json.loads(out)
    assert answer == engine.waits({**hand, "expect": {"objective": "win_probability"}})
    assert answer["expectation"]["draws_left"] == 17 and answer["expected"] is not None
    monkeypatch.setenv("ZJ_EXPECT_STATES", "1")
    states = json.loads(run("waits", str(request), "--expect")[1])["expectation"]["states"]
    code, out = run("waits", "123m456p789s2355s", "--seat", "S", "--expect")
    assert code == 0
    assert out.splitlines()[-2:] == [
        "Expected -",
        f"Model    solo-v1, 17 draws left, discard rate 0, best expected score; 123 unseen,"
        f" {states} hands searched (bounded); '-': over the search's budget",
    ]


def test_a_bad_expect_option_is_the_problem_with_its_path() -> None:
    code, out = run("discards", "2355s9s", *MELDS, "--draws-left", "41")
    assert (code, out) == (
        1,
        "Request does not match the schema: expect.draws_left: must be from 0 to 40\n",
    )


# ---- The help's examples ------------------------------------------------------------------------

COMMANDS = ("score", "waits", "discards", "claim", "settle")
# A hand each command takes as it is, and one a meld short of it, for an option's example.
WHOLE = {
    "score": "123m456p789s2355s4s",
    "waits": "123m456p789s2355s",
    "discards": "123m456p789s2355s4s",
}
SHORT = {"score": "123m456p2355s4s", "waits": "123m456p2355s", "discards": "123m456p2355s4s"}


def help_examples() -> list[tuple[str, str, str]]:
    """Each (command, option, example) that ``command --help`` gives as "e.g. EXAMPLE"."""
    found = []
    for name in COMMANDS:
        out = io.StringIO()
        with pytest.raises(SystemExit), contextlib.redirect_stdout(out):
            main([name, "--help"])
        option = ""
        for line in out.getvalue().splitlines():
            named = re.match(r"  (-[-\w]+|\w+)", line)
            option = named[1] if named else option
            found += [
                (name, option, e) for e in re.findall(r"e\.g\. ([^\s,)]+(?:,[^\s,)]+)*)", line)
            ]
    return found


@pytest.mark.parametrize(("name", "option", "example"), help_examples())
def test_every_example_in_the_help_works(name: str, option: str, example: str) -> None:
    if option == "source":  # the held tiles: melds make them a hand
        argv = [name, example, "--chow", "567p", "--pung", "777z"]
    elif option == "--go-around":
        argv = [name, "2.1.2", "--discard", "W", "--seat", "S", option, example]
    elif option.strip("-").replace("-", "_") in ("chow", "pung", "kong", "concealed_kong"):
        argv = [name, SHORT[name], option, example]
    else:
        argv = [name, WHOLE[name], option, example]
    code, out = run(*argv, "--json")
    assert code == 0, out


def test_the_help_gives_examples() -> None:
    examples = help_examples()
    assert ("score", "--kong", "7777z") in examples
    assert ("claim", "--go-around", "N:5m,W:5m") in examples
    assert len(examples) >= 20  # a tile notation, 6 options each of 3 commands, a go-around


def test_replay_a_record(tmp_path: Path) -> None:
    # S's own view of a hand: S wins on E's 3z, the go-around back to S's own 6s.
    body = {
        "record": {
            "deal": {"E": None, "S": "234p567p789s33z55z", "W": None, "N": None},
            "events": [
                {"seat": "E", "discard": "2s"}, {"seat": "S", "draw": "6s"},
                {"seat": "S", "discard": "6s"}, {"seat": "W", "draw": None},
                {"seat": "W", "discard": "4z"}, {"seat": "N", "draw": None},
                {"seat": "N", "discard": "8m"}, {"seat": "E", "draw": None},
                {"seat": "E", "discard": "3z"}, {"seat": "S", "win": "3z"},
            ],
        }
    }  # fmt: skip
    record = tmp_path / "record.json"
    record.write_text(json.dumps(body))
    code, out = run("replay", str(record))
    assert code == 0
    assert out.splitlines()[:3] == [
        "End      S wins on E's 3z (10 events, 65 draws left in the wall)",
        "Go-around S 6s, W 4z, N 8m, E 3z",
        "Hand     234p 567p 789s 333z 55z  (standard, concealed, won on 3z)",
    ]
    assert out.splitlines()[-1] == "Payments E -5  S +15  W -5  N -5"
    code, out = run("replay", "--json", "-", stdin=json.dumps(body))
    assert (code, json.loads(out)) == (0, engine.replay(body))
    # A record broken: the problem in words, and exit 1.
    body["record"]["events"][1] = {"seat": "W", "chow": "123s"}
    record.write_text(json.dumps(body))
    code, out = run("replay", str(record))
    assert (code, out) == (
        1,
        "The record breaks a rule of play: record.events[1]: W cannot chow the 2s discarded"
        " by E: only S, the next seat, may chow\n",
    )
