#!/usr/bin/env bash
# Runs a command against one of Mesa's real GPU drivers on a machine without that GPU:
#   scripts/gpu-proxy.sh GPU CMD [ARGS...]     e.g. scripts/gpu-proxy.sh rx6800 vulkaninfo --summary
#   scripts/gpu-proxy.sh --list                the GPUs, a line each: name, driver, what it stands for
#   scripts/gpu-proxy.sh --env GPU             the environment it sets, NAME=VALUE a line (for ctest)
#
# Mesa's drm-shim (Debian's mesa-drm-shim, which scripts/setup.sh installs in the root) fakes the GPU's
# kernel driver by LD_PRELOAD, so the real Vulkan driver starts, answers queries and compiles pipelines
# with the real GPU compiler (ACO, NAK, ir3, AGX); submitted work executes nothing. Outside the root it
# enters it through scripts/env.sh, unless this host has the shim itself (a modern distribution).
#
# Memory: every process is capped (`ulimit -d`, VKPOLYFILL_PROXY_MEMORY_MB, default 4096) so a GPU
# compiler that runs away on a kernel fails instead of taking the machine (`ulimit -v` would break the
# drivers' address-space reservations). Mesa's shader cache is off, so each compile is a real one.
set -euo pipefail

# name | shim | the variable that picks the chip | ICD manifest | what it stands for
proxies() {
  cat <<'EOF'
rx6800     amdgpu    AMDGPU_GPU_ID=navi21   radeon     AMD Radeon RX 6800 (RDNA2, RADV/ACO)
rx7900xtx  amdgpu    AMDGPU_GPU_ID=navi31   radeon     AMD Radeon RX 7900 XTX (RDNA3, RADV/ACO, WMMA)
rtx2080    nouveau   NOUVEAU_CHIPSET=162    nouveau    NVIDIA RTX 2080 (Turing TU102, NVK/NAK)
rtx3080    nouveau   NOUVEAU_CHIPSET=172    nouveau    NVIDIA RTX 3080 (Ampere GA102, NVK/NAK)
gtx1080    nouveau   NOUVEAU_CHIPSET=134    nouveau    NVIDIA GTX 1080 (Pascal GP104, NVK/NAK)
adreno630  freedreno FD_GPU_ID=630          freedreno  Qualcomm Adreno 630 (Turnip/ir3)
adreno740  freedreno FD_GPU_ID=740          freedreno  Qualcomm Adreno 740 (Turnip/ir3)
applem1    asahi     -                      asahi      Apple M1 G13G (Honeykrisp/AGX)
EOF
}

usage() { sed -n '2,5p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

# The directory holding the shims on this system (Debian's multiarch path, or another distribution's).
shim_dir() {
  local d
  for d in /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/lib; do
    [ -f "$d/libamdgpu_noop_drm_shim.so" ] && { echo "$d"; return 0; }
  done
  return 1
}

icd_manifest() {
  local m
  for m in /usr/share/vulkan/icd.d/"$1"_icd.json /usr/share/vulkan/icd.d/"$1"_icd.*.json; do
    [ -f "$m" ] && { echo "$m"; return 0; }
  done
  echo "gpu-proxy: no ICD manifest for Mesa's $1 driver in /usr/share/vulkan/icd.d" >&2
  return 1
}

# NAME=VALUE lines for GPU $1.
environment_of() {
  local row name shim chip icd dir
  row=$(proxies | awk -v n="$1" '$1 == n')
  [ -n "$row" ] || { echo "gpu-proxy: unknown GPU '$1' (scripts/gpu-proxy.sh --list)" >&2; return 2; }
  read -r name shim chip icd _ <<<"$row"
  dir=$(shim_dir) || { echo "gpu-proxy: mesa-drm-shim is not installed here (scripts/setup.sh installs it)" >&2; return 1; }
  echo "LD_PRELOAD=$dir/lib${shim}_noop_drm_shim.so"
  [ "$chip" = - ] || echo "$chip"
  echo "VK_DRIVER_FILES=$(icd_manifest "$icd")"
  echo "MESA_SHADER_CACHE_DISABLE=true"
  echo "VKPOLYFILL_GPU_PROXY=$name"
}

case "${1:-}" in
  --list) proxies | awk '{ name = $1; driver = $4; $1 = $2 = $3 = $4 = ""; sub(/^ +/, ""); printf "%-10s %-10s %s\n", name, driver, $0 }'; exit 0 ;;
  --env) [ $# = 2 ] || usage; environment_of "$2"; exit ;;
  ""|-*) usage ;;
esac
[ $# -ge 2 ] || usage

if ! shim_dir >/dev/null; then
  # Not in the environment yet: the root has the shim (scripts/env.sh enters it and comes back here).
  [ -z "${VKPOLYFILL_ICD_NATIVE:-}" ] || { environment_of "$1" >/dev/null; exit 1; }
  exec "$(dirname "$0")/env.sh" bash "$(cd "$(dirname "$0")" && pwd)/gpu-proxy.sh" "$@"
fi

gpu=$1
shift
vars=$(environment_of "$gpu")
while IFS= read -r v; do export "${v?}"; done <<<"$vars"
ulimit -d $(( ${VKPOLYFILL_PROXY_MEMORY_MB:-4096} * 1024 ))
exec "$@"
