"""Score hands from the command line with the same engine as the API.

    zj-score score request.json          # a score request as JSON (or - for stdin)
    zj-score score 123m456p789s2355s4s --win 4s --self-draw --seat E
    zj-score score 123m456p789s2355s4s --value 1.1=10 --exclude 10.2 --limit 200
    zj-score score 123m456p789s2355s4s --profiles profiles.json --profile club
    zj-score waits 123m456p789s2355s --seat S   # the tiles a hand one short waits on
    zj-score waits request.json          # a waits request as JSON
    zj-score waits 13m456p789s1125s5z --visible 2m2m   # not ready: shanten and useful tiles
    zj-score discards 123m456p789s11234s   # a hand after its draw: each discard analysed
    zj-score discards 12333m88p1233456s --expect --draws-left 12 --discard-rate 0.5
                                         # ... with each discard's win chance and expected score
    zj-score claim 2.1.2 3.1x2 1.2 --discard W --seat S   # claimed patterns, no tiles
    zj-score claim --discard W           # no pattern claimed: a chicken hand
    zj-score claim request.json          # a claim request as JSON (- for stdin)
    zj-score settle sheet.json           # a session's score sheet, settled by player
    zj-score replay record.json          # a hand as played, checked, its end scored

(``python -m service`` is the same command.)

JSON in gives the response JSON out (exit 0) or the problem JSON (exit 1 on a client error,
text that is not JSON included: ``malformed_json``, as the server answers such a body). A file
that cannot be read, a bad --profiles or --rules-file, or a wrong option: one line on stderr,
exit 2. House-rule profiles come from --profiles or, without it, the file ZJ_PROFILES names.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from . import __version__, engine, profiles
from .domain.rules import tiles as t
from .domain.rules.rulesets import DEFAULT, profile_names
from .domain.rules.schemes import SCHEMES
from .domain.rules.versions import VERSIONS
from .problems import Problem

_MELD_OPTIONS = ("chow", "pung", "kong", "concealed_kong")
_WIN_FLAGS = ("last_tile", "kong_replacement", "robbing_kong", "first_turn")
# The rules fields a flag of the same name sets (when given: a profile's stay otherwise).
_RULE_FLAGS = ("version", "payoff", "standard_value", "minimum", "chicken", "limit", "profile")


class BadArgument(Exception):
    """What the command line gives cannot be used: a file it names cannot be read (or, for
    --rules-file, holds no JSON object), a word is not what it must be. The message names it;
    exit 2, as for a bad --profiles file or option."""


def program() -> str:
    """The command as it was run: ``zj-score`` when installed as that, else ``python -m
    service``."""
    name = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else ""
    return name if name and not name.endswith(".py") and name != "-c" else "python -m service"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=program(), description=__doc__.split("\n")[0])
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    score = commands.add_parser("score", help="score a won hand")
    waits = commands.add_parser(
        "waits", help="the tiles a hand one short waits on, or its shanten and useful tiles"
    )
    discards = commands.add_parser(
        "discards", help="each discard of a hand after its draw: shanten, useful tiles, waits"
    )
    score.add_argument(
        "source",
        nargs="?",
        default="-",
        help="a JSON request file, - for stdin (default), or the held tiles, e.g. 123m456p55z",
    )
    _claim_parser(commands)
    settle = commands.add_parser("settle", help="a session's score sheet, settled by player")
    settle.add_argument("source", help="the sheet as JSON (POST /v1/settle's body), - for stdin")
    settle.add_argument("--json", action="store_true", help="print the response JSON instead")
    _profiles_option(settle)
    replay = commands.add_parser("replay", help="a hand as played: checked, its end scored")
    replay.add_argument("source", help="the record as JSON (POST /v1/replay's body), - for stdin")
    replay.add_argument("--json", action="store_true", help="print the response JSON instead")
    replay.add_argument(
        "--review",
        action="append",
        choices="ESWN",
        metavar="SEAT",
        help="review this seat's decisions (repeat for more seats)",
    )
    _profiles_option(replay)
    for command, size in ((waits, 13), (discards, 14)):
        command.add_argument(
            "source",
            nargs="?",
            default="-",
            help=f"a JSON request file, - for stdin (default), or the held tiles ({size} with"
            " the melds)",
        )
        _expect_options(command)
    for command in (score, waits, discards):
        hand = command.add_argument_group("friendly form (when SOURCE is tiles)")
        if command is score:
            hand.add_argument(
                "--win", metavar="TILE", help="the winning tile (default: the last tile)"
            )
        hand.add_argument("--seat", default="E", choices="ESWN", help="the player's seat (E)")
        if command is score:
            by = hand.add_mutually_exclusive_group()
            by.add_argument(
                "--self-draw", action="store_true", help="won by self-draw (the default)"
            )
            by.add_argument(
                "--discard", metavar="SEAT", choices="ESWN", help="won on SEAT's discard"
            )
        for meld in _MELD_OPTIONS:
            example = {"chow": "567p", "pung": "777z"}.get(meld, "7777z")
            hand.add_argument(
                f"--{meld.replace('_', '-')}",
                action="append",
                default=[],
                metavar="TILES",
                help=f"a declared {meld.replace('_', ' ')}, e.g. {example}",
            )
        for flag in _WIN_FLAGS:
            hand.add_argument(f"--{flag.replace('_', '-')}", action="store_true")
        hand.add_argument("--flowers", type=_numbers, default=[], metavar="N,N")
        hand.add_argument("--seasons", type=_numbers, default=[], metavar="N,N")
        if command is not score:
            hand.add_argument(
                "--visible", metavar="TILES", help="tiles seen on the table, e.g. 5s5s1z"
            )
        hand.add_argument("--json", action="store_true", help="print the response JSON instead")
        if command is score:
            command.add_argument(
                "--explain", action="store_true", help="also list the other readings of the tiles"
            )
        rules = command.add_argument_group(
            "rules (friendly form; each defaults to the profile's, then the service's)"
        )
        rules.add_argument(
            "--rules",
            dest="version",
            choices=list(VERSIONS),
            help=f"the rules version ({next(iter(VERSIONS))})",
        )
        rules.add_argument("--payoff", choices=list(SCHEMES), help=f"({next(iter(SCHEMES))})")
        rules.add_argument("--standard-value", type=int, metavar="N", help="(25)")
        rules.add_argument("--minimum", type=int, metavar="N", help="(0)")
        rules.add_argument(
            "--value",
            action="append",
            default=[],
            type=_value,
            metavar="ID=POINTS",
            help="a pattern's value, e.g. 2.1.2=100 (repeatable)",
        )
        rules.add_argument(
            "--exclude",
            action="append",
            default=[],
            metavar="ID",
            help="a pattern not played, e.g. 10.2 (repeatable)",
        )
        rules.add_argument("--chicken", type=int, metavar="N", help="a chicken hand's value (1)")
        rules.add_argument("--limit", type=int, metavar="N", help="the limit (320)")
        rules.add_argument("--profile", metavar="NAME", help="a profile of the profiles file")
        rules.add_argument(
            "--rules-file",
            metavar="FILE",
            help="a JSON rules object (as in a request); the flags above apply on top",
        )
        _profiles_option(command)
    return parser  # fmt: skip


def _profiles_option(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--profiles",
        metavar="FILE",
        default=os.environ.get("ZJ_PROFILES", ""),
        help="a JSON file of house-rule profiles (default: $ZJ_PROFILES)",
    )


def _expect_options(command: argparse.ArgumentParser) -> None:
    """``expect`` (openapi.yaml's ``Expect``): each option asks for it, with the JSON form too."""
    expect = command.add_argument_group(
        "expected score (the solo model, RULES.md §8; any of these asks for it)"
    )
    expect.add_argument(
        "--expect", action="store_true", help="each discard's win chance and expected score"
    )
    expect.add_argument(
        "--draws-left", type=int, metavar="N", help="draws after this discard, 0-40 (17)"
    )
    expect.add_argument(
        "--discard-rate",
        type=float,
        metavar="Q",
        help="how readily the others let a winning tile go, 0-1 (0: self-draws only)",
    )
    expect.add_argument(
        "--objective",
        choices=("expected_score", "win_probability"),
        help="what the play maximises (expected_score)",
    )


def _expect(args: argparse.Namespace) -> dict[str, Any] | None:
    """The request's ``expect`` from the options, or None if none asks for it."""
    given = {name: getattr(args, name) for name in ("draws_left", "discard_rate", "objective")}
    expect = {name: value for name, value in given.items() if value is not None}
    return expect if expect or args.expect else None


def _claim_parser(commands: Any) -> None:
    claim = commands.add_parser("claim", help="a hand scored from the patterns claimed")
    claim.add_argument(
        "source",
        nargs="*",
        help="pattern ids, a count after x (3.1x2), none for a chicken hand; or a JSON request"
        " file (*.json), - for stdin",
    )
    claim.add_argument("--seat", default="E", choices="ESWN", help="the winner's seat (E)")
    claim.add_argument("--discard", metavar="SEAT", choices="ESWN", help="won on SEAT's discard")
    claim.add_argument(
        "--go-around",
        metavar="SEAT:TILE,...",
        help="the go-around's discards, oldest first, e.g. N:5m,W:5m (the winning one last)",
    )
    for name in ("version", "payoff", "profile"):
        claim.add_argument(f"--{name}", help=f"rules.{name}")
    claim.add_argument("--standard-value", type=int, metavar="N")
    claim.add_argument("--minimum", type=int, metavar="N")
    claim.add_argument("--bonus-tiles", action="store_true", help="the bonus-tile mod")
    claim.add_argument("--json", action="store_true", help="print the response JSON instead")
    _profiles_option(claim)


def _claim_file(words: list[str]) -> str | None:
    """The JSON request a claim's words name (a file, or - for stdin), or None: pattern ids."""
    if len(words) == 1 and (words[0] == "-" or words[0].endswith(".json")):
        return words[0]
    return None


def _claim_request(args: argparse.Namespace) -> dict[str, Any]:
    """The friendly form of a claim: pattern ids (``3.1x2``), the win and the rules' flags."""
    patterns: list[dict[str, Any]] = []
    for word in args.source:
        id, times, count = word.partition("x")
        if times and not count.isdecimal():
            raise BadArgument(f"{word}: the count after x is a whole number, e.g. 3.1x2")
        patterns.append({"id": id, "count": int(count)} if times else {"id": id})
    win: dict[str, Any] = {"seat": args.seat, "by": "discard" if args.discard else "self_draw"}
    if args.discard:
        win["discarder"] = args.discard
    if args.go_around:
        win["go_around"] = [
            {"seat": seat, "tile": tile}
            for seat, _, tile in (part.partition(":") for part in args.go_around.split(","))
        ]
    rules = {
        name: getattr(args, name)
        for name in ("version", "payoff", "profile", "standard_value", "minimum")
        if getattr(args, name) is not None
    }
    if args.bonus_tiles:
        rules["bonus_tiles"] = True
    return {"patterns": patterns, "win": win, "rules": rules}


def _numbers(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part]


def _value(text: str) -> tuple[str, int]:
    pattern, equals, points = text.partition("=")
    if not equals:
        raise argparse.ArgumentTypeError(f"{text!r} is not ID=POINTS, e.g. 2.1.2=100")
    return pattern, int(points)


def _rules(args: argparse.Namespace, stdin: TextIO) -> dict[str, Any]:
    """The friendly form's ``rules``: the --rules file's, then each flag given."""
    rules: Any = {}
    if args.rules_file:
        try:
            rules = _load(args.rules_file, stdin)
        except OSError as error:
            why = error.strerror or error
            raise BadArgument(f"--rules-file {args.rules_file}: {why}") from None
        except ValueError as error:
            raise BadArgument(f"--rules-file {args.rules_file}: not JSON: {error}") from None
    if not isinstance(rules, dict):
        raise BadArgument(
            f"--rules-file {args.rules_file}: not a JSON object: a request's rules, e.g."
            ' {"minimum": 5, "values": {"2.1.2": 100}}'
        )
    rules.update(
        {name: getattr(args, name) for name in _RULE_FLAGS if getattr(args, name) is not None}
    )
    if args.value:
        given = rules.get("values")
        rules["values"] = {**(given if isinstance(given, dict) else {}), **dict(args.value)}
    if args.exclude:
        given = rules.get("exclude")
        rules["exclude"] = [*(given if isinstance(given, list) else []), *args.exclude]
    if args.flowers or args.seasons:
        rules["bonus_tiles"] = True
    return rules


def _friendly_request(args: argparse.Namespace, stdin: TextIO) -> dict[str, Any]:
    melds = [
        {"kind": "kong" if kind == "concealed_kong" else kind, "tiles": tiles,
         "concealed": kind == "concealed_kong"}
        for kind in _MELD_OPTIONS
        for tiles in getattr(args, kind)
    ]  # fmt: skip
    win: dict[str, Any] = {"seat": args.seat}
    hand: dict[str, Any] = {"tiles": args.source, "melds": melds, "flowers": args.flowers,
                            "seasons": args.seasons}  # fmt: skip
    if args.command == "score":
        win["by"] = "discard" if args.discard else "self_draw"
        if args.discard:
            win["discarder"] = args.discard
        hand["winning_tile"] = args.win or _last_tile(args.source)
    for flag in _WIN_FLAGS:
        if getattr(args, flag):
            win[flag] = True
    request = {"hand": hand, "win": win, "rules": _rules(args, stdin)}
    if args.command != "score" and args.visible:
        request["visible"] = args.visible
    return request


def _last_tile(tiles: str) -> str:
    """The last tile written, the winning tile when --win is not given. Tiles that cannot be
    read are the problem the server gives at hand.tiles, reported there alone: where the user
    typed them, not at a winning tile they never typed."""
    try:
        t.parse(tiles)
    except t.TileError as error:
        raise Problem.at("invalid_request", "hand.tiles", str(error)) from None
    written = tiles.rstrip()
    return written[-1] if ord(written[-1]) >= t.FIRST_GLYPH else written[-2:]


def _load(source: str, stdin: TextIO) -> Any:
    """The JSON in ``source``, a file or - for stdin: OSError if the file cannot be opened,
    ValueError if it holds no JSON (or no UTF-8)."""
    if source == "-":
        return json.loads(stdin.read())
    with open(source, encoding="utf-8") as file:
        return json.load(file)


def _read(source: str, stdin: TextIO) -> Any:
    """A request's JSON; text that is not JSON, the server's answer to such a body."""
    try:
        return _load(source, stdin)
    except ValueError as error:
        named = "standard input" if source == "-" else source
        raise Problem("malformed_json", f"{named} is not valid JSON: {error}") from None


def _said_here(problem: Problem, payload: Any, profiles_file: str) -> None:
    """The problem in the command line's words where the server's would mislead: a profile
    it does not know is one --profiles did not load, not one GET /v1/rules would list."""
    rules = payload.get("rules") if isinstance(payload, dict) else None
    name = rules.get("profile") if isinstance(rules, dict) else None
    if not isinstance(name, str) or name in profile_names():
        return
    if profile_names():
        said = f"not a profile of {profiles_file} (one of: {', '.join(profile_names())})"
    else:
        said = "no profiles are loaded: name their file with --profiles FILE (or $ZJ_PROFILES)"
    for error in problem.errors:
        if error["path"] == "rules.profile":
            problem.detail = problem.detail.replace(error["message"], said)
            error["message"] = said


def _is_tiles(source: str) -> bool:
    """Tiles in mpsz ("123m...") or as glyphs ("🀇🀈🀉..."), rather than a file name."""
    first = source[:1]
    return first.isdigit() or (first != "" and t.FIRST_GLYPH <= ord(first) <= t.LAST_GLYPH)


def describe(response: dict[str, Any]) -> str:
    """A readable breakdown of a score response (a claim's has no hand)."""
    hand = response.get("hand")
    lines = [] if hand is None else [
        f"Hand     {_shape(hand)}  ({hand['form'].replace('_', ' ')},"
        f" {'concealed' if hand['concealed'] else 'exposed'}, won on {hand['winning_tile']})",
        f"         {hand['glyphs']}",
    ]  # fmt: skip
    lines.append("Patterns")
    for p in response["patterns"]:
        times = f" x{p['count']}" if p["count"] > 1 else ""
        lines.append(f"  {p['id']:<7}{p['name']:<30}{p['points']:>4}{times}  {p['reason']}")
    for p in response["not_counted"]:
        lines.append(f"  ({p['id']} {p['name']} {p['points']}: not counted, limit hand)")
    lines.append(
        f"Points   {response['points']}  limit {response['limit']}  score {response['score']}"
    )
    for other in response.get("alternatives", []):
        patterns = ", ".join(f"{p['id']} {p['points']}" for p in other["patterns"])
        lines.append(f"Or       {_shape(other)}: {patterns}; score {other['score']}")
    house = _house_rules(response["rules"])
    if house:
        lines.append(f"Rules    {house}")
    if "payments" in response:
        lines.append(
            "Payments " + "  ".join(f"{s} {v:+d}" for s, v in response["payments"].items())
        )
    return "\n".join(lines)


def _shape(reading: dict[str, Any]) -> str:
    """A reading's sets and pair, or pairs, as one line of text."""
    if reading["form"] == "standard":
        return " ".join(s["tiles"] for s in reading["sets"]) + f" {reading['pair']}"
    if reading["form"] == "seven_pairs":
        return " ".join(reading["pairs"])
    return str(reading.get("tiles", "thirteen terminals"))  # another reading lists no tiles


def _house_rules(applied: dict[str, Any]) -> str:
    """The house rules in force, in a few words (empty without any)."""
    parts = [f"profile {applied['profile']}"] if "profile" in applied else []
    parts += [f"{id}={points}" for id, points in applied["values"].items()]
    parts += [f"without {id}" for id in applied["exclude"]]
    parts += [f"{name} {applied[name]}" for name in ("chicken", "limit")
              if applied[name] != getattr(DEFAULT, name)]  # fmt: skip
    return ", ".join(parts)


def describe_waits(response: dict[str, Any]) -> str:
    """A readable list of a waits response: each tile, what self-draw and discard score; for
    a hand that is not ready, its shanten and the tiles that bring it closer."""
    waits = response["waits"]
    if not waits:
        lines = ["Waits    none: no tile completes this hand", _useful(response)]
    else:
        lines = [f"Waits    {len(waits)} tile{'s' * (len(waits) != 1)}: "
                 + " ".join(w["tile"] for w in waits)]  # fmt: skip
    for w in waits:
        lines.append(f"  {w['tile']} {w['glyph']}  {w['remaining']} left  {_ways(w)}")
    if "expectation" in response:
        lines += [f"Expected {_figures(response['expected'])}", _model(response["expectation"])]
    return "\n".join(lines)


def _figures(expected: dict[str, Any] | None) -> str:
    """A play's figures on one line (openapi.yaml's ``Expected``); '-' when it has none."""
    if expected is None:
        return "-"
    by = expected["win_by"]
    return (
        f"{expected['expected_score']:.2f}, win {expected['win_probability']:.1%}"
        f" (self-draw {by['self_draw']:.1%}, discard {by['discard']:.1%}),"
        f" ready {expected['ready_probability']:.1%}"
    )


def _model(expectation: dict[str, Any]) -> str:
    """How the expected scores were found (openapi.yaml's ``Expectation``), on one line."""
    limited = expectation["limited"]
    why = {"too_far": "4 or more from ready", "budget": "over the search's budget"}
    return (
        f"Model    {expectation['model']}, {expectation['draws_left']} draws left, discard rate"
        f" {expectation['discard_rate']:g}, best {expectation['objective'].replace('_', ' ')};"
        f" {expectation['unseen']} unseen, {expectation['states']} hands searched"
        f" ({expectation['search']})" + (f"; '-': {why[limited]}" if limited else "")
    )


def _ways(wait: dict[str, Any]) -> str:
    """What a wait scores by self-draw and by discard ('-': not a win the rules allow)."""
    return "  ".join(
        f"{name} {wait[key]['score'] if wait[key] is not None else '-':>3}"
        for name, key in (("self-draw", "self_draw"), ("discard", "discard"))
    )


def _useful(analysis: dict[str, Any]) -> str:
    """A hand's shanten and useful tiles, on one line."""
    shanten = analysis["shanten"]
    state = {-1: "wins", 0: "ready"}.get(shanten, f"{shanten} from ready")
    useful = " ".join(f"{u['tile']}({u['remaining']})" for u in analysis["useful"])
    return (
        f"Shanten  {shanten} ({state}); useful {useful or 'none'},"
        f" {analysis['useful_remaining']} left"
    )


def describe_discards(response: dict[str, Any]) -> str:
    """A readable list of a discards response: each discard, best first, and its waits."""
    shanten = response["shanten"]
    lines = [f"Shanten  {shanten}" + (" (the hand wins: score it)" if shanten == -1 else "")]
    for d in response["discards"]:
        lines.append(f"Discard  {d['tile']} {d['glyph']}  " + _useful(d).removeprefix("Shanten  "))
        if "expected" in d:
            lines.append(f"  expected {_figures(d['expected'])}")
        for w in d.get("waits", []):
            patterns = " ".join(
                f"{key[0]}:{','.join(w[key]['patterns'])}" for key in ("self_draw", "discard")
                if w[key] is not None
            )  # fmt: skip
            lines.append(
                f"  wait {w['tile']} {w['glyph']}  {w['remaining']} left  {_ways(w)}  {patterns}"
            )
    if "expectation" in response:
        lines.append(_model(response["expectation"]))
    return "\n".join(lines)


def describe_sheet(response: dict[str, Any]) -> str:
    """A readable score sheet: a line a hand, then the totals."""
    players = list(response["totals"])
    width = max(8, *(len(name) + 1 for name in players))
    lines = ["Hand  " + "".join(f"{name:>{width}}" for name in players)]
    for number, hand in enumerate(response["hands"], 1):
        if "draw" in hand:
            lines.append(f"{number:>4}  " + "".join(f"{'-':>{width}}" for _ in players) + "  draw")
            continue
        amounts = "".join(f"{hand['payments'][name]:>+{width}}" for name in players)
        lines.append(f"{number:>4}  {amounts}  {hand['winner']} {hand['score']}")
    totals = "".join(f"{response['totals'][name]:>+{width}}" for name in players)
    lines.append(f"Total {totals}")
    return "\n".join(lines)


def describe_replay(response: dict[str, Any]) -> str:
    """A readable replay: how the hand ended and, for a win, how it was won and its score;
    with a review, each reviewed seat's decisions as a table."""
    ended = _describe_end(response)
    if "review" not in response:
        return ended
    return "\n\n".join([ended, describe_review(response["review"])])


def _describe_end(response: dict[str, Any]) -> str:
    played = f"{response['events']} events, {response['wall_left']} draws left in the wall"
    if response["end"] == "washout":
        return f"End      washout: the wall is spent and its last discard passed ({played})"
    if response["end"] == "open":
        return f"End      open: the record stops before the hand's end ({played})"
    win = response["request"]["win"]
    tile = response["request"]["hand"]["winning_tile"]
    how = (
        f"by self-draw on {tile}"
        if win["by"] == "self_draw"
        else f"on {win['discarder']}'s {tile}" + (" (robbing a kong)" * win["robbing_kong"])
    )
    lines = [f"End      {win['seat']} wins {how} ({played})"]
    flags = [name.replace("_", " ") for name in _WIN_FLAGS if win[name] and name != "robbing_kong"]
    if flags:
        lines.append(f"Flags    {', '.join(flags)}")
    if "go_around" in win:
        lines.append("Go-around " + ", ".join(f"{d['seat']} {d['tile']}" for d in win["go_around"]))
    return "\n".join([*lines, describe(response["score"])])


def describe_review(review: dict[str, Any]) -> str:
    """Each reviewed seat's decisions, one a line (event, kind, played, best, loss, grade),
    and its summary."""
    lines = [f"Review   by {review['model']}, {review['objective'].replace('_', ' ')}: "
             "the seat's own hand only, not its defence"]  # fmt: skip
    for seat, reviewed in review["seats"].items():
        lines.append(f"\n{seat}  event  kind     played      best        loss      grade")
        for decision in reviewed["decisions"]:
            loss = "-" if decision["loss"] is None else f"{decision['loss']:g}"
            lines.append(
                f"   {decision['event']:>5}  {decision['kind']:<7}  {decision['played']:<10}"
                f"  {decision['best']:<10}  {loss:<8}  {decision['grade'].replace('_', ' ')}"
            )
        summary = reviewed["summary"]
        grades = ", ".join(
            f"{count} {grade.replace('_', ' ')}" for grade, count in summary["grades"].items()
        )
        lines.append(
            f"   {summary['decisions']} decisions, {summary['assessed']} assessed,"
            f" {summary['expected_lost']:g} lost: {grades}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None, stdin: TextIO = sys.stdin,
         stdout: TextIO = sys.stdout) -> int:  # fmt: skip
    try:
        code = _main(argv, stdin, stdout)
        stdout.flush()
    except BrokenPipeError:
        # The reader went away (`| head -1`): end quietly, as Unix tools do (128 + SIGPIPE),
        # and keep Python's own flush at exit from failing on the closed pipe again.
        if stdout is sys.stdout:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return 141
    return code


def _payload(args: argparse.Namespace, source: str | None, stdin: TextIO) -> Any:
    """The request: the JSON ``source`` holds, or without one the friendly form's; with what
    the options add to it."""
    try:
        if source is not None:
            payload = _read(source, stdin)
        elif args.command == "claim":
            payload = _claim_request(args)
        else:
            payload = _friendly_request(args, stdin)
    except OSError as error:
        raise BadArgument(f"cannot read the request: {error}") from None
    if args.command == "score" and args.explain and isinstance(payload, dict):
        payload["explain"] = True
    if args.command == "replay" and args.review and isinstance(payload, dict):
        asked = payload.get("review")
        payload["review"] = {**(asked if isinstance(asked, dict) else {}), "seats": args.review}
    if args.command in ("waits", "discards") and isinstance(payload, dict):
        expect = _expect(args)
        if expect is not None:
            payload["expect"] = expect
    return payload


def _main(argv: Sequence[str] | None, stdin: TextIO, stdout: TextIO) -> int:
    args = _parser().parse_args(argv)
    operation, describe_answer = _COMMANDS[args.command]
    if args.command == "claim":
        source = _claim_file(args.source)
    else:
        tiles = args.command not in ("settle", "replay") and _is_tiles(args.source)
        source = None if tiles else args.source
    friendly = source is None
    try:
        profiles.install(args.profiles)
    except profiles.ProfileError as error:
        print(f"bad profiles file: {error}", file=sys.stderr)
        return 2
    payload: Any = None
    try:
        payload = _payload(args, source, stdin)
        response = operation(payload)
    except BadArgument as error:
        print(error, file=sys.stderr)
        return 2
    except Problem as problem:
        _said_here(problem, payload, args.profiles)
        if (friendly or args.command == "replay") and not args.json:
            print(f"{problem.title}: {problem.detail}", file=stdout)
        else:
            print(json.dumps(problem.body(), ensure_ascii=False, indent=2), file=stdout)
        return 1
    if (friendly or args.command in ("settle", "replay")) and not args.json:
        print(describe_answer(response), file=stdout)
    else:
        print(json.dumps(response, ensure_ascii=False, indent=2), file=stdout)
    return 0


_COMMANDS: dict[str, tuple[Callable[[Any], dict[str, Any]], Callable[[dict[str, Any]], str]]] = {
    "score": (engine.score, describe),
    "waits": (engine.waits, describe_waits),
    "discards": (engine.discards, describe_discards),
    "claim": (engine.claim, describe),
    "settle": (engine.settle, describe_sheet),
    "replay": (engine.replay, describe_replay),
}
