#!/usr/bin/env bash
# Builds the compiled wheel (ZJ_COMPILE=1, see setup.py) and lays it out as build/compiled: a
# mirror of the repository in which `service` is that compiled package and everything else
# (tests, bench, configs) links back here. pytest, the benchmarks or gunicorn started from
# build/compiled exercise the compiled build; the source tree stays pure Python.
#
# Usage: bash scripts/compile.sh [--profile] [python]   (default build/toolchain/bin/python: the
# toolchain of requirements-build.lock, mypy with mypyc and setuptools, that `make compiled`
# installs). With --profile, the wheel exactly as the image builds it, profile-guided
# (scripts/wheel.sh, its workload run by the dev venv's python): what `make bench` measures.
# Without, one plain build, a minute and a half sooner: what the test suite runs (the same C,
# laid out by gcc without the run's counts).
set -euo pipefail
cd "$(dirname "$0")/.."
profile=0
if [[ ${1:-} == --profile ]]; then
    profile=1
    shift
fi
python=${1:-build/toolchain/bin/python}
out=build/compiled

# setuptools packs build/lib.* whole: a module moved or removed since the last build would
# still ship from there.
rm -rf build/wheel build/lib.* build/bdist.* "$out"
if ((profile)); then
    sh scripts/wheel.sh "$python" .venv/bin/python build/wheel
else
    ZJ_COMPILE=1 "$python" -m pip wheel --quiet --no-deps --no-build-isolation \
        --wheel-dir build/wheel .
fi
mkdir -p "$out"
"$python" -m zipfile -e build/wheel/*.whl "$out"
rm -rf "$out"/*.dist-info
for entry in tests bench pyproject.toml openapi.yaml gunicorn.conf.py; do
    ln -s "../../$entry" "$out/$entry"
done
# Fail here, not in a test, if an extension did not come out.
(cd "$out" && "../../$python" -c \
    'import service.domain.scoring.scoring as m, sys; sys.exit(0 if m.__file__.endswith(".so") else m.__file__)')
echo "compiled: $out ($(find "$out/service" -name '*.so' | wc -l) extension modules)"
