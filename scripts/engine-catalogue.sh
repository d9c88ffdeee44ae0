#!/usr/bin/env bash
# The catalogue check (docs/engine_catalogue.md): every coopmat2 and coopmat1 SPIR-V module llama.cpp's
# (ggml's) Vulkan shader generator builds, specialized as ggml-vulkan.cpp specializes it for a lavapipe-like,
# a 32-wide NVIDIA (also without f16 arithmetic, as Pascal) and a 64-wide AMD GPU, lowered by
# vkpolyfill-lower --validate; prints the table and writes it, with one JSON line per lowering, to the
# output directory. Their code stays out of this project: SOURCE is a checkout of ggml or llama.cpp,
# whose shaders are copied into build/.
#   scripts/engine-catalogue.sh SOURCE [--out DIR] [--jobs N] [--only REGEX] [--classes a,b] [--date DATE]
#     --out      where the modules, results.jsonl and catalogue.md go (default build/release/engine-catalogue)
#     --jobs     lowerings at a time (default: the processors)
#     --only     the modules whose name matches REGEX (a bounded run)
#     --classes  some of lavapipe, nvidia32, amd64, pascal32
#     --date     the date of the source, for the table (default: its last commit's, if it is a git checkout)
# Uses VKPOLYFILL_BUILD_DIR (default build/release); scripts/build.sh builds it.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${VKPOLYFILL_ICD_NATIVE:-}" ]; then
  [ $# -gt 0 ] && [ -d "$1" ] || { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
  # The environment sees the clone only: the engine's shaders are copied in.
  shaders=$(find "$1" -type d -path '*/ggml-vulkan/vulkan-shaders' | head -n1)
  [ -n "$shaders" ] || { echo "engine-catalogue: no ggml-vulkan/vulkan-shaders under $1" >&2; exit 2; }
  date=$(git -C "$1" log -1 --format=%cs 2>/dev/null || echo unknown)
  rm -rf build/engine-catalogue-source && mkdir -p build/engine-catalogue-source/src/ggml-vulkan
  cp -r "$shaders" build/engine-catalogue-source/src/ggml-vulkan/
  shift
  exec scripts/env.sh bash scripts/engine-catalogue.sh build/engine-catalogue-source --date "$date" "$@"
fi

source=$1; shift
out=$VKPOLYFILL_BUILD_DIR/engine-catalogue jobs=$(nproc) only= classes=lavapipe,nvidia32,amd64,pascal32 date=unknown
while [ $# -gt 0 ]; do
  case $1 in
    --out) out=$2; shift ;;
    --jobs) jobs=$2; shift ;;
    --only) only=$2; shift ;;
    --classes) classes=$2; shift ;;
    --date) [ "$2" = unknown ] || date=$2; shift ;;
    *) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
  esac
  shift
done
lower=$VKPOLYFILL_BUILD_DIR/lowering/cli/vkpolyfill-lower
[ -x "$lower" ] || { echo "engine-catalogue: build first (scripts/build.sh)" >&2; exit 1; }
start=$SECONDS
rm -rf "$out" && mkdir -p "$out"
python3 scripts/gpu/engine_catalogue.py build "$source" "$out/spv"
status=0
python3 scripts/gpu/engine_catalogue.py run "$out/spv" "$lower" "$out" --jobs "$jobs" --only "$only" \
  --classes "$classes" || status=$?
python3 scripts/gpu/engine_catalogue.py table "$out" --source-date "$date"
echo "[engine-catalogue] $((SECONDS - start)) s in all (the build of the modules included)" >&2
exit $status
