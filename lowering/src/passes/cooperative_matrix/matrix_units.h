// Workgroup-scope multiply-adds (SPV_NV_cooperative_matrix2) on the driver's own subgroup-scope KHR
// cooperative matrices (Target::native_matrices), so that GPUs with matrix units but without coopmat2
// (RDNA3, NVIDIA Turing on, lavapipe 26) multiply with them (Target::multiply_on_native_matrices says
// which).
// A and B keep the lowered layouts (matrix_types.h) everywhere else and are written to shared memory
// row-major for the multiply-add, a chunk of K at a time; each subgroup then loads the driver's tiles
// of A and B its share of the result needs and multiplies along K. An accumulator kept in the
// driver's tiles (resident_accumulators.h) stays in the subgroups' registers: each multiplies its
// block of tiles, a tile of A per block row and of B per block column each step. Any other C is
// written to shared memory too, each subgroup loads, multiplies and stores back its tiles, and every
// invocation reads the elements of the result it holds: M K + K N + 2 M N elements through shared
// memory instead of the plain staged multiply-add's M K + K N.
#pragma once

#include <optional>

#include "ir/function_builder.h"
#include "passes/cooperative_matrix/lowering_state.h"
#include "passes/cooperative_matrix/scratch.h"

namespace vkpolyfill::lowering::cooperative_matrix {

struct MultiplyAddOperands {
    const MatrixType& a;
    const MatrixType& b;
    const MatrixType& c;
    const MatrixType& result;
    uint32_t operands_mask;  // the instruction's Cooperative Matrix Operands
};

// The driver's configuration that fits the multiply-add, where the target multiplies on the units at
// all: the largest tile whose component types (signedness as the operands say) and saturation are
// the instruction's and that divides M, N and K, where A, B and C fit the staging budget at least a
// tile of K at a time. nullopt: none.
std::optional<CooperativeMatrixConfiguration> fitting_matrix_unit(LoweringState& state, const MultiplyAddOperands& operands);

// The configuration the multiply-add runs on: the fitting one, where Target::multiply_on_native_matrices
// takes the multiply-add (under KeptAccumulators: where C stays in tiles, resident_accumulators.h).
// nullopt: it is lowered to plain code.
std::optional<CooperativeMatrixConfiguration> matrix_unit_for(LoweringState& state, const MultiplyAddOperands& operands);

// The bytes of shared memory the multiply-add stages A and B in on `unit` when C stays in the tiles.
uint64_t staged_operand_bytes(LoweringState& state, const MultiplyAddOperands& operands, const CooperativeMatrixConfiguration& unit);

// The function (A, B, C arrays -> result array) that runs the multiply-add on `unit`.
uint32_t multiply_add_on_units(LoweringState& state, Scratch& scratch, const MultiplyAddOperands& operands,
                               const CooperativeMatrixConfiguration& unit);

}  // namespace vkpolyfill::lowering::cooperative_matrix
