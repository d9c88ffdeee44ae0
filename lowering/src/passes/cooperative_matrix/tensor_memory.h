// OpCooperativeMatrixLoadTensorNV and OpCooperativeMatrixStoreTensorNV become calls to generated
// functions that address each element this invocation holds (placement.h) through the tensor
// layout and view: shaders/lowering/tensor_addressing.comp, instantiated per layout and view type,
// is the spec's matrixCoordToTensorElement[WithView] and says whether the element is accessed,
// clipped by the view or outside the layout (Constant clamp mode); element_access.h reads and writes
// it through the pointer's access chain.
#pragma once

#include <cstddef>

#include "passes/cooperative_matrix/lowering_state.h"

namespace vkpolyfill::lowering::cooperative_matrix {

// Rewrites block.instructions[index] (a tensor load or store) into a call. Returns false after
// reporting why it cannot be lowered.
bool lower_tensor_memory_access(LoweringState& state, ir::BasicBlock& block, size_t index);

}  // namespace vkpolyfill::lowering::cooperative_matrix
