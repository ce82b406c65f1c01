"""``python -m service``: the command-line interface."""

from .cli import main

raise SystemExit(main())
