// Matrices a loop carries from one iteration to the next, kept once.
//
// Optimized SPIR-V (spirv-opt's, llama.cpp's kernels) carries a value around a loop with continue
// statements as two OpPhis: the header's (its value before the loop, or the continue target's) and
// the continue target's (merging the continue statements). Mesa's SPIR-V translator runs the continue
// construct at the top of the next iteration, so both phis' values go around the back edge: every
// carried matrix is held twice (RADV's NIR of llama.cpp's flash attention carried 96 values more than
// its state). Where the continue target's phi feeds only the header's, both become one Function
// variable, stored where each value arrives and loaded in the header: one value around the loop.
#pragma once

#include "ir/function.h"
#include "passes/cooperative_matrix/lowering_state.h"

namespace vkpolyfill::lowering::cooperative_matrix {

// Rewrites the matrix-typed phi pairs of `function`'s loops as above. Runs before the matrix types
// are replaced by their arrays (it recognizes matrices by their types).
void carry_matrices_in_variables(LoweringState& state, ir::Function& function);

}  // namespace vkpolyfill::lowering::cooperative_matrix
