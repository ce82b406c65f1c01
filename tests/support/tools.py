"""Tools and files from outside the repository that some tests need (Chromium, Node and npm,
hadolint, ../shared's conformance corpus).

Where one is missing, its test skips, saying what to install; with ``CI`` set (any non-empty
value) it fails instead: a build that skipped them would pass without having run them.
"""

from __future__ import annotations

import os
import shutil

import pytest


def require_tool(found: str | None, why: str) -> str:
    """``found`` (a tool's path, or a file's), or the test skips with ``why`` (fails under CI).
    Called at a module's top, it skips or fails the whole module, at its collection."""
    if found:
        return found
    if os.environ.get("CI"):
        pytest.fail(f"{why}; CI is set, so this test must run, not skip")
    pytest.skip(why, allow_module_level=True)


def chromium() -> str:
    """Debian's headless Chromium, ``chromium-headless-shell``: the same engine as its
    ``chromium`` without the browser's windows, as Playwright runs Chromium headless by default.
    The full browser's headless mode opens a window a context, each with its omnibox's web UI
    preloaded in renderers of their own: the playground's 32 tests cost Chromium 99 seconds of
    CPU there, against 47 here (2026-11-29)."""
    return require_tool(
        shutil.which("chromium-headless-shell"),
        "chromium-headless-shell is not installed (make browser-tools installs Debian's package)",
    )
