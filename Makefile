# Every target does its own setup: a fresh clone needs only python3 (and, for the container
# targets, root with apt-get).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8000
# Bytecode is cached (__pycache__, ignored by git) even where the environment turns it off:
# `make test` starts about a hundred Python processes (xdist workers, servers, the CLI), and
# without the cache each compiled every module again, pytest's rewritten tests and plugins
# among them (a third of a collection's CPU).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: help venv serve test test-pure suit-table lint typecheck compiled profiled compiled-suite compiled-drills test-compiled bench bench-peer bench-tools test-tools browser-tools node-tools container-test load screenshot clean

help:
	@echo "make serve           run the service with gunicorn on \$$PORT (default 8000)"
	@echo "make test            lint, type-check, run the test suite on both builds"
	@echo "make compiled        build the mypyc-compiled service into build/compiled (as tested)"
	@echo "make profiled        the same, profile-guided as the image ships it"
	@echo "make bench           engine and HTTP benchmarks of the profiled build, as figures"
	@echo "make bench-peer      the expected score against its C++ peer (mahjong-cpp), same hands"
	@echo "make load            one minute of saturating load, errors and worker memory"
	@echo "make container-test  build the image with buildah and check it over HTTP"
	@echo "make screenshot      shoot docs/playground.png from the real page (README's picture)"

$(VENV)/.created:
	$(PYTHON) -m venv $(VENV)
	touch $@

# Serving needs only the runtime dependencies, exactly as the image installs them (hashes
# checked), and the service itself: a first `make serve` does not wait for the dev toolchain.
# Installed again when the version (service/__init__.py) changes: the metadata carries it.
$(VENV)/.serve: requirements.lock pyproject.toml service/__init__.py $(VENV)/.created
	$(BIN)/pip install --quiet --require-hashes --no-deps -r requirements.lock
	$(BIN)/pip install --quiet --no-deps -e .
	touch $@

# Everything the tests, linters, type checker and benchmarks use.
$(VENV)/.dev: pyproject.toml service/__init__.py $(VENV)/.created
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

venv: $(VENV)/.dev

# The compiler toolchain (mypy with mypyc, setuptools), hash-checked from requirements-build.lock
# in a venv of its own, as the image's build stage has it: the compile starts a few seconds in,
# beside the dev install, not after it.
TOOLCHAIN := build/toolchain
$(TOOLCHAIN)/.installed: requirements-build.lock
	rm -rf $(TOOLCHAIN)
	$(PYTHON) -m venv $(TOOLCHAIN)
	$(TOOLCHAIN)/bin/pip install --quiet --require-hashes --no-deps -r requirements-build.lock
	touch $@

# zj-serve checks every setting (one line on a bad one), then becomes gunicorn.
serve: $(VENV)/.serve
	@PORT=$(PORT) $(BIN)/zj-serve --config gunicorn.conf.py 'service:create_app()'

lint: venv
	$(BIN)/ruff check service tests bench scripts gunicorn.conf.py
	$(BIN)/ruff format --check service tests bench scripts gunicorn.conf.py

typecheck: venv
	$(BIN)/mypy

# The suite runs twice: on the source tree (pure Python) and on the compiled build the image
# ships, where mypyc also enforces the type annotations at run time. Side by side (make -j):
# the set-up steps, then each build's suite on every core (pytest-xdist; the tests of one
# xdist_group share a worker): the compiled build's as soon as it is built, then its
# timing-sensitive drills (marked serial), which no other test of its own runs beside; and the
# pure build's once lint, types and tools are done, at the lowest priority (nice 19), on the CPU
# the compiled chain leaves: the compile's other core, the gaps while servers start, sleep or
# wait on the network, and the drills' (a third of their time is idle). A nice-19 neighbour on
# both cores slowed those drills by 3-6% and their verdicts held (2 runs, 2026-11-29). Each
# prints when it ends (-Otarget). Last, on a machine with nothing else on it, the one drill
# that such a neighbour upsets (marked alone: among a thousand slow clients, a probe went
# unanswered in 6 runs of 249 beside it). What runs on the compiled build only
# (docs/DESIGN.md): the drills and the other tests marked server, which judge the serving
# layer (gunicorn, service/worker.py, reading.py, turns.py), interpreted in both builds; the
# tests marked client_side (the browser's and the client apps'), which judge the page's
# scripts and the contract, the same files in both builds; and the fuzzing (marked fuzz),
# which sets compiled code against interpreted oracles and is strictest where mypyc checks the
# types: on the build the image ships; and the expected score's sweeps (marked sweep: its
# searches held to oracles or whole reviewed games over many hands), tens of seconds each on
# the pure build, which keeps every smaller test of the same source. A plain `pytest` runs
# everything in one process.
EVERY_CORE := -n auto --dist loadgroup -m "not serial"
ON_BOTH    := -n auto --dist loadgroup -m "not serial and not client_side and not server and not fuzz and not sweep"
SERIAL     := -m "serial and not alone" tests/test_serving.py tests/test_faults.py  # conftest.py: SERIAL_MODULES
ALONE      := -m alone tests/test_serving.py tests/test_faults.py
PYTEST_COMPILED := cd build/compiled && ../../$(BIN)/pytest -p no:cacheprovider

