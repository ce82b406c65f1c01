#!/bin/sh
# The compiled wheel the image ships, profile-guided (ZJ_COMPILE=1, see setup.py): mypyc's C built
# once instrumented (gcc -fprofile-generate), run on scripts/profile_workload.py, then built again
# with what the run counted (-fprofile-use): gcc lays out the hot paths and their branches as the
# service takes them. On the expected score, 4-6% fewer instructions than the same C built
# without a profile, and a fifth to a quarter less CPU time (docs/PERFORMANCE.md). Code the
# workload never ran keeps the plain build's optimisation (-fprofile-partial-training).
#
# Usage: sh scripts/wheel.sh TOOLCHAIN_PYTHON WORKLOAD_PYTHON WHEEL_DIR
#   TOOLCHAIN_PYTHON has mypy (mypyc) and setuptools (requirements-build.lock); WORKLOAD_PYTHON
#   has the service's dependencies (requirements.lock); the wheel is written to WHEEL_DIR.
# The Dockerfile's build stage and `scripts/compile.sh --profile` (make bench) both run it; POSIX
# sh, as the Dockerfile assumes no more of its base.
set -eu
cd "$(dirname "$0")/.."
toolchain=$1
workload=$2
out=$3
profile=$PWD/build/profile  # gcc's counts, named after each object file's path: one tree

wheel() {
    # setuptools packs build/lib.* whole: a module moved or removed since the last build would
    # still ship from there; and each build compiles every C file again (flags are not tracked).
    rm -rf build/lib.* build/bdist.*
    ZJ_COMPILE=1 CFLAGS="$1" LDFLAGS="${2:-}" "$toolchain" -m pip wheel --quiet --no-deps \
        --no-build-isolation --wheel-dir "$3" .
}

rm -rf "$profile"
mkdir -p "$profile"
wheel "-fprofile-generate -fprofile-dir=$profile" -fprofile-generate "$profile/wheel"
"$toolchain" -m zipfile -e "$profile"/wheel/*.whl "$profile/site"
PYTHONPATH="$profile/site" "$workload" scripts/profile_workload.py
wheel "-fprofile-use -fprofile-partial-training -Wno-missing-profile -fprofile-dir=$profile" "" "$out"
