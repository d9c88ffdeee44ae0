#!/usr/bin/env bash
# Every benchmark of every capability on both CPU drivers, and one report: sets up if needed, builds
# the release preset's benchmarks and the layer, runs each benchmark once per driver (lavapipe 25,
# plain; lavapipe 26, native), each measuring its series side by side in one process (emulated
# through the layer, the driver's own, a scalar, fixed-function or storage-buffer baseline), and
# writes build/bench-results/<UTC time>-<quick|full>/: each run's Markdown and JSON, report.md
# (medians, spread, ratios: scripts/bench/report.py) and one PNG chart per capability (gnuplot).
#   scripts/bench.sh [--quick] [vkpolyfill_bench options...]     (vkpolyfill_bench --help lists them)
# The benchmarks are the tests/bench executables named vkpolyfill_*bench; options() below says what
# each takes for --quick and whether it writes figures (--json), else the report quotes its Markdown.
set -euo pipefail
cd "$(dirname "$0")/.."
kind=full
for arg in "$@"; do
  [ "$arg" = --quick ] && kind=quick
done

# options NAME: the benchmark's arguments besides --driver (the GEMM benchmark gets the script's).
options() {
  case "$1" in
    gemm) echo --json "$json" ;;
    tile_image) echo --json "$json"; [ "$kind" = quick ] && echo --size 256 --reps 3 ;;
    long_composites) echo --json "$json"; [ "$kind" = quick ] && echo --invocations 65536 --repetitions 5 ;;
    tensor) echo --json "$json"; [ "$kind" = quick ] && echo --elements 1048576 --matrix 128 --reps 3 ;;
    attention) echo --json "$json"; [ "$kind" = quick ] && echo --queries 512 --reps 3 ;;
  esac
  return 0
}

bash scripts/setup.sh
scripts/env.sh bash -c "cmake --preset release >/dev/null && cmake --build --preset release"
out="build/bench-results/$(date -u +%Y%m%dT%H%M%SZ)-$kind"
mkdir -p "$out"
echo "load average before: $(uptime | sed 's/.*load average: //')" >"$out/load.txt"
for driver in plain native; do
  for bench in build/release/tests/bench/vkpolyfill_*bench; do
    name=$(basename "$bench" | sed 's/^vkpolyfill_//; s/_bench$//; s/^bench$/gemm/')
    json="$out/$name-$driver.json"
    # shellcheck disable=SC2046
    args=(--driver "$driver" $(options "$name"))
    [ "$name" = gemm ] && args+=("$@")
    echo "[bench] $name on the $driver driver"
    VKPOLYFILL_BUILD_DIR=build/release scripts/env.sh "$bench" "${args[@]}" | tee "$out/$name-$driver.md"
  done
done
echo "load average after: $(uptime | sed 's/.*load average: //')" >>"$out/load.txt"
scripts/env.sh python3 scripts/bench/report.py "$out" >/dev/null
echo "[bench] report: $out/report.md (charts: $out/*.png)"
