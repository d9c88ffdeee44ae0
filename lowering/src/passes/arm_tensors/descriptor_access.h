// The storage-buffer side of a lowered tensor access: the descriptor array elements of a tensor
// (2i for its data, 2i + 1 for its shape record, folded when i is a constant), loads of shape-record
// words, and pointers to data elements — NonUniform-decorated when the tensor was chosen
// non-uniformly. Remembers which indexing capabilities the output needs.
#pragma once

#include <cstdint>

#include "ir/builder.h"
#include "passes/arm_tensors/tensor_ref.h"
#include "passes/pass.h"

namespace vkpolyfill::lowering::arm_tensors {

class DescriptorAccess {
  public:
    explicit DescriptorAccess(PassContext& context) : context_(context) {}

    struct Indexes {
        uint32_t data;   // uint id: element 2i of the binding
        uint32_t shape;  // uint id: element 2i + 1
    };
    Indexes indexes(ir::Builder& b, const TensorRef& ref);

    // Word `word` of the tensor's shape record (TensorShapeRecord), as a uint.
    uint32_t load_shape_word(ir::Builder& b, const TensorRef& ref, uint32_t shape_index, uint32_t word);

    // A pointer to element `offset` of the data buffer at descriptor `data_index`.
    uint32_t data_pointer(ir::Builder& b, const TensorBinding& binding, uint32_t data_index, uint32_t offset,
                          bool non_uniform);

    void decorate_non_uniform(uint32_t id);

    // Whether some descriptor index is not a constant / was non-uniform.
    bool indexed_dynamically() const { return dynamic_; }
    bool indexed_non_uniformly() const { return non_uniform_; }

  private:
    PassContext& context_;
    bool dynamic_ = false;
    bool non_uniform_ = false;
};

}  // namespace vkpolyfill::lowering::arm_tensors
