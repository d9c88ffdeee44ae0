#!/usr/bin/env bash
# Real GPU compilers in the loop ([G]), everything at once: the capability matrix of both lavapipes and
# every GPU proxy, then every benchmark kernel compiled on every GPU proxy with the compiler's statistics
# and the budgets' verdicts (10 s and 2 GiB per pipeline, no spills). Each kernel compiles in a process of
# its own under the proxy's memory cap and a time limit, so a compiler that runs away costs that kernel.
#   scripts/gpu-sweep.sh [--capabilities] [--gpus a,b,...] [--out DIR]
#     --capabilities  the capability matrix only (what scripts/demo.sh shows)
#     --gpus          these proxies only (scripts/gpu-proxy.sh --list names them)
#     --out           where the JSON and the tables go (default build/release/gpu-sweep)
# Uses the build tree VKPOLYFILL_BUILD_DIR (default build/release); scripts/build.sh builds it.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -n "${VKPOLYFILL_ICD_NATIVE:-}" ] || exec scripts/env.sh bash scripts/gpu-sweep.sh "$@"

only_capabilities=0
gpus=$(scripts/gpu-proxy.sh --list | awk '{ print $1 }')
out=$VKPOLYFILL_BUILD_DIR/gpu-sweep
while [ $# -gt 0 ]; do
  case $1 in
    --capabilities) only_capabilities=1 ;;
    --gpus) gpus=${2//,/ }; shift ;;
    --out) out=$2; shift ;;
    *) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
  esac
  shift
done
bin=$VKPOLYFILL_BUILD_DIR/tests
[ -x "$bin/devices/vkpolyfill_capability_matrix" ] || { echo "gpu-sweep: build first (scripts/build.sh)" >&2; exit 1; }
rm -rf "$out" && mkdir -p "$out/capabilities" "$out/compile"

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

if [ $only_capabilities = 0 ]; then
  kernels=$("$bin/bench/vkpolyfill_compile_kernels" --list | awk '{ print $1 }')
  for gpu in $gpus; do
    mkdir -p "$out/compile/$gpu"
    for kernel in $kernels; do
      echo "[gpu-sweep] $gpu: $kernel" >&2
      record "$out/compile/$gpu/$kernel.json" timeout 600 scripts/gpu-proxy.sh "$gpu" \
        "$bin/bench/vkpolyfill_compile_kernels" --kernel "$kernel" --json
    done
  done
fi
python3 scripts/gpu/report.py "$out"
