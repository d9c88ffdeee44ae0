// Tensor writes store only inside the tensor (outside, the Vulkan rule says the write has no effect),
// which takes a branch. Rather than split the caller's block (a loop header, say, cannot be split),
// each store goes through a small generated function:
//   void store(uint data_index, uint offset, bool in_bounds, Element value) {
//       if (in_bounds) data[data_index].elements[offset] = value;  // with the write's memory operands
//   }
// one per binding, uniformity and memory operands, shared by every write that matches; and one per
// descriptor when that is a constant, which the function then uses instead of its parameter (a
// descriptor array indexed by a parameter would need dynamic indexing, a device feature).
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "passes/arm_tensors/descriptor_access.h"

namespace vkpolyfill::lowering::arm_tensors {

class ConditionalStores {
  public:
    ConditionalStores(PassContext& context, DescriptorAccess& access) : context_(context), access_(access) {}

    // The function for stores to `binding`'s descriptor `data_index` (a uint id) with `memory_operands`
    // (a Memory Operands mask and its ids, empty for none).
    uint32_t function(const TensorBinding& binding, uint32_t data_index, bool non_uniform,
                      const std::vector<uint32_t>& memory_operands);

  private:
    uint32_t make(const TensorBinding& binding, uint32_t constant_index, bool non_uniform,
                  const std::vector<uint32_t>& memory_operands);

    PassContext& context_;
    DescriptorAccess& access_;
    std::map<std::vector<uint32_t>, uint32_t> functions_;  // key words -> function
};

}  // namespace vkpolyfill::lowering::arm_tensors
