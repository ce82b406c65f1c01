"""The rule for what a test needs from outside the repository (tests/support/tools.py): skipped
where it is missing, failed with ``CI`` set, in a test or for a whole module."""

from __future__ import annotations

import pytest

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
