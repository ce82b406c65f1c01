"""Shoots docs/playground.png, the README's picture of the playground, from the real page.

    make screenshot    (or: .venv/bin/python scripts/screenshot.py [OUT])

The service runs under gunicorn as shipped (bench/server.py); Debian's headless Chromium, driven by
Playwright as in tests/test_playground.py, opens GET / on a phone's width (360 CSS px) with the
API.md example hand in the address, and the picture runs from the top of the page to the end
of the score.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import server  # noqa: E402

OUT = ROOT / "docs" / "playground.png"
# The API.md example: a pung of Red dragons declared, 4s won on West's discard by South.
HAND = "#hand=123m789p2355s4s+%5B777z%5D&by=discard&seat=S&from=W"


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else OUT
    browser = shutil.which("chromium-headless-shell")
    if browser is None:
        raise SystemExit("chromium-headless-shell is not installed (`make browser-tools`)")
    with server.gunicorn(workers=1) as running, sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=browser)
        page = launched.new_page(viewport={"width": 360, "height": 740}, device_scale_factor=1.25)
        page.goto(running.url + "/" + HAND)
        page.wait_for_selector("#score .payments")
        page.wait_for_selector("html[data-busy='0']", state="attached")
        page.evaluate("document.getElementById('hand').blur()")
        bottom = page.eval_on_selector("#score", "(e) => e.getBoundingClientRect().bottom")
        # A screen as tall as the page down to the score: the answer in sight, so the page
        # hides its summary line, as it does on a phone scrolled there.
        page.set_viewport_size({"width": 360, "height": int(bottom) + 8})
        page.wait_for_selector("#summary", state="hidden")
        page.screenshot(path=str(out))
        launched.close()
    print(f"{out}: {out.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
