#!/usr/bin/env bash
# Real GPU compilers in the loop ([G]), everything at once: the capability matrix of both lavapipes and
# every GPU proxy; every benchmark kernel, the tile-image tests' graphics pipelines, and every compute
# module of the suite (through the layer, as the device decides), compiled on every GPU proxy with the
# compiler's statistics and the budgets' verdicts (10 s and 2 GiB per pipeline, no spills); with
# --engine, llama.cpp's kernels too. Each kernel compiles in a process of its own under the proxy's memory
# cap and a time limit, so a compiler that runs away costs that kernel.
#   scripts/gpu-sweep.sh [--capabilities] [--skip kernels,modules] [--engine SOURCE] [--gpus a,b,...] [--out DIR]
#     --capabilities  the capability matrix only (what scripts/demo.sh shows)
#     --skip          leave out the benchmark kernels, or the suite's modules (about 150 per GPU), or both
#     --engine        a checkout of llama.cpp or ggml: its kernels built as its build builds them and
#                     compiled with the constants it sets per GPU (scripts/gpu/engine_kernels.py)
#     --gpus          these proxies only (scripts/gpu-proxy.sh --list names them)
#     --out           where the JSON and the tables go (default build/release/gpu-sweep)
# Uses the build tree VKPOLYFILL_BUILD_DIR (default build/release); scripts/build.sh builds it.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${VKPOLYFILL_ICD_NATIVE:-}" ]; then
  # The environment sees the clone only: an engine's checkout elsewhere is copied in (its shaders).
  args=()
  while [ $# -gt 0 ]; do
    if [ "$1" = --engine ] && [ $# -gt 1 ]; then
      shaders=$(find "$2" -type d -path '*/ggml-vulkan/vulkan-shaders' | head -n1)
      [ -n "$shaders" ] || { echo "gpu-sweep: no ggml-vulkan/vulkan-shaders under $2" >&2; exit 2; }
      rm -rf build/engine-source && mkdir -p build/engine-source/src/ggml-vulkan
      cp -r "$shaders" build/engine-source/src/ggml-vulkan/
      args+=(--engine build/engine-source); shift 2
    else
      args+=("$1"); shift
    fi
  done
  exec scripts/env.sh bash scripts/gpu-sweep.sh ${args[@]+"${args[@]}"}
fi

only_capabilities=0 skip= engine=
gpus=$(scripts/gpu-proxy.sh --list | awk '{ print $1 }')
out=$VKPOLYFILL_BUILD_DIR/gpu-sweep
while [ $# -gt 0 ]; do
  case $1 in
    --capabilities) only_capabilities=1 ;;
    --skip) skip=,$2, ; shift ;;
    --engine) engine=$2; shift ;;
    --gpus) gpus=${2//,/ }; shift ;;
    --out) out=$2; shift ;;
    *) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
  esac
  shift
done
bin=$VKPOLYFILL_BUILD_DIR/tests
[ -x "$bin/devices/vkpolyfill_capability_matrix" ] || { echo "gpu-sweep: build first (scripts/build.sh)" >&2; exit 1; }
rm -rf "$out" && mkdir -p "$out/capabilities" "$out/compile"
compile=$bin/bench/vkpolyfill_compile_kernels

# Runs CMD (the rest) and writes its standard output to FILE ($1), or, when it fails, a JSON record
# of how it failed (the exit status: 124 the time limit, 134/139 a crash, which a memory cap causes too).
record() {
  local file=$1 status=0
  shift
  "$@" >"$file.out" 2>"$file.err" || status=$?
  if [ $status = 0 ]; then
    mv "$file.out" "$file"
  else
    python3 -c 'import json, sys; print(json.dumps({"failed": int(sys.argv[1]), "stderr": open(sys.argv[2]).read()[-2000:]}))' \
      "$status" "$file.err" >"$file"
  fi
  rm -f "$file.out" "$file.err"
}

echo "[gpu-sweep] capability matrix: lavapipe 25, lavapipe 26, $(echo $gpus)" >&2
record "$out/capabilities/0-lavapipe25.json" env VK_DRIVER_FILES="$VKPOLYFILL_ICD_PLAIN" "$bin/devices/vkpolyfill_capability_matrix" --json
record "$out/capabilities/1-lavapipe26.json" env VK_DRIVER_FILES="$VKPOLYFILL_ICD_NATIVE" "$bin/devices/vkpolyfill_capability_matrix" --json
i=2
for gpu in $gpus; do
  record "$out/capabilities/$i-$gpu.json" timeout 120 scripts/gpu-proxy.sh "$gpu" "$bin/devices/vkpolyfill_capability_matrix" --json
  i=$((i + 1))
done

if [ $only_capabilities = 0 ] && [[ $skip != *,kernels,* ]]; then
  kernels=$("$compile" --list | awk '{ print $1 }')
  for gpu in $gpus; do
    mkdir -p "$out/compile/$gpu"
    for kernel in $kernels; do
      echo "[gpu-sweep] $gpu: $kernel" >&2
      case $kernel in *@*) kind=--tile-image ;; *) kind=--kernel ;; esac  # the tile-image pipelines: shader@samples
      record "$out/compile/$gpu/$kernel.json" timeout 600 scripts/gpu-proxy.sh "$gpu" "$compile" $kind "$kernel" --json
    done
  done
fi

if [ $only_capabilities = 0 ] && [ -n "$engine" ]; then
  python3 scripts/gpu/engine_kernels.py build "$engine" "$out/engine-spv"
  for gpu in $gpus; do
    mkdir -p "$out/engine/$gpu"
    python3 scripts/gpu/engine_kernels.py list "$gpu" "$out/engine-spv" | while IFS=$'\t' read -r kernel args what; do
      echo "[gpu-sweep] $gpu: llama.cpp $kernel" >&2
      # shellcheck disable=SC2086  # the listed arguments are words
      record "$out/engine/$gpu/$kernel.json" timeout 600 scripts/gpu-proxy.sh "$gpu" "$compile" $args \
        --name "$kernel" --what "$what" --json
    done
  done
fi

if [ $only_capabilities = 0 ] && [[ $skip != *,modules,* ]]; then
  shaders=$VKPOLYFILL_BUILD_DIR/shaders
  for gpu in $gpus; do
    echo "[gpu-sweep] $gpu: the suite's compute modules" >&2
    mkdir -p "$out/modules/$gpu"
    (cd "$shaders" && find tests bench -name '*.comp.spv' | sort) | while read -r module; do
      name=${module%.comp.spv}
      record "$out/modules/$gpu/$(echo "$name" | tr / +).json" timeout 300 scripts/gpu-proxy.sh "$gpu" "$compile" \
        --spirv "$shaders/$module" --route emulated --name "$name" --json
    done
  done
fi
python3 scripts/gpu/report.py "$out"
