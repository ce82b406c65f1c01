"""Every file a page of the repository sends its reader to is in the repository.

A reference is a markdown link (``[text](docs/RULES.md)``), a backticked path that names a
file or a folder (```service/cli.py```, ```bench/```; a bare ```engine.py``` is a file of that
name anywhere in the repository), or a page named in prose (``RULES.md §8``). A link is read
from the page's folder; the others from the page's folder or the repository's root, as the
pages write them. Paths git ignores (``build/compiled``: made by a build) are not checked.
"""

from __future__ import annotations

import fnmatch
import os
import re
from pathlib import Path, PurePosixPath

import pytest

ROOT = Path(__file__).resolve().parents[1]
IGNORED = [
    line.strip().rstrip("/")
    for line in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    if line.strip() and not line.startswith("#")
] + [".git"]

_FENCED = re.compile(r"^```.*?^```", re.S | re.M)
_LINK = re.compile(r"\]\(([^)\s]+)\)")
_CODE = re.compile(r"`([^`\n]+)`")
_PATH = re.compile(r"(?:\.\./)*[\w.-]+(?:/[\w.-]+)*/?")
# Files of these kinds: a backticked sheet.json is the reader's own file, not the repository's.
_FILE_KIND = re.compile(r"\w\.(md|py|ya?ml|toml|lock|sh|js|ts|css|html|in|cfg|bin|png)$")
_PAGE = re.compile(r"(?<![\w/.-])(?:\.\./)*(?:[\w-]+/)*[\w-]+\.md\b")


def ignored(relative: str) -> bool:
    """Whether git ignores the path (or a folder it is in), by the repository's .gitignore."""
    parts = PurePosixPath(relative).parts
    for pattern in IGNORED:
        if "/" in pattern:
            if any("/".join(parts[:end]) == pattern for end in range(1, len(parts) + 1)):
                return True
        elif any(fnmatch.fnmatch(part, pattern) for part in parts):
            return True
    return False


def pages() -> list[str]:
    found = []
    for folder, folders, files in os.walk(ROOT):
        here = os.path.relpath(folder, ROOT)
        folders[:] = [f for f in folders if not ignored(os.path.normpath(os.path.join(here, f)))]
        found += [os.path.normpath(os.path.join(here, f)) for f in files if f.endswith(".md")]
    return sorted(found)


def _held(page: str, target: str, bases: tuple[str, ...]) -> bool:
    """Whether ``target``, read from one of ``bases`` ("." is the root), is in the repository
    (or is a path git ignores, made by a build)."""
    for base in bases:
        relative = os.path.normpath(os.path.join(base, target))
        if relative.startswith("..") or ignored(relative) or (ROOT / relative).exists():
            return not relative.startswith("..")
    return False


def _names() -> set[str]:
    return {
        name
        for folder, folders, files in os.walk(ROOT)
        if not ignored(os.path.relpath(folder, ROOT))
        for name in files
    }


def missing(page: str, text: str, names: set[str]) -> list[str]:
    """The references of ``page`` (its ``text``) to what the repository does not hold."""
    here = os.path.dirname(page) or "."
    prose = _FENCED.sub("", text)
    faults = []
    for target in _LINK.findall(prose):
        path = target.split("#")[0].split("?")[0]
        if path and not re.match(r"[a-z]+:", path) and not _held(page, path, (here,)):
            faults.append(f"link {target}")
    for code in _CODE.findall(prose):
        if not _PATH.fullmatch(code) or code.startswith("/"):
            continue  # not a path, or one on a server (/v1/score, /dev/shm)
        if "/" in code.rstrip("/"):
            reads_as_file = code.endswith("/") or _FILE_KIND.search(code)
            if reads_as_file and not _held(page, code, (here, ".")):
                faults.append(f"`{code}`")
        elif _FILE_KIND.search(code) and code not in names:
            faults.append(f"`{code}`")
    for named in _PAGE.findall(_CODE.sub("", _LINK.sub("]()", prose))):
        if not _held(page, named, (here, ".")):
            faults.append(named)
    return faults


@pytest.mark.parametrize("page", pages())
def test_the_page_sends_the_reader_only_to_what_the_repository_holds(page: str) -> None:
    assert missing(page, (ROOT / page).read_text(encoding="utf-8"), _names()) == []


def test_a_reference_to_what_is_not_held_is_found() -> None:
    page = "\n".join(
        [
            "See [the rules](RULES.md), [the API](API.md#scores) and [a site](https://x.org/a.md).",
            "The contract: API.md, openapi.yaml; RULES.md §8; `../shared/API.md`,",
            "`service/cli.py`, `service/nothing.py`, `gone.py`, `engine.py`, `application/json`,",
            "`/v1/score`,",
            "`build/compiled/`, `sheet.json`, `hand.tiles`.",
            "```sh",
            "cat missing.md",
            "```",
        ]
    )
    assert missing("docs/PAGE.md", page, {"engine.py"}) == [
        "link API.md#scores",
        "`../shared/API.md`",
        "`service/nothing.py`",
        "`gone.py`",
        "API.md",
    ]


def test_the_pages_are_found() -> None:
    assert {"README.md", "docs/CLI.md", "docs/EXAMPLES.md", "docs/DESIGN.md"} <= set(pages())
