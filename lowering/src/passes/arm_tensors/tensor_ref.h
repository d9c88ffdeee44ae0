// What a lowered tensor value is: one element of a tensor binding's array, and whether the shader
// chose it non-uniformly (its accesses then carry NonUniform, as the original index did).
#pragma once

#include <cstdint>

#include "passes/arm_tensors/tensor_bindings.h"

namespace vkpolyfill::lowering::arm_tensors {

struct TensorRef {
    const TensorBinding* binding = nullptr;
    uint32_t element = 0;  // a 32-bit unsigned integer id: the index into the tensor array
    bool non_uniform = false;
};

}  // namespace vkpolyfill::lowering::arm_tensors
