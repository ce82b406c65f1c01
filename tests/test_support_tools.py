"""The rule for what a test needs from outside the repository (tests/support/tools.py): skipped
where it is missing, failed with ``CI`` set, in a test or for a whole module; and how `make`
installs it (scripts/apt-tools.sh)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from .conftest import _never_chooses, pytest_collection_modifyitems
from .support.tools import require_tool


def test_what_is_there_is_given_back(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    assert require_tool("/usr/bin/node", "node is not installed") == "/usr/bin/node"


def test_what_is_missing_skips_a_test_or_a_whole_module(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"^no corpus$") as skipped:
        require_tool(None, "no corpus")
    # Without it, pytest turns a skip at a module's top into an error about the skip itself.
    assert skipped.value.allow_module_level


def test_what_is_missing_fails_with_ci_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "1")
    with pytest.raises(pytest.fail.Exception, match=r"^no corpus; CI is set"):
        require_tool(None, "no corpus")


def apt_tools(bin_dir: Path, *pairs: str, apt_get_status: int = 0) -> tuple[str, str]:
    """scripts/apt-tools.sh's output and the apt-get commands it ran, with PATH holding only
    ``bin_dir``: an apt-get there that records its arguments and exits with ``apt_get_status``,
    and what a test put beside it."""
    log = bin_dir / "apt-get.log"
    apt_get = bin_dir / "apt-get"
    apt_get.write_text(f'#!/bin/sh\necho "$@" >> {log}\nexit {apt_get_status}\n')
    apt_get.chmod(0o755)
    script = Path(__file__).resolve().parent.parent / "scripts" / "apt-tools.sh"
    bash = shutil.which("bash")
    assert bash is not None
    done = subprocess.run(
        [bash, str(script), "skipped", *pairs],
        env={"PATH": str(bin_dir)},
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout, log.read_text() if log.exists() else ""


def put_command(bin_dir: Path, name: str) -> None:
    command = bin_dir / name
    command.write_text("#!/bin/sh\n")
    command.chmod(0o755)


def test_only_the_missing_packages_are_installed(tmp_path: Path) -> None:
    # A node from elsewhere (nodesource) with its own npm: asking Debian for npm beside it
    # fails the whole apt-get run, chromium with it.
    put_command(tmp_path, "node")
    put_command(tmp_path, "npm")
    said, ran = apt_tools(tmp_path, "chromium:chromium", "nodejs:node", "npm:npm")
    assert said == "installing Debian's chromium\n"
    assert ran == "update -qq\ninstall -y -qq chromium\n"


def test_nothing_is_installed_when_nothing_is_missing(tmp_path: Path) -> None:
    put_command(tmp_path, "node")
    assert apt_tools(tmp_path, "nodejs:node") == ("", "")


def test_a_failed_install_says_what_is_skipped(tmp_path: Path) -> None:
    said, ran = apt_tools(tmp_path, "wrk:wrk", apt_get_status=100)
    assert said == "installing Debian's wrk\nskipped\n"
    assert ran == "update -qq\n"


def _make_test_marks(variable: str) -> str:
    """The marks a run of make test chooses, as the Makefile says them (its ``-m "..."``)."""
    makefile = (Path(__file__).resolve().parents[1] / "Makefile").read_text()
    found = re.search(rf'^{variable}\s*:=.*-m "([^"]+)"', makefile, re.M)
    assert found is not None, f"no {variable} with -m in the Makefile"
    return found[1]


ON_BOTH = _make_test_marks("ON_BOTH")


@pytest.mark.parametrize(
    ("chosen", "never"),
    [
        ("not client_side", True),
        (ON_BOTH, True),  # make test's pure run
        ("not (server or client_side)", True),
        ("slow and not client_side", True),
        ("client_side", False),
        ("not serial", False),
        ("not client_side or slow", False),  # a test marked slow too is chosen
        ("not (client_side and slow)", False),
    ],
)
def test_a_module_is_left_uncollected_only_where_none_of_its_tests_is_chosen(
    chosen: str, never: bool
) -> None:
    assert _never_chooses(chosen, "client_side") is never


class _Collected:
    """What the collection hook reads of a test: its id, its module's path and its marks."""

    def __init__(self, nodeid: str, *marks: str) -> None:
        self.nodeid, self.path, self.marks = nodeid, Path(nodeid.split("::")[0]), marks

    def get_closest_marker(self, name: str) -> str | None:
        return name if name in self.marks else None


def test_the_long_tests_are_handed_out_first_and_the_rest_keep_their_order() -> None:
    items = [
        _Collected("test_a.py::one"),
        _Collected("test_a.py::fuzzed", "fuzz"),
        _Collected("test_b.py::two"),
        _Collected("test_b.py::swept", "sweep"),
        _Collected("test_c.py::slow", "slow"),
        _Collected("test_c.py::three"),
    ]
    pytest_collection_modifyitems(items)  # type: ignore[arg-type]
    assert [item.nodeid.split("::")[1] for item in items] == [
        "fuzzed", "swept", "slow", "one", "two", "three"
    ]  # fmt: skip
