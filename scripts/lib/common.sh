# Shared by setup.sh and env.sh: where the environment lives and how to tell which one to use.
# Sourced, not run.

VKPOLYFILL_REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
VKPOLYFILL_SETUP_SCRIPT="$VKPOLYFILL_REPO/scripts/setup.sh"

# The system cache directory unless VKPOLYFILL_CACHE says otherwise; never inside the clone, so a
# fresh clone (CI) reuses what an earlier one prepared.
if [ -z "${VKPOLYFILL_CACHE:-}" ]; then
  if [ -w /var/cache ]; then
    VKPOLYFILL_CACHE=/var/cache/vkpolyfill
  else
    VKPOLYFILL_CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/vkpolyfill"
  fi
fi
export VKPOLYFILL_CACHE

# The root is keyed by the set-up script's content: editing the package list makes a new root.
# Named forky-*: set-up scripts before the lock removed every other root-* they saw, even one
# another clone's set-up was still making.
VKPOLYFILL_ENV_KEY=$(sha256sum "$VKPOLYFILL_SETUP_SCRIPT" | cut -c1-12)
VKPOLYFILL_ROOT="$VKPOLYFILL_CACHE/forky-$VKPOLYFILL_ENV_KEY"
# Trixie's lavapipe 25.0.7: inside the root when there is one, in the cache on a modern host.
VKPOLYFILL_LVP25_REL=opt/lvp25

# A host is "modern" when its own packages already carry everything: headers that know the seed
# extensions, a grammar with SPV_ARM_tensors, glslang >= 16 and a lavapipe with coopmat.
vkpolyfill_host_is_modern() {
  case "${VKPOLYFILL_USE_HOST:-auto}" in
    1|yes) return 0 ;;
    0|no) return 1 ;;
  esac
  grep -qs VK_ARM_tensors /usr/include/vulkan/vulkan_core.h || return 1
  grep -qs TensorARM /usr/include/spirv/unified1/spirv.core.grammar.json || return 1
  local v
  v=$(glslang --version 2>/dev/null | sed -n 's/^Glslang Version: \([0-9]*\).*/\1/p')
  [ -n "$v" ] && [ "$v" -ge 16 ] || return 1
  command -v cmake >/dev/null && command -v ninja >/dev/null && command -v patchelf >/dev/null
}

# Prints a step's name now and its duration when it ends: `vkpolyfill_step "name" cmd args...`.
vkpolyfill_step() {
  local name=$1 start rc
  shift
  start=$(date +%s.%N)
  printf '[setup] %s ...\n' "$name"
  "$@" && rc=0 || rc=$?
  printf '[setup] %s: %s (%s s)\n' "$name" "$([ $rc = 0 ] && echo done || echo "FAILED ($rc)")" \
    "$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')"
  return $rc
}
