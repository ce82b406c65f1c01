"""The README's and docs/EXAMPLES.md's curl examples answer what those pages print, and the
pages' command-line examples print what the pages show.

Each ``curl`` block sending a request is sent to the app, and the JSON block after it must
match the answer: ``"...": "..."`` stands for the keys left out, a ``"..."`` string for one or
more list items left out and ``"... 46 more"`` for exactly 46 (the items shown keep their
order), ``...`` within a string for the text left out, and ``"request_id"`` differs from run to
run.

A console block's command (``$ ...``) running the CLI is run by bash in a directory holding
the files the page shows (a backticked ``NAME.json`` introducing a JSON block), with the
build under test as ``.venv/bin/zj-score`` and ``.venv/bin/python``; it must print the lines
under it, a ``...`` line standing for one or more lines left out.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

import service
from service import create_app
from service.domain.rules.rulesets import install_profiles

from .test_house_rules import README_CLUB

ROOT = Path(__file__).resolve().parents[1]
PAGES = ("README.md", "docs/EXAMPLES.md")
_BLOCK = re.compile(r"```sh\n(curl [^`]*?)```\n```json\n(.*?)```", re.S)


def examples() -> Iterator[Any]:
    for page in PAGES:
        text = (ROOT / page).read_text(encoding="utf-8")
        for number, (command, shown) in enumerate(_BLOCK.findall(text)):
            if "\ncurl" in command.strip():
                continue  # several commands, one answer each: not an example of one
            yield pytest.param(command, shown, id=f"{page}-{number}")


def _request(command: str) -> tuple[str, str, dict[str, str], bytes | None]:
    words = shlex.split(command.replace("\\\n", " "))
    method, url, headers, body = "GET", "", {}, None
    index = 1
    while index < len(words):
        word = words[index]
        if word == "-H":
            name, _, value = words[index + 1].partition(":")
            headers[name.strip()] = value.strip()
            index += 2
        elif word == "-d":
            method, body = "POST", words[index + 1].encode()
            index += 2
        elif word.startswith("-"):
            index += 1
        else:
            url = word
            index += 1
    return method, url.split("localhost:8000", 1)[1], headers, body


def matches(shown: Any, got: Any) -> bool:
    """Whether the answer ``got`` is what the page ``shown`` (with its elisions)."""
    if isinstance(shown, dict):
        if not isinstance(got, dict):
            return False
        keys = [key for key in shown if key != "..."]
        if "..." not in shown and set(keys) != set(got):
            return False
        return all(key in got and matches(shown[key], got[key]) for key in keys)
    if isinstance(shown, list):
        return isinstance(got, list) and _matches_items(shown, got)
    if isinstance(shown, str) and "..." in shown and isinstance(got, str):
        pieces = (re.escape(piece) for piece in shown.split("..."))
        return re.fullmatch(".*".join(pieces), got, re.S) is not None
    return bool(shown == got)


def _matches_items(shown: list[Any], got: list[Any]) -> bool:
    """Item by item, in order: ``"... N more"`` stands for exactly N items, ``"..."`` for one
    or more."""
    if not shown:
        return not got
    head, rest = shown[0], shown[1:]
    if head == "...":
        return any(_matches_items(rest, got[skipped:]) for skipped in range(1, len(got) + 1))
    more = re.fullmatch(r"\.\.\. (\d+) more", head) if isinstance(head, str) else None
    if more:
        skipped = int(more[1])
        return len(got) >= skipped and _matches_items(rest, got[skipped:])
    return bool(got) and matches(head, got[0]) and _matches_items(rest, got[1:])


def test_matching_allows_only_what_is_elided() -> None:
    assert matches({"a": 1, "...": "..."}, {"a": 1, "b": 2})
    assert not matches({"a": 1}, {"a": 1, "b": 2})
    assert not matches({"a": 1, "...": "..."}, {"a": 2, "b": 2})
    assert matches(["x", "... 2 more"], ["x", "y", "z"])
    assert not matches(["x", "... 2 more"], ["y", "x", "z"])  # in order
    assert not matches(["x", "... 2 more"], ["x", "y"])  # as many as it says
    assert not matches(["x", "... 1 more"], ["x", "y", "z"])
    assert matches(["...", "x", "...", "z"], ["w", "x", "y", "y", "z"])
    assert not matches(["...", "x", "...", "z"], ["x", "y", "z"])  # "..." is one item or more
    assert not matches(["...", "x", "...", "z"], ["w", "z", "y", "x"])
    assert not matches(["x", "y"], ["x", "z"])
    assert matches("one: ...; two", "one: a long text; two")
    assert not matches("one: ...; two", "one: a long text; three")


@pytest.fixture(scope="module")
def served() -> Iterator[Flask]:
    app = create_app({"TESTING": True})
    try:
        yield app
    finally:
        install_profiles({})


@pytest.mark.parametrize(("command", "shown"), list(examples()))
def test_the_example_answers_what_the_page_shows(served: Flask, command: str, shown: str) -> None:
    method, path, headers, body = _request(command)
    # The pages' house-rule examples were run with the README's profiles, the others without.
    install_profiles(README_CLUB if "profile" in command else {})
    answer = served.test_client().open(path, method=method, headers=headers, data=body)
    got = answer.get_json()
    expected = json.loads(shown)
    if isinstance(expected, dict) and "request_id" in expected and "request_id" in got:
        got["request_id"] = expected["request_id"]
    assert matches(expected, got), json.dumps(got, ensure_ascii=False)[:2000]


def test_the_pages_have_examples() -> None:
    assert len(list(examples())) >= 10


CONSOLE_PAGES = ("README.md", "docs/CLI.md", "docs/EXAMPLES.md")
_CONSOLE = re.compile(r"```console\n(.*?)```", re.S)
_FILE = re.compile(r"`([\w-]+\.json)`(?:(?!```).)*?:\n\n```json\n(.*?)```", re.S)


def commands() -> Iterator[Any]:
    for page in CONSOLE_PAGES:
        text = (ROOT / page).read_text(encoding="utf-8")
        number = 0
        for block in _CONSOLE.findall(text):
            for entry in re.split(r"^\$ ", block, flags=re.M)[1:]:
                command, _, shown = entry.partition("\n")
                if "zj-score" in command or "python -m service" in command:
                    yield pytest.param(page, command, shown, id=f"{page}-{number}")
                    number += 1


def _installed(directory: Path) -> dict[str, str]:
    """``directory`` with the build under test as .venv/bin's zj-score and python; the
    environment to run them in."""
    bin = directory / ".venv" / "bin"
    bin.mkdir(parents=True)
    scripts = {
        "zj-score": f"#!{sys.executable}\nimport sys\nfrom service.cli import main\n"
        "sys.exit(main())\n",
        "python": f'#!/bin/sh\nexec {sys.executable} "$@"\n',
    }
    for name, script in scripts.items():
        (bin / name).write_text(script, encoding="utf-8")
        (bin / name).chmod(0o755)
    env = {name: value for name, value in os.environ.items() if not name.startswith("ZJ_")}
    return {**env, "PYTHONPATH": str(Path(service.__file__).resolve().parents[1])}


@pytest.mark.parametrize(("page", "command", "shown"), list(commands()))
def test_the_command_prints_what_the_page_shows(
    tmp_path: Path, page: str, command: str, shown: str
) -> None:
    for name, body in _FILE.findall((ROOT / page).read_text(encoding="utf-8")):
        (tmp_path / name).write_text(body, encoding="utf-8")
    ran = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=_installed(tmp_path),
                         capture_output=True, text=True, check=False, timeout=120)  # fmt: skip
    assert ran.stderr == ""
    got = "".join(line.rstrip() + "\n" for line in ran.stdout.splitlines())
    lines = (
        "(?:.*\n)+" if line == "..." else re.escape(line) + "\n" for line in shown.splitlines()
    )
    assert re.fullmatch("".join(lines), got), got


def test_the_pages_have_commands() -> None:
    pages = {param.values[0] for param in commands()}
    assert pages == set(CONSOLE_PAGES)
    assert len(list(commands())) >= 10
