// The instructions that make and change tensor layouts and views (OpCreateTensorLayoutNV,
// OpTensorLayoutSet*NV, OpTensorLayoutSliceNV, OpCreateTensorViewNV, OpTensorViewSet*NV), lowered
// to building the uint arrays of tensor_types.h: each copies its operand's words and replaces the
// ones the spec says it sets.
#pragma once

#include <cstddef>
#include <cstdint>

#include "passes/cooperative_matrix/lowering_state.h"

namespace vkpolyfill::lowering::cooperative_matrix {

bool is_tensor_state_op(uint32_t opcode);

// Lowers block.instructions[index], one of is_tensor_state_op's; reports and returns false when its
// type is not a lowered tensor type.
bool lower_tensor_state(LoweringState& state, ir::BasicBlock& block, size_t index);

}  // namespace vkpolyfill::lowering::cooperative_matrix
