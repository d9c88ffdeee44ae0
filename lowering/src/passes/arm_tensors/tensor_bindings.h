// The module's tensor variables (UniformConstant, a tensor or an array of tensors) rewritten into the
// two aliased storage-buffer variables of the layer contract (vkpolyfill/lowering/arm_tensors.h): the
// tensor variable keeps its id and becomes the data buffers' variable, a new variable at the same set
// and binding reads the shape records. Both are arrays of twice the tensor array's length; a tensor's
// data is element 2i, its shape record element 2i + 1.
#pragma once

#include <cstdint>
#include <unordered_map>

#include "passes/arm_tensors/element_storage.h"
#include "passes/pass.h"

namespace vkpolyfill::lowering::arm_tensors {

struct TensorBinding {
    uint32_t data_variable = 0;   // StorageBuffer, array of Block { stored_type data[]; }
    uint32_t shape_variable = 0;  // StorageBuffer, array of Block { uint words[20]; } (TensorShapeRecord)
    uint32_t tensor_type = 0;     // the OpTypeTensorARM of its elements
    ElementStorage storage;
};

// Tensor variable id -> its binding. Reports variables it cannot rewrite (no DescriptorSet or Binding,
// an initializer, an element that is no tensor); the module is left half-rewritten only then.
std::unordered_map<uint32_t, TensorBinding> rewrite_tensor_variables(PassContext& context);

}  // namespace vkpolyfill::lowering::arm_tensors
