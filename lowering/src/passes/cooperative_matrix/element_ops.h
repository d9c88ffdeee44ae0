// Instructions applied component by component (arithmetic, conversions, OpMatrixTimesScalar) become
// calls to a generated function that applies the scalar instruction to each component an
// invocation holds: the layout of the operands and of the result is the same, so no data moves
// between invocations.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ir/function.h"
#include "passes/cooperative_matrix/lowering_state.h"

namespace vkpolyfill::lowering::cooperative_matrix {

bool is_element_wise(uint32_t opcode);

// Rewrites block.instructions[index] into a call; false after reporting why it cannot.
bool lower_element_wise(LoweringState& state, ir::BasicBlock& block, size_t index);

}  // namespace vkpolyfill::lowering::cooperative_matrix
