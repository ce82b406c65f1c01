#!/usr/bin/env bash
# Builds the C++ peer of `python -m bench.expect_peer`: mahjong-cpp (nekobean/mahjong-cpp, MIT,
# the pinned commit below), Release, one thread (no OpenMP), and expect_peer.cpp against it, into
# build/peer/ (outside the service: a check from outside, never shipped). Needs cmake, a C++17
# compiler, Boost >= 1.81 (unordered_flat_map), spdlog and RapidJSON: on Debian bookworm
#   apt-get install cmake g++ libboost1.81-dev libboost-filesystem1.81-dev \
#       libboost-system1.81-dev libspdlog-dev rapidjson-dev
# Usage: bash bench/peer_expect/build.sh [a clone of mahjong-cpp]   (cloned from GitHub if none)
set -euo pipefail
cd "$(dirname "$0")/../.."
commit=453cae05caf0e3c0da13846f82c20685becaea6e  # version 0.9.8
out=build/peer
mkdir -p "$out"
source=${1:-$out/mahjong-cpp}
if [[ ! -d $source ]]; then
    git clone --quiet https://github.com/nekobean/mahjong-cpp "$source"
fi
git -C "$source" checkout --quiet "$commit"
cmake -S "$source" -B "$source/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SERVER=OFF \
    -DBUILD_TOOLS=OFF -DBUILD_TEST=OFF -DBUILD_SAMPLES=OFF >/dev/null
cmake --build "$source/build" --target mahjong-cpp -j 2 >/dev/null
# The library target's own definitions; Debian's spdlog and fmt are shared libraries only.
c++ -O3 -DNDEBUG -std=c++17 -DBOOST_ATOMIC_NO_LIB -DBOOST_FILESYSTEM_NO_LIB \
    -DBOOST_SYSTEM_NO_LIB -DFMT_SHARED -DSPDLOG_COMPILED_LIB -DSPDLOG_FMT_EXTERNAL \
    -DSPDLOG_SHARED_LIB -I"$source/src" bench/peer_expect/expect_peer.cpp \
    -o "$out/expect_peer" "$source/build/libmahjong-cpp.a" -lboost_filesystem -lspdlog -lfmt
# It loads its tables from the executable's folder.
cp "$source"/data/config/*.bin "$source"/data/config/*.json "$out/"
echo "built: $out/expect_peer (mahjong-cpp ${commit:0:7})"
