#!/usr/bin/env bash
# Regenerates requirements.lock: exact versions and sha256 hashes of the runtime dependencies
# declared in pyproject.toml ([project].dependencies, no extras), resolved for every platform
# and for Python 3.11+ at once (--universal), so the same file installs into the official
# python:3.12-slim base and into the Debian bookworm (Python 3.11) stand-in base.
# The Dockerfile installs it with `pip install --require-hashes`, then the wheel with --no-deps.
# requirements-build.lock, from requirements-build.in, is the build stage's compiler toolchain.
#
# Usage: bash scripts/lock.sh            (rewrites requirements.lock at the repo root)
#        bash scripts/lock.sh --upgrade  (extra arguments go to `uv pip compile`)
set -euo pipefail
cd "$(dirname "$0")/.."

uv=$(command -v uv || true)
if [[ -z "$uv" ]]; then
    # uv is not a project dependency: install it into a throwaway venv.
    tool_venv=$(mktemp -d)
    trap 'rm -rf "$tool_venv"' EXIT
    python3 -m venv "$tool_venv"
    "$tool_venv/bin/pip" install --quiet uv
    uv="$tool_venv/bin/uv"
fi

# --native-tls: use the system CA store (machines behind a TLS-inspecting proxy).
compile() {
    "$uv" pip compile "$1" \
        --universal --python-version 3.11 \
        --generate-hashes --native-tls \
        --custom-compile-command "bash scripts/lock.sh" \
        --output-file "$2" "${@:3}"
}
compile pyproject.toml requirements.lock "$@"
# The build stage's compiler tools (mypyc, setuptools); --allow-unsafe: setuptools is the point.
compile requirements-build.in requirements-build.lock --allow-unsafe "$@"
