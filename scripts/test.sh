#!/usr/bin/env bash
# The whole test suite on both drivers: sets up if needed, builds, runs ctest, fuzzes the lowering briefly.
#   scripts/test.sh [preset] [ctest args...]     (preset: release | debug | asan | tsan; default release)
set -euo pipefail
cd "$(dirname "$0")/.."
preset=release
case "${1:-}" in release|debug|asan|tsan) preset=$1; shift ;; esac
start=$SECONDS
bash scripts/setup.sh
bash scripts/build.sh "$preset"
VKPOLYFILL_BUILD_DIR="build/$preset" scripts/env.sh ctest --preset "$preset" -j "$(nproc)" "$@"
# The whole suite ends with a short fuzz run of the lowering, repeatable: a count of inputs from a fixed
# seed, so a failure here fails the same way with the same command anywhere (README: Hardening).
[ $# -gt 0 ] || [ "$preset" != release ] || bash scripts/fuzz.sh --runs 20000 --seed 1
echo "[test] $preset passed in $((SECONDS - start)) s"
