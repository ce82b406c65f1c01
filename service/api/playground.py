"""GET /: the playground, a Zung Jung calculator in the browser (API.md "The playground").

Its files (service/playground/: one page, ES modules, a stylesheet, the tile sprite) are read
once a process and answered from memory. The assets live under a name made of the
digest of them all (``/playground/<digest>/main.js``): a browser may keep them for ever
(``immutable``), and a new release is new names. The page itself is revalidated by its ETag.
Each file is also held gzipped (the tile sprite shrinks from ~120 KB to ~18 KB), answered to
clients that accept it. Every answer carries a strict Content-Security-Policy: only this
origin's scripts, styles, images and API, no inline script, no framing.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
from importlib import resources
from typing import NamedTuple

from flask import Flask, Response, request
from werkzeug.exceptions import NotFound

PREFIX = "/playground/"
# Where the page names its assets; replaced by PREFIX + the digest.
ASSETS = "/playground/ASSETS/"
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".md": "text/plain; charset=utf-8",
}


class File(NamedTuple):
    data: bytes
    zipped: bytes
    kind: str
    etag: str


def _file(name: str, data: bytes) -> File:
    kind = TYPES[name[name.rindex(".") :]]
    # mtime=0: the same bytes from every worker and every start.
    zipped = gzip.compress(data, compresslevel=9, mtime=0)
    return File(data, zipped, kind, '"' + hashlib.sha256(data).hexdigest()[:32] + '"')


# Once a process: the files ship with the package, and their gzip at level 9 was a third of
# what making an app cost (21 ms; a test suite makes about 1,200 apps).
@functools.cache
def files() -> tuple[str, File, dict[str, File]]:
    """The assets' digest, the page (naming them under it) and the assets by name."""
    folder = resources.files("service").joinpath("playground")
    raw = {
        entry.name: entry.read_bytes()
        for entry in folder.iterdir()
        if entry.is_file() and entry.name[entry.name.rfind(".") :] in TYPES
    }
    page = raw.pop("index.html")
    digest = hashlib.sha256()
    for name in sorted(raw):
        digest.update(name.encode() + b"\0" + raw[name] + b"\0")
    version = digest.hexdigest()[:16]
    page = page.replace(ASSETS.encode(), f"{PREFIX}{version}/".encode())
    return version, _file("index.html", page), {n: _file(n, d) for n, d in raw.items()}


def _answer(file: File, cache: str) -> Response:
    if request.if_none_match.contains_weak(file.etag.strip('"')):
        response = Response(status=304)
    else:
        zipped = request.accept_encodings["gzip"] > 0
        response = Response(file.zipped if zipped else file.data, content_type=file.kind)
        if zipped:
            response.headers["Content-Encoding"] = "gzip"
    response.headers["ETag"] = file.etag
    response.headers["Vary"] = "Accept-Encoding"
    response.headers["Cache-Control"] = cache
    response.headers["Content-Security-Policy"] = CSP
    return response


def owns(path: str) -> bool:
    """The paths whose answers set their own Cache-Control (headers.Envelope keeps it)."""
    return path == "/" or path.startswith(PREFIX)


def init_app(app: Flask) -> None:
    version, page, assets = files()

    def show() -> Response:
        return _answer(page, "no-cache")

    def asset(digest: str, name: str) -> Response:
        file = assets.get(name)
        if digest != version or file is None:
            raise NotFound()
        return _answer(file, "public, max-age=31536000, immutable")

    app.add_url_rule("/", "playground", show)
    app.add_url_rule(PREFIX + "<digest>/<name>", "playground_asset", asset)