test:
	$(MAKE) -j4 -Otarget --no-print-directory test-pure compiled-drills
	$(PYTEST_COMPILED) $(ALONE)

# The pure build's suite but what runs on the compiled build only (make test), at the lowest
# priority: the compiled build's chain (the compile, its suite, then the drills) is the longer
# one, so the pure suite yields the CPU to it and fills its gaps.
test-pure: lint typecheck test-tools
	nice -n 19 $(BIN)/pytest $(ON_BOTH)

compiled: $(TOOLCHAIN)/.installed
	bash scripts/compile.sh $(TOOLCHAIN)/bin/python

# The compiled service exactly as the image builds it: profile-guided (scripts/wheel.sh).
profiled: $(TOOLCHAIN)/.installed venv
	bash scripts/compile.sh --profile $(TOOLCHAIN)/bin/python

# service/domain/analysis/suits.bin, the suits' distances (committed; made again only if
# distance.py's pass changes): counted by the compiled build.
suit-table: compiled venv
	cd build/compiled && PYTHONPATH=. ../../$(BIN)/python ../../scripts/suit_table.py

# The compiled build's suite but the drills (make test).
compiled-suite: compiled venv test-tools
	$(PYTEST_COMPILED) $(EVERY_CORE)

compiled-drills: compiled-suite
	$(PYTEST_COMPILED) $(SERIAL)

test-compiled: compiled-drills
	$(PYTEST_COMPILED) $(ALONE)

# Debian's packages, each installed when missing and apt-get is usable, else a line saying what
# is skipped (scripts/apt-tools.sh).
APT_TOOLS := bash scripts/apt-tools.sh

# wrk drives the HTTP figures and valgrind counts instructions per hand.
bench-tools:
	@$(APT_TOOLS) "wrk or valgrind is not installed: their figures are skipped" wrk:wrk valgrind:valgrind

# Debian's headless Chromium (chromium-headless-shell: its engine without the browser's windows,
# half the CPU of `chromium --headless`, tests/support/tools.py) renders GET /docs in
# tests/test_operations.py and drives the playground in tests/test_playground.py (through
# Playwright, from the dev dependencies; never its own browser download); fonts-noto-cjk draws
# the page's Chinese, which is empty boxes without it. Installed here as root; otherwise `sudo
# apt-get install chromium-headless-shell fonts-noto-cjk` (README). Without them those tests
# skip, saying why, and fail with CI set.
browser-tools:
	@$(APT_TOOLS) "headless Chromium or a Chinese font is not installed: the browser tests are skipped (failed with CI set)" \
		chromium-headless-shell:chromium-headless-shell fonts-noto-cjk:zh-font

# Debian's node and npm compile and run tests/typescript/, a TypeScript app made from the
# contract (tests/test_typescript.py). Installed here as root; otherwise `sudo apt-get install
# nodejs npm`. Without them the test is skipped, saying why, and fails with CI set.
node-tools:
	@$(APT_TOOLS) "node or npm is not installed: the TypeScript client test is skipped (failed with CI set)" \
		nodejs:node npm:npm

# Both for `make test`, in one apt-get run (two at once would wait on each other's lock).
test-tools:
	@$(APT_TOOLS) "headless Chromium, a Chinese font, node or npm is not installed: their tests are skipped (failed with CI set)" \
		chromium-headless-shell:chromium-headless-shell fonts-noto-cjk:zh-font nodejs:node npm:npm

bench: profiled venv bench-tools
	cd build/compiled && ../../$(BIN)/python -m bench

# The expected score against its C++ peer on the same hands (bench/expect_peer.py): mahjong-cpp,
# cloned from GitHub and built into build/peer, outside the service (bench/peer_expect/build.sh
# names the Debian packages it needs).
bench-peer: profiled venv
	bash bench/peer_expect/build.sh
	cd build/compiled && ../../$(BIN)/python -m bench.expect_peer

load: venv bench-tools
	$(BIN)/python -m bench.load

container-test: venv
	bash scripts/container-test.sh

# The README's picture of the playground, shot from the real page (browser-tools' font draws 中文).
screenshot: venv browser-tools
	$(BIN)/python scripts/screenshot.py

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis \
		tests/typescript/node_modules tests/typescript/build tests/typescript/schema.d.ts
