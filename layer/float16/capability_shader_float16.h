// shaderFloat16 (VK_KHR_shader_float16_int8, core in Vulkan 1.2) where the driver has 16-bit storage
// but no f16 arithmetic (NVK on Pascal, the GTX 1080): f16 values held in f32 and rounded to f16 after
// each operation (lowering::Emulated::Float16), so that f16 cooperative matrices and the engines'
// f16 kernels run there. Enabled by the feature bit, not the extension.
#pragma once

#include "core/capabilities.h"

namespace vkpolyfill {

Capability shader_float16_capability();

}  // namespace vkpolyfill
