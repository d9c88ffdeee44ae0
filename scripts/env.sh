#!/usr/bin/env bash
# Runs CMD in the environment scripts/setup.sh prepared: `scripts/env.sh CMD [ARGS...]`.
#
# In the forky root (on an old host) the repository and the cache are bound at the same paths as on
# the host, inside a private mount namespace, so nothing stays mounted afterwards. Exports:
#   VKPOLYFILL_ICD_PLAIN   lavapipe 25.0.7, none of the seed extensions   (use as VK_DRIVER_FILES)
#   VKPOLYFILL_ICD_NATIVE  lavapipe 26.x, native VK_KHR_cooperative_matrix (use as VK_DRIVER_FILES)
#   VK_ADD_LAYER_PATH      the build tree's explicit manifest (VKPOLYFILL_BUILD_DIR, default build/release)
#   CCACHE_*               a compiler cache shared by every clone
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"
[ $# -gt 0 ] || set -- bash

build_dir=${VKPOLYFILL_BUILD_DIR:-$VKPOLYFILL_REPO/build/release}
case $build_dir in /*) ;; *) build_dir="$PWD/$build_dir" ;; esac
export VKPOLYFILL_BUILD_DIR=$build_dir
export CCACHE_DIR="$VKPOLYFILL_CACHE/ccache" CCACHE_BASEDIR="$VKPOLYFILL_REPO" CCACHE_NOHASHDIR=1
mkdir -p "$CCACHE_DIR"

with_layer_path() {
  if [ -f "$VKPOLYFILL_BUILD_DIR/json/VkLayer_polyfill.json" ]; then
    export VK_ADD_LAYER_PATH="$VKPOLYFILL_BUILD_DIR/json${VK_ADD_LAYER_PATH:+:$VK_ADD_LAYER_PATH}"
  fi
  exec "$@"
}

if vkpolyfill_host_is_modern; then
  lvp="$VKPOLYFILL_CACHE/lvp25-$VKPOLYFILL_ENV_KEY"
  [ -f "$lvp/lvp25_icd.json" ] || { echo "env.sh: run scripts/setup.sh first" >&2; exit 1; }
  export VKPOLYFILL_ICD_PLAIN="$lvp/lvp25_icd.json"
  export VKPOLYFILL_ICD_NATIVE=$(ls /usr/share/vulkan/icd.d/lvp_icd*.json | head -n1)
  with_layer_path "$@"
fi

[ -f "$VKPOLYFILL_ROOT/.vkpolyfill-ready" ] || { echo "env.sh: run scripts/setup.sh first" >&2; exit 1; }
if [ -z "${VKPOLYFILL_IN_ROOT:-}" ]; then
  [ "$(id -u)" = 0 ] || unshare_user=--map-root-user
  exec unshare ${unshare_user:-} --mount --fork -- env VKPOLYFILL_IN_ROOT=1 bash "$0" "$@"
fi

# Here: a private mount namespace, still outside the root. A fresh /tmp first, so that a clone or a
# cache under the host's /tmp, bound next, stays visible.
mount -t tmpfs tmpfs "$VKPOLYFILL_ROOT/tmp"
for d in "$VKPOLYFILL_REPO" "$CCACHE_DIR"; do
  mkdir -p "$VKPOLYFILL_ROOT$d"
  mount --rbind "$d" "$VKPOLYFILL_ROOT$d"
done
for d in proc sys dev; do mount --rbind "/$d" "$VKPOLYFILL_ROOT/$d"; done
cwd=$PWD
case $cwd in "$VKPOLYFILL_REPO"*) ;; *) cwd=$VKPOLYFILL_REPO ;; esac
export VKPOLYFILL_ICD_PLAIN="/$VKPOLYFILL_LVP25_REL/lvp25_icd.json"
export VKPOLYFILL_ICD_NATIVE=/usr/share/vulkan/icd.d/lvp_icd.json
export PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin LC_ALL=C.UTF-8
unset VKPOLYFILL_IN_ROOT
with_layer_path chroot "$VKPOLYFILL_ROOT" /bin/bash -c 'cd "$1" && shift && exec "$@"' bash "$cwd" "$@"
