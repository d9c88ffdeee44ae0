// Follows tensors from their variables to the instructions that use them, in every function:
// OpLoad, OpCopyObject and access chains into tensor arrays become TensorRefs (no instructions of
// their own), tensor function parameters become the uint index of the tensor in its binding's array
// (a function called with tensors of different bindings, or of different uniformity, is cloned for
// each), and reads, writes and queries are lowered by TensorAccess. Any other use of a tensor is
// reported.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <unordered_set>

#include "passes/arm_tensors/tensor_access.h"
#include "passes/arm_tensors/tensor_ref.h"

namespace vkpolyfill::lowering::arm_tensors {

// `tensor_types`: OpTypeTensorARM and every array of and pointer to one, which no instruction may
// produce or use after this. Returns the ids of the instructions and functions it removed.
std::unordered_set<uint32_t> rewrite_tensor_uses(PassContext& context, const std::unordered_map<uint32_t, TensorBinding>& bindings,
                                                 const std::unordered_set<uint32_t>& tensor_types, TensorAccess& access);

}  // namespace vkpolyfill::lowering::arm_tensors
