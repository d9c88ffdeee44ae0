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

echo
echo "== What the layer provides on lavapipe and on real GPUs, feature bit by feature bit"
echo "   (the GPUs are Mesa's own drivers started without the hardware through drm-shim: scripts/gpu-proxy.sh)"
bash scripts/gpu-sweep.sh --capabilities --out "$VKPOLYFILL_BUILD_DIR/gpu-sweep-demo" | sed 1,2d

echo
echo "== A GLSL cooperative-matrix shader, lowered offline for this device's subgroup size"
subgroup=$(vulkaninfo 2>/dev/null | sed -n 's/^\tsubgroupSize *= *\([0-9]*\)/\1/p' | head -n1)
shader="$VKPOLYFILL_BUILD_DIR/shaders/tests/coopmat_khr.comp.spv"
lowered=$(mktemp)
"$VKPOLYFILL_BUILD_DIR/lowering/cli/vkpolyfill-lower" --target vulkan1.3 --subgroup-size "${subgroup:-8}" \
  --validate "$shader" -o "$lowered"
echo "coopmat_khr.comp: $(spirv-dis "$shader" | grep -c CooperativeMatrix) cooperative-matrix instructions;" \
  "lowered for subgroup size ${subgroup:-8}: $(spirv-dis "$lowered" | grep -c CooperativeMatrix), and spirv-val accepts it"
rm -f "$lowered"

echo
echo "== An f16 GEMM written with cooperative matrices, run through the layer on this device"
echo "   (emulated with force_emulation where the driver has the extension; results checked on the CPU)"
"$VKPOLYFILL_BUILD_DIR/tests/bench/vkpolyfill_bench" --driver system --sizes 256 --reps 3 \
  --only emulated,native,scalar --coopmat tm=16,tn=16,tk=16 2>&1 | grep -E '^\| (size|---|256)'

echo
echo "== An attention block written with VK_NV_cooperative_matrix2 (reduce, per-element, conversion), lowered by the layer"
echo "   (against a scalar shader of the same math and the driver's own coopmat2 where it has it; results checked on the CPU)"
"$VKPOLYFILL_BUILD_DIR/tests/bench/vkpolyfill_attention_bench" --driver system --queries 512 --keys 128 --reps 3 2>&1 |
  grep -E '^\||speed' | grep -v '^\[vkpolyfill'

echo
echo "== Programmable blending through VK_EXT_shader_tile_image (emulated where the driver lacks it)"
echo "   (48 translucent quads blended by the fragment shader; checked against the CPU's blending)"
mkdir -p build
"$VKPOLYFILL_BUILD_DIR/tests/bench/vkpolyfill_tile_image_demo" build/tile_image_blending.png 2>&1 | grep -v '^\[vkpolyfill'

echo
echo "== Tensor kernels through VK_ARM_tensors (emulated over storage buffers where the driver lacks it)"
echo "   (an element-wise kernel and a matrix product written with GL_ARM_tensors, and tensor copies;"
echo "    every result checked on the CPU before it is timed)"
"$VKPOLYFILL_BUILD_DIR/tests/bench/vkpolyfill_tensor_bench" --driver system --elements 1048576 --matrix 128 --reps 3 2>&1 |
  grep -v '^\[vkpolyfill'
