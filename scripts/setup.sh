#!/usr/bin/env bash
# Prepares everything the build and the tests need; idempotent (an unchanged second run takes seconds).
#
# On a host whose packages are too old (Debian 12) it makes a Debian forky root by debootstrap in
# the cache directory (VKPOLYFILL_CACHE, default /var/cache/vkpolyfill), keyed by a hash of this
# script, and installs the toolchain there. On a modern host (see vkpolyfill_host_is_modern) it uses
# the host's packages. Either way it extracts trixie's lavapipe 25.0.7, a driver with none of the
# seed extensions, as the "plain" driver. scripts/env.sh runs commands in the result.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

# Packages the root needs; changing this list (or anything else here) makes a new root.
# vulkan-validationlayers: the tests' validation.* runs put the Khronos validation layer under ours.
# mesa-drm-shim: fakes the kernel drivers of AMD, NVIDIA and Adreno GPUs, so Mesa's real Vulkan drivers
# start here and compile pipelines with the real GPU compilers (scripts/gpu-proxy.sh).
# glslc: engines build their shaders with it (scripts/gpu/engine-kernels.sh runs llama.cpp's generator).
ROOT_PACKAGES="g++ cmake ninja-build ccache python3 patchelf glslang-tools glslang-dev glslc spirv-tools
  spirv-headers libvulkan-dev vulkan-utility-libraries-dev libvulkan-volk-dev libgtest-dev
  mesa-vulkan-drivers vulkan-tools vulkan-validationlayers clang libclang-rt-dev gnuplot-nox valgrind
  mesa-drm-shim"
# Trixie's lavapipe and the libraries of it that forky no longer has under the same soname.
LVP25_PACKAGES="mesa-vulkan-drivers mesa-libgallium libllvm19 libxml2 libicu76"
LVP25_VERSION=25.0.7

# The Debian archive the host already uses (the only network this machine has).
mirror() {
  if [ -n "${VKPOLYFILL_MIRROR:-}" ]; then echo "$VKPOLYFILL_MIRROR"; return; fi
  local uri
  uri=$(grep -rhoE '(https?://[^ ]*/debian)/?( |$)' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null \
        | grep -v security | head -n1 | tr -d ' ')
  echo "${uri:-http://deb.debian.org/debian}"
}
MIRROR=$(mirror)
APT_OPTS=(-o Acquire::Check-Valid-Until=false -o APT::Install-Recommends=false -o Dpkg::Use-Pty=0 -q)

# Runs a command inside the root in a private mount namespace: nothing stays mounted afterwards.
in_root() {
  unshare --mount --fork -- sh -c '
    root=$1; shift
    for d in proc sys dev; do mount --rbind /$d "$root/$d"; done
    exec chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
      DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 "$@"' sh "$1" "${@:2}"
}

make_root() {
  local tmp="$VKPOLYFILL_ROOT.partial"
  [ -d "$tmp" ] && ! grep -q " $tmp/" /proc/mounts && rm -rf "$tmp"
  command -v debootstrap >/dev/null || vkpolyfill_step "install debootstrap on the host" \
    apt-get install -y -q debootstrap >/dev/null
  # Debian 12's debootstrap has no forky script; sid's serves.
  vkpolyfill_step "debootstrap forky from $MIRROR" unshare --mount --fork -- \
    debootstrap --variant=minbase forky "$tmp" "$MIRROR" /usr/share/debootstrap/scripts/sid >"$VKPOLYFILL_CACHE/debootstrap.log" 2>&1 \
    || { tail -n 20 "$VKPOLYFILL_CACHE/debootstrap.log"; return 1; }
  cp /etc/resolv.conf "$tmp/etc/resolv.conf" 2>/dev/null || true
  vkpolyfill_step "apt-get update in the root" in_root "$tmp" apt-get "${APT_OPTS[@]}" update >/dev/null
  # shellcheck disable=SC2086
  vkpolyfill_step "install the toolchain in the root" in_root "$tmp" \
    apt-get "${APT_OPTS[@]}" install -y $ROOT_PACKAGES >"$VKPOLYFILL_CACHE/apt.log" 2>&1 \
    || { tail -n 20 "$VKPOLYFILL_CACHE/apt.log"; return 1; }
  in_root "$tmp" apt-get clean
  mv "$tmp" "$VKPOLYFILL_ROOT"
}

