"""Builds service/playground/tiles.svg, the playground's tile faces, from ../shared/tiles.

    .venv/bin/python scripts/tile_sprite.py [TILES_DIR]

The drawings are FluffyStuff/riichi-mahjong-tiles (CC0, see service/playground/NOTICE). Each
file is shrunk by scour (no editor metadata, 3 significant digits: 0.1 px on a 40 px tile),
its ids prefixed with its tile so that none collide, and kept as one <symbol> of a single
sprite: one request for all 34 faces (~140 KB, ~18 KB gzipped, where the 37 files are 730 KB).
White is drawn here as a framed blank, as Chinese sets draw it; Haku.svg is empty.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from scour.scour import parse_args, scourString

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "service" / "playground" / "tiles.svg"
SUITS = {"m": "Man", "p": "Pin", "s": "Sou"}
HONOURS = {"1z": "Ton", "2z": "Nan", "3z": "Shaa", "4z": "Pei", "6z": "Hatsu", "7z": "Chun"}
# A blue frame inset on the face, as on a Chinese set's White dragon.
WHITE = (
    '<symbol id="t-5z" viewBox="0 0 300 400"><rect x="62" y="72" width="176" height="256"'
    ' rx="14" fill="none" stroke="#1d4f91" stroke-width="14"/><rect x="84" y="94"'
    ' width="132" height="212" rx="6" fill="none" stroke="#1d4f91" stroke-width="5"/></symbol>'
)
OPTIONS = parse_args(
    ["--enable-viewboxing", "--enable-id-stripping", "--shorten-ids", "--remove-metadata",
     "--strip-xml-prolog", "--remove-descriptive-elements", "--enable-comment-stripping",
     "--set-precision=3", "--create-groups", "--strip-xml-space", "--no-line-breaks", "--quiet"]
)  # fmt: skip


def files() -> dict[str, str]:
    """Symbol id -> source file name."""
    named = {f"t-{n}{suit}": f"{stem}{n}.svg" for suit, stem in SUITS.items() for n in range(1, 10)}
    named |= {f"t-{tile}": f"{stem}.svg" for tile, stem in HONOURS.items()}
    return named | {"front": "Front.svg", "back": "Back.svg"}


def symbol(name: str, text: str) -> str:
    small = scourString(text, OPTIONS)
    view = re.search(r'viewBox="([^"]+)"', small)
    body = re.search(r"<svg[^>]*>(.*)</svg>", small, re.S)
    assert view and body, name
    inner = body.group(1)
    # Ids (shortened to a, b, ...) made unique in the sprite, and every reference to them.
    inner = re.sub(r'\bid="([^"]+)"', rf'id="{name}-\1"', inner)
    inner = re.sub(r"url\(#([^)]+)\)", rf"url(#{name}-\1)", inner)
    inner = re.sub(r'xlink:href="#([^"]+)"', rf'href="#{name}-\1"', inner)
    return f'<symbol id="{name}" viewBox="{view.group(1)}">{inner}</symbol>'


def main(argv: list[str]) -> int:
    source = Path(argv[1]) if len(argv) > 1 else ROOT.parent / "shared" / "tiles"
    if not (source / "Front.svg").is_file():
        raise SystemExit(f"no tile drawings in {source}: name the folder of the Regular set")
    symbols = [symbol(name, (source / file).read_text()) for name, file in files().items()]
    OUT.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg">' + "".join([*symbols, WHITE]) + "</svg>\n"
    )
    print(f"{OUT.relative_to(ROOT)}: {OUT.stat().st_size} bytes, {len(symbols) + 1} symbols")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
