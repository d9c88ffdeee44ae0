// Accumulators that hold one value a row, kept as one component per row an invocation holds.
//
// llama.cpp's coopmat2 flash attention keeps its softmax state in whole 64x64 accumulators whose
// columns repeat one value a row: the row maxima and sums (M, L) around its loop over keys and the
// slopes, and in each step the row maxima, their exponentials, the row sums and O's rescaling (64 x
// the head size). In the GPU layout an invocation holds a block of R rows x NL columns of each, so
// every such value took NL registers where one does: on NVK the kernel spilled.
//
// A value that has one value a row by construction takes a type of its own
// (MatrixTypes::row_values_type), one component per row the invocation holds:
//  - it starts at a Row (or Row-and-Column) reduction's result, or a matrix filled with one value
//    (a constant, null or undefined composite, OpCompositeConstruct of one constituent);
//  - it stays through element-wise arithmetic and conversions of such values alone, phis, selects and
//    copies of them, a per-element operation on them whose function ignores its column, and the
//    streamed multiply-add by a B of one value onto such a C (sums_rows_of_a);
// found optimistically, so that a loop's phi keeps it unless a value coming around the loop does not.
// Every other use (a store, an operation with a full matrix, a reduction's operand, a call) gets the
// full matrix back, each component its row's value: an expansion compilers fold into the use.
//
// In the GPU layout only (Target::distributed_matrices), for accumulators held in row blocks of more
// than one column (not striped, not kept in the driver's tiles).
#pragma once

#include <cstddef>

#include "ir/function.h"
#include "passes/cooperative_matrix/lowering_state.h"

namespace vkpolyfill::lowering::cooperative_matrix {

// Gives the module's values that hold one value a row their row-values types and expands them where
// they are used otherwise (OpCopyObject from the row-values type to the full one). Runs before the
// instructions are lowered.
void keep_row_values(LoweringState& state);

// Whether `instruction` is one of those expansions; lower_row_expansion replaces it by the full array.
bool is_row_expansion(LoweringState& state, const ir::Instruction& instruction);
void lower_row_expansion(LoweringState& state, ir::BasicBlock& block, size_t index);

}  // namespace vkpolyfill::lowering::cooperative_matrix
