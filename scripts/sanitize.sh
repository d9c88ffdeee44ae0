#!/usr/bin/env bash
# The lowering library's tests under AddressSanitizer + UndefinedBehaviorSanitizer (the `asan` preset):
#   scripts/sanitize.sh [ctest args...]      (default: -R '^lowering\.')
# Builds only what those tests need; `scripts/test.sh asan` builds and runs the whole suite under it.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || set -- -R '^lowering\.'
start=$SECONDS
bash scripts/setup.sh >/dev/null
scripts/env.sh bash -c "cmake --preset asan >/dev/null && cmake --build --preset asan --parallel $(nproc) --target vkpolyfill_lowering_tests vkpolyfill-lower"
# The preset gives the tests their sanitizer options; a report in a skipped test fails the run too.
VKPOLYFILL_BUILD_DIR=build/asan scripts/env.sh ctest --preset asan -j "$(nproc)" "$@"
. scripts/lib/sanitizers.sh && sanitizer_reports build/asan
echo "[sanitize] passed in $((SECONDS - start)) s"
