// The SPV_ARM_tensors pass: tensors become storage buffers as the layer contract says
// (vkpolyfill/lowering/arm_tensors.h): each tensor variable two aliased storage-buffer variables (data
// and shape records, tensor_bindings.h), reads, writes and size queries storage-buffer code that
// checks every coordinate against the shape record (tensor_access.h), tensor parameters indexes
// (tensor_uses.h). The output declares what its buffer accesses need (8/16-bit storage, descriptor
// indexing) and nothing of SPV_ARM_tensors.
#pragma once

#include <memory>

#include "passes/pass.h"

namespace vkpolyfill::lowering {

std::unique_ptr<Pass> make_arm_tensors_pass();

}  // namespace vkpolyfill::lowering
