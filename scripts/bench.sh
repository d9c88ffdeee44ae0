#!/usr/bin/env bash
# The GEMM benchmark (tests/bench): sets up if needed, builds the release preset's benchmark and
# the layer, runs it on the native CPU driver (lavapipe 26, native VK_KHR_cooperative_matrix), and
# keeps the results; then the tile-image benchmark (programmable against fixed-function blending, and
# the layer's overhead per draw and per render pass instance) and the tensor benchmark (tensor kernels
# against storage-buffer kernels, tensor copies), appended to the same report.
#   scripts/bench.sh [--quick] [vkpolyfill_bench options...]     (--help lists them)
# Writes build/bench-results/<UTC time>-<quick|full>.{md,json} and prints the Markdown report.
# A full run takes a few minutes on two cores; --quick (256^3 and 512^3) well under one.
set -euo pipefail
cd "$(dirname "$0")/.."
kind=full
for arg in "$@"; do
  [ "$arg" = --quick ] && kind=quick
done
bash scripts/setup.sh
scripts/env.sh bash -c "cmake --preset release >/dev/null && cmake --build --preset release --target vkpolyfill_bench vkpolyfill_tile_image_bench vkpolyfill_tensor_bench"
mkdir -p build/bench-results
out="build/bench-results/$(date -u +%Y%m%dT%H%M%SZ)-$kind"
VKPOLYFILL_BUILD_DIR=build/release scripts/env.sh build/release/tests/bench/vkpolyfill_bench --json "$out.json" "$@" | tee "$out.md"
tile_image_options=()
[ "$kind" = quick ] && tile_image_options=(--size 256 --reps 3)
VKPOLYFILL_BUILD_DIR=build/release scripts/env.sh build/release/tests/bench/vkpolyfill_tile_image_bench \
  "${tile_image_options[@]}" | tee -a "$out.md"
tensor_options=()
[ "$kind" = quick ] && tensor_options=(--elements 1048576 --matrix 128 --reps 3)
VKPOLYFILL_BUILD_DIR=build/release scripts/env.sh build/release/tests/bench/vkpolyfill_tensor_bench \
  "${tensor_options[@]}" | tee -a "$out.md"
echo "[bench] results: $out.md, $out.json"
