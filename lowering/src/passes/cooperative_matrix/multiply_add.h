// OpCooperativeMatrixMulAddKHR becomes a call to a generated function that widens the operands to
// 32-bit components, runs the GLSL kernel (shaders/lowering/coopmat_muladd.comp, instantiated for
// the shape and linked in), and narrows the result. The lane layout gives every invocation the A
// rows and B columns its accumulator elements need, so the kernel is plain per-invocation code.
// At workgroup scope, each subgroup multiplies its band of the accumulator by the rows of A and
// columns of B the band needs: held already where A and B take the accumulator's bands (then, on a
// CPU driver, a barrier follows that keeps the subgroups in step), else staged through shared memory.
#pragma once

#include <cstddef>

#include "ir/function.h"
#include "passes/cooperative_matrix/lowering_state.h"
#include "passes/cooperative_matrix/scratch.h"

namespace vkpolyfill::lowering::cooperative_matrix {

bool lower_multiply_add(LoweringState& state, Scratch& scratch, ir::BasicBlock& block, size_t index);

// Whether OpCooperativeMatrixMulAddKHR `instruction` is a workgroup one the GPU layout streams with a B
// filled with one constant: each invocation sums its rows of A (stream() in multiply_add.cpp), so the
// result holds one value a row where C does (row_values.h).
bool sums_rows_of_a(LoweringState& state, const ir::Instruction& instruction);

}  // namespace vkpolyfill::lowering::cooperative_matrix
