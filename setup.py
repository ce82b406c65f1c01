"""Opt-in compiled build: ``ZJ_COMPILE=1`` compiles the hot path with mypyc.

Everything else about the package is in pyproject.toml. Without ZJ_COMPILE (an editable dev
install, a plain ``pip install .``) the package is pure Python; the image sets it, and
``scripts/compile.sh`` builds the same wheel for the tests and the benchmarks. mypyc compiles
the modules as they are (they are type-checked with mypy --strict); the ``.py`` files stay in
the wheel beside the extension, which Python imports first.
"""

import os
from pathlib import Path

from setuptools import setup

# The pure, typed core: the domain, the fast request loader, the response renderer and the
# engine between them. request/schemas.py stays interpreted: its fields subclass marshmallow's,
# which mypyc cannot compile; loading.py too, which imports marshmallow.
COMPILED = [
    *sorted(str(path) for path in Path("service/domain").rglob("*.py")),
    "service/engine.py",
    "service/request/fast.py",
    "service/request/limits.py",
    "service/request/models.py",
    "service/render.py",
]

ext_modules = []
if os.environ.get("ZJ_COMPILE") == "1":
    from mypyc.build import mypycify

    # Not pyproject's [tool.mypy] (the whole package, bench too: `make typecheck` runs that),
    # and only the compiled modules checked: the rest imports Flask and marshmallow, which the
    # build stage does not install, and the compiled modules import neither.
    options = ["--config-file=", "--strict", "--follow-imports=silent"]
    # A C file for each module (multi_file), not one for all: gcc spends a quarter less CPU
    # (86 s against 114 s, 8.4 MB of C against 15.6 MB) and the engine runs the same
    # instructions to within 0.02% (bench.instructions, bench.expect_instructions; 2026-11-29).
    ext_modules = mypycify([*options, *COMPILED], opt_level="3", debug_level="0", multi_file=True)
    # A call between compiled functions is direct, or inlined, not through the shared library's
    # PLT: no other library ever stands in for one (as CPython's own build has it). 6.5% fewer
    # instructions on the expected score (profile-guided, bench.expect_instructions; 2026-11-29).
    for extension in ext_modules:
        extension.extra_compile_args.append("-fno-semantic-interposition")

setup(ext_modules=ext_modules)
