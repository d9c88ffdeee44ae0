// What the module fixes of the tensor layouts its loads and stores use: the words of a lowered
// layout (tensor_types.h) that hold the same constant on every path reaching the access. Followed
// back from the access's TensorLayout operand through the SPV_NV_tensor_addressing instructions that
// built it, the Function variables glslang keeps layouts in (when only loaded and stored; a load
// takes every value stored to the variable, wherever), and phis, over the blocks the pipeline's
// constants leave reachable (passes/common/constant_branches.h).
// The lowering decides with it what the addressing helper would otherwise test for every element
// (tensor_memory.cpp): llama.cpp's layouts have blocks of one element and slices of constant spans.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "ir/module.h"
#include "passes/cooperative_matrix/tensor_types.h"
#include "vkpolyfill/lowering/lower.h"

namespace vkpolyfill::lowering::cooperative_matrix {

class TensorLayoutValues {
  public:
    // A layout's words, each its constant value or nullopt where it is not one.
    using Words = std::vector<std::optional<uint32_t>>;

    // Follows the layout of every tensor load and store in the module's functions.
    void collect(const ir::Module& module, const TensorTypes& tensors, std::span<const SpecializationValue> specialization);

    // The words of the layout value `layout` an access takes; nullptr if it was not collected.
    const Words* of(uint32_t layout) const;

  private:
    std::unordered_map<uint32_t, Words> words_;
};

}  // namespace vkpolyfill::lowering::cooperative_matrix
