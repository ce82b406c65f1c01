"""A TypeScript app against a live server, as most mahjong apps (web, React Native) are written.

tests/typescript/ holds the app (client.ts) and its packages, pinned by package-lock.json:
openapi-typescript generates the types from openapi.yaml and openapi-fetch makes the calls,
both at their default settings; strict tsc must compile it (a request field with a `default`
in the contract would be required in the generated types: openapi-typescript issue #2012),
and it must get the answers it expects from a real gunicorn (score, waits, an expected score,
batch, a 422).
Node and npm come from Debian (`make node-tools`); without them the test is skipped, saying so
(failed with `CI` set: tests/support/tools.py).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from .support import live as live_server
from .support.contract import SPEC_PATH
from .support.tools import require_tool

APP = Path(__file__).parent / "typescript"
# The lockfile that node_modules was installed from, written there after `npm ci` (which
# empties node_modules first): a run again, or on the other build (build/compiled/tests links
# here), installs again only for another lockfile.
INSTALLED_FROM = APP / "node_modules" / ".installed-from-package-lock.json"

pytestmark = [pytest.mark.slow, pytest.mark.client_side]


def _run(*command: str, timeout: float = 300) -> str:
    done = subprocess.run(
        command, cwd=APP, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert done.returncode == 0, f"{' '.join(command)}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def compiled() -> Path:
    require_tool(
        shutil.which("node") and shutil.which("npm"),
        "node and npm are not installed (make node-tools installs Debian's)",
    )
    # The lockfile's exact packages, from the npm registry (what `npm ci` is for).
    lock = (APP / "package-lock.json").read_bytes()
    if not INSTALLED_FROM.exists() or INSTALLED_FROM.read_bytes() != lock:
        _run("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
        INSTALLED_FROM.write_bytes(lock)
    tools = APP / "node_modules" / ".bin"
    _run(str(tools / "openapi-typescript"), str(SPEC_PATH), "-o", "schema.d.ts")
    # Incremental (tsconfig.json): a run again checks only what changed, and reports again
    # the errors it kept (2.6 s against 9).
    _run(str(tools / "tsc"), "-p", ".")
    return APP / "build" / "client.js"


def test_a_strict_typescript_app_compiles_and_is_answered_as_typed(compiled: Path) -> None:
    with live_server.gunicorn() as live:
        said = _run("node", str(compiled), live.url, timeout=60)
    assert "score, waits, expected scores, batch and a 422 as typed" in said
