// The Target the cooperative-matrix lowering tests lower for: KHR cooperative matrices, NV
// cooperative matrix 2, tensor addressing and decode vector emulated, at a given subgroup size.
#pragma once

#include <cstdint>

#include "vkpolyfill/lowering/lower.h"

namespace vkpolyfill::lowering::test {

inline Target emulating_coopmat(uint32_t subgroup_size, bool simd_lanes = false) {
    Target target;
    target.emulate = bit(Emulated::KhrCooperativeMatrix) | bit(Emulated::NvCooperativeMatrix2) | bit(Emulated::NvTensorAddressing) |
                     bit(Emulated::NvCooperativeMatrixDecodeVector);
    target.subgroup_size = subgroup_size;
    target.simd_lane_invocations = simd_lanes;
    target.max_shared_memory_bytes = 32768;
    return target;
}

}  // namespace vkpolyfill::lowering::test
