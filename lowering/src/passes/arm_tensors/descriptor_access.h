// The storage-buffer side of a lowered tensor access: the descriptor array elements of a tensor
// (2i for its data, 2i + 1 for its shape record, folded when i is a constant), loads of shape-record
// words, and pointers to data elements — NonUniform-decorated when the tensor was chosen
// non-uniformly. Remembers which indexing capabilities the output needs.
//
// Shape records do not change during a dispatch, so when the tensor is known on entry to the function
// (a constant index, or a tensor parameter) its words are loaded once, at the top of the function,
// and every access reuses them: a loop over a tensor reads its shape once rather than per iteration.
#pragma once

#include <cstdint>
#include <map>
#include <tuple>

#include "ir/builder.h"
#include "passes/arm_tensors/tensor_ref.h"
#include "passes/pass.h"

namespace vkpolyfill::lowering::arm_tensors {

class DescriptorAccess {
  public:
    explicit DescriptorAccess(PassContext& context) : context_(context) {}

    // Accesses between the two calls are in `function`; end_function() puts the loads hoisted for them
    // at the top of its entry block.
    void begin_function(ir::Function& function);
    void end_function();

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
    // Whether the tensor is known on entry to the current function.
    bool known_on_entry(const TensorRef& ref) const;
    Indexes compute_indexes(ir::Builder& b, const TensorRef& ref);
    uint32_t emit_shape_load(ir::Builder& b, const TensorRef& ref, uint32_t shape_index, uint32_t word);

    PassContext& context_;
    bool dynamic_ = false;
    bool non_uniform_ = false;
    ir::Function* function_ = nullptr;
    ir::BasicBlock prologue_;  // the hoisted instructions, without a label
    std::map<uint32_t, Indexes> entry_indexes_;  // tensor element (a parameter) -> its indexes, in the prologue
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t> entry_words_;  // (variable, index, word) -> value
};

}  // namespace vkpolyfill::lowering::arm_tensors
