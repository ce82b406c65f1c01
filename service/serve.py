"""``zj-serve``: gunicorn with the service's settings checked first.

    zj-serve [gunicorn arguments]     # e.g. --config gunicorn.conf.py 'service:create_app()'

Every environment variable the service documents is checked before gunicorn is imported: a
bad one stops the start with one line naming it, its value and what is allowed, exit status 1
(gunicorn itself reads WEB_CONCURRENCY as it is imported and dies on ``two`` with a
traceback). Then this process becomes gunicorn (exec: the same pid, so a container's signals
reach gunicorn's master). Without arguments it serves ``service:create_app()`` with
``gunicorn.conf.py`` of the working directory, as gunicorn would find it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from .settings import check_all

APP = "service:create_app()"


def main(argv: Sequence[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    check_all()
    if not args:
        args = [APP]
    os.execv(sys.executable, [sys.executable, "-m", "gunicorn", *args])


if __name__ == "__main__":
    main()
