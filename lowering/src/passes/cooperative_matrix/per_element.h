// OpCooperativeMatrixPerElementOpNV: a generated function calls the application's Func once per
// component an invocation holds, with that component's row and column (from the lane layout), its
// value, and the extra operands — for a matrix operand of the same type, its component at the same
// place (same layout, so in the same invocation).
#pragma once

#include <cstddef>

#include "ir/function.h"
#include "passes/cooperative_matrix/lowering_state.h"

namespace vkpolyfill::lowering::cooperative_matrix {

bool lower_per_element(LoweringState& state, ir::BasicBlock& block, size_t index);

}  // namespace vkpolyfill::lowering::cooperative_matrix
