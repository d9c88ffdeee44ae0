#!/usr/bin/env bash
# Bounded sanitizer runs, part of the test suite (and so of CI): ASan + UBSan over the lowering tests and
# the Vulkan cases of the layer's own objects, misuse and threads; TSan over the concurrency stress.
#   scripts/sanitize.sh                              both bounded runs
#   scripts/sanitize.sh asan|tsan [ctest args...]    one preset: its bounded cases, or the ctest arguments
# The whole suite under a sanitizer is `scripts/test.sh asan|tsan` (hours on this machine: docs/hardening.md).
set -euo pipefail
cd "$(dirname "$0")/.."
# The layer's paths a Vulkan case reaches once per driver are taken on lavapipe 25, where every
# extension is emulated; bad input and the eight-thread stress on both drivers.
asan_cases='^lowering\.|^vulkan\.(plain|native)\.(BadInput|ConcurrencyStress)|^vulkan\.plain\.(ArmTensors(Copy|Objects|Descriptors|DescriptorBuffer)|PipelineInterception|Settings|LayerLoading|DeviceCreation|PassThrough|CooperativeMatrixRobustBufferAccess|CooperativeMatrix2Decode|TileImageRefusals|TileImageShaderObjects|LongComposites)\.'
tsan_cases='^vulkan\.(plain|native)\.ConcurrencyStress\.'

# What the bounded cases need is built; given ctest arguments, the whole preset.
asan_targets='vkpolyfill_lowering_tests vkpolyfill-lower vkpolyfill_vulkan_tests'
tsan_targets='vkpolyfill_concurrency_tests'  # under TSan, the stress alone (tests/vulkan/CMakeLists.txt)

run() {
  local preset=$1 start=$SECONDS targets=all
  shift
  if [ $# -eq 0 ]; then
    case $preset in
      asan) set -- -R "$asan_cases"; targets=$asan_targets ;;
      tsan) set -- -R "$tsan_cases"; targets=$tsan_targets ;;
    esac
  fi
  # Each step's failure returns at once: `run asan && run tsan` runs this function where bash ignores
  # set -e (a CI run once reported ASan passed after its build and all its tests had failed).
  scripts/env.sh bash -c "cmake --preset $preset >/dev/null && cmake --build --preset $preset --target $targets" ||
    { echo "[sanitize] $preset: the build failed" >&2; return 1; }
  # The preset gives the tests their sanitizer options; a report in a skipped test fails the run too.
  VKPOLYFILL_BUILD_DIR="build/$preset" scripts/env.sh ctest --preset "$preset" -j "$(nproc)" "$@" ||
    { echo "[sanitize] $preset: tests failed" >&2; return 1; }
  sanitizer_reports "build/$preset" || { echo "[sanitize] $preset: sanitizer reports" >&2; return 1; }
  echo "[sanitize] $preset passed in $((SECONDS - start)) s"
}

bash scripts/setup.sh >/dev/null
. scripts/lib/sanitizers.sh
case "${1:-}" in
  asan|tsan) run "$@" ;;
  "") run asan && run tsan ;;
  *) echo "usage: scripts/sanitize.sh [asan|tsan [ctest args...]]" >&2; exit 2 ;;
esac
