// shaders/tests/coopmat_khr.comp run against the CPU: one 16x16 f32 tile of A·B (f16 inputs of small
// integers, so every sum is exact) over three 16-wide steps of K.
#pragma once

#include <string>

#include "vulkan_context.h"

namespace vkpolyfill::test {

inline constexpr uint32_t kGemmTileBuffers = 3;     // A, B, C at bindings 0..2
inline constexpr uint32_t kGemmTilePushBytes = 8;  // k_tiles, stride

// Dispatches `pipeline` (of that shader, or code lowered from it) once; "" when C matches the CPU,
// else the first element that does not.
std::string gemm_tile_mismatch(Context& context, const ComputePipeline& pipeline);

}  // namespace vkpolyfill::test