# Downloads trixie's lavapipe with a private apt configuration (the host's sources stay as they are).
fetch_lvp25() {
  local dest=$1 apt="$VKPOLYFILL_CACHE/apt-trixie"
  mkdir -p "$apt/lists/partial" "$apt/archives/partial" "$apt/debs"
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-trixie-stable.gpg] $MIRROR trixie main" >"$apt/sources.list"
  local opts=("${APT_OPTS[@]}" -o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
              -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt" -o Dir::State::Status=/dev/null
              -o APT::Get::List-Cleanup=false -o APT::Sandbox::User=root)
  apt-get "${opts[@]}" update >/dev/null
  (cd "$apt/debs" && rm -f ./*.deb && apt-get "${opts[@]}" download $LVP25_PACKAGES >/dev/null)
  rm -rf "$dest.partial" && mkdir -p "$dest.partial"
  for deb in "$apt"/debs/*.deb; do dpkg-deb -x "$deb" "$dest.partial"; done
  rm -rf "$dest" && mv "$dest.partial" "$dest"
}

# Makes the extracted driver loadable by absolute path without LD_LIBRARY_PATH: each library finds
# its siblings through its RUNPATH, and the ICD manifest names the library by absolute path.
# $1: the directory on this host; $2: the same directory as the driver's users see it;
# $3...: how to run a command where $2 is visible (empty on a modern host).
install_lvp25_icd() {
  local dir=$1 seen=$2 lib="$2/usr/lib/x86_64-linux-gnu"
  shift 2
  "$@" sh -c 'for so in "$1"/*.so*; do [ -L "$so" ] || patchelf --set-rpath "$1" "$so"; done' sh "$lib"
  ls "$dir"/usr/lib/x86_64-linux-gnu/ | grep -q "$LVP25_VERSION" \
    || { echo "lavapipe $LVP25_VERSION is not in what was fetched"; return 1; }
  cat >"$dir/lvp25_icd.json" <<EOF2
{
    "file_format_version": "1.0.1",
    "ICD": { "library_path": "$lib/libvulkan_lvp.so", "api_version": "1.4.305" }
}
EOF2
}

# Whether a process runs chrooted into the directory $1.
root_in_use() {
  local p
  for p in /proc/[0-9]*/root; do
    [ "$(readlink "$p" 2>/dev/null)" = "$1" ] && return 0
  done
  return 1
}

# Roots made by an older version of this script; only ever removes one nothing uses: no mount in it
# here and no process chrooted into it (env.sh mounts in private namespaces, unseen here). Clones
# not yet rebased still use the older root, so it stays for a day after the current one was made;
# a root made after the current one belongs to a newer script and stays too.
remove_stale_roots() {
  local old
  [ -n "$(find "$VKPOLYFILL_ROOT/.vkpolyfill-ready" -mmin +1440)" ] || return 0
  for old in "$VKPOLYFILL_CACHE"/root-* "$VKPOLYFILL_CACHE"/forky-*; do
    case $old in "$VKPOLYFILL_ROOT"|*.partial) continue ;; esac
    [ -d "$old" ] || continue
    [ "$old/.vkpolyfill-ready" -nt "$VKPOLYFILL_ROOT/.vkpolyfill-ready" ] && continue
    grep -q " $old/" /proc/mounts && continue
    root_in_use "$old" && continue
    vkpolyfill_step "remove stale $(basename "$old")" rm -rf "$old"
  done
}

main() {
  mkdir -p "$VKPOLYFILL_CACHE"
  local t0=$SECONDS
  # One set-up at a time per cache: a second one waits, then finds the root ready.
  exec 9>"$VKPOLYFILL_CACHE/setup.lock"
  flock 9
  if vkpolyfill_host_is_modern; then
    echo "[setup] host packages are new enough: using them directly"
    local lvp="$VKPOLYFILL_CACHE/lvp25-$VKPOLYFILL_ENV_KEY"
    if [ ! -f "$lvp/lvp25_icd.json" ]; then
      vkpolyfill_step "fetch trixie lavapipe $LVP25_VERSION" fetch_lvp25 "$lvp"
      vkpolyfill_step "arrange its library path" install_lvp25_icd "$lvp" "$lvp"
    fi
  else
    if [ -f "$VKPOLYFILL_ROOT/.vkpolyfill-ready" ]; then
      echo "[setup] reusing $VKPOLYFILL_ROOT"
    else
      [ "$(id -u)" = 0 ] || { echo "[setup] making the root needs root (debootstrap, chroot)"; exit 1; }
      [ -d "$VKPOLYFILL_ROOT" ] || make_root
      local lvp="$VKPOLYFILL_ROOT/$VKPOLYFILL_LVP25_REL"
      vkpolyfill_step "fetch trixie lavapipe $LVP25_VERSION" fetch_lvp25 "$lvp"
      vkpolyfill_step "arrange its library path" install_lvp25_icd "$lvp" "/$VKPOLYFILL_LVP25_REL" in_root "$VKPOLYFILL_ROOT"
      touch "$VKPOLYFILL_ROOT/.vkpolyfill-ready"
    fi
    remove_stale_roots
  fi
  vkpolyfill_step "check both drivers" "$VKPOLYFILL_REPO/scripts/env.sh" sh -c \
    'for icd in "$VKPOLYFILL_ICD_PLAIN" "$VKPOLYFILL_ICD_NATIVE"; do
       VK_DRIVER_FILES=$icd vulkaninfo --summary 2>/dev/null | grep -m1 -E "driverInfo" || exit 1
     done'
  echo "[setup] ready in $((SECONDS - t0)) s"
}

main "$@"
