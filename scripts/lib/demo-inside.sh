# The demo's body, run inside scripts/env.sh (see scripts/demo.sh).
set -euo pipefail
extensions() { vulkaninfo 2>/dev/null | sed -n 's/^\t\(VK_[A-Za-z0-9_]*\) *: extension revision *\([0-9]*\)/\1 \2/p' | sort -u; }

echo "== Default Vulkan device"
vulkaninfo --summary 2>/dev/null | grep -E "deviceName|driverInfo|apiVersion" | head -n 3

echo
echo "== The layer, as the loader lists it"
VK_INSTANCE_LAYERS=VK_LAYER_POLYFILL_extensions vulkaninfo 2>/dev/null | grep -m1 -A1 "VK_LAYER_POLYFILL_extensions" || true

echo
echo "== What the layer decides for each capability on this device (log_level=debug)"
VK_INSTANCE_LAYERS=VK_LAYER_POLYFILL_extensions VK_POLYFILL_EXTENSIONS_LOG_LEVEL=debug \
  vulkaninfo --summary 2>&1 >/dev/null | grep '^\[vkpolyfill\]' | sort -u

echo
echo "== Device extensions the layer adds"
added=$(comm -13 <(extensions) <(VK_INSTANCE_LAYERS=VK_LAYER_POLYFILL_extensions extensions))
echo "${added:-(none)}"
