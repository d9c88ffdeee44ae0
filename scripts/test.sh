#!/usr/bin/env bash
# The whole test suite on both drivers: sets up if needed, builds, runs ctest (as a conformance run), fuzzes the
# lowering briefly, and runs the bounded sanitizer cases.
#   scripts/test.sh [preset] [ctest args...]     (preset: release | debug | asan | tsan; default release)
set -euo pipefail
cd "$(dirname "$0")/.."
preset=release
case "${1:-}" in release|debug|asan|tsan) preset=$1; shift ;; esac
start=$SECONDS
bash scripts/setup.sh
bash scripts/build.sh "$preset"
# ctest runs the suites through the conformance script: its summary per extension, coverage and
# results/JUnit files come with the one run (docs/testing.md: Conformance runs). The cooperative-matrix suites at
# lavapipe's other subgroup sizes (4 and 16), in the GPUs' matrix layout (at 8 lanes; its other widths
# are left out) and with f16 arithmetic emulated, the KHR cases at the int8 shapes and the 16x16 load/store grid (the slowest for a cold
# lavapipe 25 to compile), and the cases again over the Khronos validation layer, run as spread samples
# (a cold CI's time); scripts/conformance.sh runs them all.
case $preset in asan|tsan) . scripts/lib/sanitizers.sh && sanitizer_environment ;; esac
VKPOLYFILL_BUILD_DIR="build/$preset" scripts/conformance.sh -j "$(nproc)" --spread subgroup-widths --spread matrix-layouts --spread validation --spread float16-forced \
  --spread-case 'cooperative_matrix.khr.*16x32*' --spread-case 'cooperative_matrix.khr.*32x16*' \
  --spread-case 'cooperative_matrix.khr.load_store.*16x16*' -LE matrix-layout-widths "$@"
case $preset in asan|tsan) sanitizer_reports "build/$preset" ;; esac
# The whole suite ends with a short fuzz run of the lowering (a count of inputs from a fixed seed: the
# same mutations, nearly the same inputs; a failure's crash file is its reproducer) and the bounded
# sanitizer runs (docs/hardening.md).
if [ $# -eq 0 ] && [ "$preset" = release ]; then
  bash scripts/fuzz.sh --runs 20000 --seed 1
  bash scripts/sanitize.sh
fi
echo "[test] $preset passed in $((SECONDS - start)) s"
