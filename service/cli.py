"""Score hands from the command line with the same engine as the API.

    python -m service score request.json          # a score request as JSON (or - for stdin)
    python -m service score 123m456p789s2355s4s --win 4s --self-draw --seat E
    python -m service waits request.json          # a waits request as JSON

JSON in gives the response JSON out (exit 0) or the problem JSON (exit 1 on a client error).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from . import engine
from .domain.errors import Problem

_MELD_OPTIONS = ("chow", "pung", "kong", "concealed_kong")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m service", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    score = commands.add_parser("score", help="score a won hand")
    score.add_argument(
        "source", nargs="?", default="-",
        help="a JSON request file, - for stdin (default), or the held tiles, e.g. 123m456p55z",
    )  # fmt: skip
    hand = score.add_argument_group("friendly form (when SOURCE is tiles)")
    hand.add_argument("--win", metavar="TILE", help="the winning tile (default: the last tile)")
    hand.add_argument("--seat", default="E", choices="ESWN", help="the winner's seat (E)")
    by = hand.add_mutually_exclusive_group()
    by.add_argument("--self-draw", action="store_true", help="won by self-draw (the default)")
    by.add_argument("--discard", metavar="SEAT", choices="ESWN", help="won on SEAT's discard")
    for meld in _MELD_OPTIONS:
        example = "567p" if meld == "chow" else "777z"
        hand.add_argument(
            f"--{meld.replace('_', '-')}", action="append", default=[], metavar="TILES",
            help=f"a declared {meld.replace('_', ' ')}, e.g. {example}",
        )  # fmt: skip
    for flag in ("last_tile", "kong_replacement", "robbing_kong", "first_turn"):
        hand.add_argument(f"--{flag.replace('_', '-')}", action="store_true")
    hand.add_argument("--version", choices=("3.3", "2.51"), default="3.3")
    hand.add_argument(
        "--payoff",
        default="formal",
        choices=("formal", "uniform", "discarder_pays_all", "discarder_pays_double"),
    )
    hand.add_argument("--standard-value", type=int, default=25)
    hand.add_argument("--minimum", type=int, default=0)
    hand.add_argument("--flowers", type=_numbers, default=[], metavar="N,N")
    hand.add_argument("--seasons", type=_numbers, default=[], metavar="N,N")
    hand.add_argument("--json", action="store_true", help="print the response JSON instead")
    waits = commands.add_parser("waits", help="the tiles a hand one short waits on")
    waits.add_argument("source", nargs="?", default="-", help="a JSON request file, or -")
    return parser  # fmt: skip


def _numbers(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part]


def _friendly_request(args: argparse.Namespace) -> dict[str, Any]:
    melds = [
        {"kind": "kong" if kind == "concealed_kong" else kind, "tiles": tiles,
         "concealed": kind == "concealed_kong"}
        for kind in _MELD_OPTIONS
        for tiles in getattr(args, kind)
    ]  # fmt: skip
    win: dict[str, Any] = {"by": "discard" if args.discard else "self_draw", "seat": args.seat}
    if args.discard:
        win["discarder"] = args.discard
    for flag in ("last_tile", "kong_replacement", "robbing_kong", "first_turn"):
        if getattr(args, flag):
            win[flag] = True
    winning = args.win or args.source.replace(" ", "")[-2:]
    return {
        "hand": {"tiles": args.source, "melds": melds, "winning_tile": winning,
                 "flowers": args.flowers, "seasons": args.seasons},
        "win": win,
        "rules": {"version": args.version, "payoff": args.payoff,
                  "standard_value": args.standard_value, "minimum": args.minimum,
                  "bonus_tiles": bool(args.flowers or args.seasons)},
    }  # fmt: skip


def _read(source: str, stdin: TextIO) -> Any:
    if source == "-":
        return json.loads(stdin.read())
    with open(source, encoding="utf-8") as file:
        return json.load(file)


def _is_tiles(source: str) -> bool:
    return source != "-" and source[:1].isdigit()


def describe(response: dict[str, Any]) -> str:
    """A readable breakdown of a score response."""
    hand = response["hand"]
    if hand["form"] == "standard":
        shape = " ".join(s["tiles"] for s in hand["sets"]) + f" {hand['pair']}"
    elif hand["form"] == "seven_pairs":
        shape = " ".join(hand["pairs"])
    else:
        shape = hand["tiles"]
    lines = [
        f"Hand     {shape}  ({hand['form'].replace('_', ' ')},"
        f" {'concealed' if hand['concealed'] else 'exposed'}, won on {hand['winning_tile']})",
        f"         {hand['glyphs']}",
        "Patterns",
    ]
    for p in response["patterns"]:
        times = f" x{p['count']}" if p["count"] > 1 else ""
        lines.append(f"  {p['id']:<7}{p['name']:<30}{p['points']:>4}{times}  {p['reason']}")
    for p in response["not_counted"]:
        lines.append(f"  ({p['id']} {p['name']} {p['points']}: not counted, limit hand)")
    lines.append(
        f"Points   {response['points']}  limit {response['limit']}  score {response['score']}"
    )
    if "payments" in response:
        lines.append(
            "Payments " + "  ".join(f"{s} {v:+d}" for s, v in response["payments"].items())
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None, stdin: TextIO = sys.stdin,
         stdout: TextIO = sys.stdout) -> int:  # fmt: skip
    args = _parser().parse_args(argv)
    friendly = args.command == "score" and _is_tiles(args.source)
    operation: Callable[[Any], dict[str, Any]] = (
        engine.score if args.command == "score" else engine.waits
    )
    try:
        payload = _friendly_request(args) if friendly else _read(args.source, stdin)
    except (OSError, ValueError) as error:
        print(f"cannot read the request: {error}", file=sys.stderr)
        return 2
    try:
        response = operation(payload)
    except Problem as problem:
        if friendly and not args.json:
            print(f"{problem.title}: {problem.detail}", file=stdout)
        else:
            print(json.dumps(problem.body(), ensure_ascii=False, indent=2), file=stdout)
        return 1
    if friendly and not args.json:
        print(describe(response), file=stdout)
    else:
        print(json.dumps(response, ensure_ascii=False, indent=2), file=stdout)
    return 0
