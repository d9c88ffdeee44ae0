// OpCooperativeMatrixMulAddKHR becomes a call to a generated function that widens the operands to
// 32-bit components, runs the GLSL kernel (shaders/lowering/coopmat_muladd.comp, instantiated for
// the shape and linked in), and narrows the result. The lane layout gives every invocation the A
// rows and B columns its accumulator elements need, so the kernel is plain per-invocation code.
// At workgroup scope, A and B are first staged through shared memory, from which each subgroup
// reads the rows of A and columns of B its band of the accumulator needs.
#pragma once

#include <cstddef>

#include "ir/function.h"
#include "passes/cooperative_matrix/lowering_state.h"
#include "passes/cooperative_matrix/scratch.h"

namespace vkpolyfill::lowering::cooperative_matrix {

bool lower_multiply_add(LoweringState& state, Scratch& scratch, ir::BasicBlock& block, size_t index);

}  // namespace vkpolyfill::lowering::cooperative_matrix
