// Workgroup accumulators that stay in the driver's own cooperative-matrix tiles from one multiply-add
// to the next (Target::multiply_on_native_matrices), so that a GEMM's loop over K keeps its sums in
// the matrix units' registers instead of staging C through shared memory in and out of every
// multiply-add (matrix_units.h). A matrix type is kept in tiles (MatrixType::resident) when every
// multiply-add that takes or makes it runs on one configuration of the driver's, whose tiles the
// workgroup's subgroups can share out in equal rectangular blocks, and nothing reads or writes its
// components one by one (element access): its values are then arrays of tiles wherever they go
// (variables, phis, function calls). Every other operation on such a value (stores, conversions,
// per-element operations, reductions) works on the plain lowering: the tiles go through shared
// memory into it before, and a plain result back into tiles after (one relayout each, with barriers).
// Under NativeMultiplyAdds::KeptAccumulators only accumulators that no such operation takes or makes
// but loads, conversions and stores are kept; the multiply-adds of the others are plain code
// (matrix_unit_for).
#pragma once

#include <cstddef>
#include <cstdint>

#include "ir/builder.h"
#include "ir/function.h"
#include "passes/cooperative_matrix/lowering_state.h"
#include "passes/cooperative_matrix/scratch.h"

namespace vkpolyfill::lowering::cooperative_matrix {

// Decides which accumulator types stay in tiles (after state.matrices.collect).
void choose_resident_accumulators(LoweringState& state);

// The first row and column (uint ids) of the block of tiles the calling subgroup holds.
struct TileBlock {
    uint32_t first_row, first_column;
};
TileBlock tile_block(LoweringState& state, ir::Builder& builder, const ResidentTiles& tiles);

// Where block.instructions[index] is an operation other than a multiply-add that takes or makes a
// resident value, converts that value to the plain type before it and its result back to tiles
// after it; returns the instruction's index then.
size_t plain_around(LoweringState& state, Scratch& scratch, ir::BasicBlock& block, size_t index);

// The constant that replaces a composite splatting `constituent` over resident matrix `matrix`:
// a composite (opcode) of the tiles, each filled with it.
std::unique_ptr<ir::Instruction> resident_splat(LoweringState& state, const MatrixType& matrix, uint32_t opcode, uint32_t result,
                                                uint32_t constituent);

}  // namespace vkpolyfill::lowering::cooperative_matrix
