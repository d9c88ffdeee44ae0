// Instructions that move components between invocations — OpCooperativeMatrixConvertNV and
// conversions that change a matrix's Use (accumulator to A or B), OpCooperativeMatrixTransposeNV,
// OpCooperativeMatrixReduceNV — go through the subgroup's slice of shared memory: every
// invocation writes the elements it holds at their (row, column), a subgroup barrier, and every
// invocation reads the elements its result holds (a Row or Column reduction writes one partial per
// line it holds instead, and reads the partials of its result's lines). Each becomes a call to a
// generated function, whose per-element code is unrolled or a loop (element_loop.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>

#include "ir/function.h"
#include "ir/function_builder.h"
#include "passes/cooperative_matrix/lowering_state.h"
#include "passes/cooperative_matrix/scratch.h"

namespace vkpolyfill::lowering::cooperative_matrix {

// A conversion (Op*Convert, OpCooperativeMatrixConvertNV) whose result's layout differs from its
// operand's, or a transpose.
bool needs_relayout(LoweringState& state, const ir::Instruction& instruction);

bool lower_relayout(LoweringState& state, Scratch& scratch, ir::BasicBlock& block, size_t index);

// A band of a matrix's rows (or columns): those from `first` (a uint id) on, `count` of them.
struct ScratchWindow {
    bool rows;
    uint32_t first;
    uint32_t count;
};

// Stores the elements `matrix` (of type `m`) holds at offset + row * pitch + column (transposed:
// column * pitch + row) of the scratch area for its component type and scope, which holds
// `area_elements` (with a narrower `carrier` type, in that type's area: Scratch::store; 16-bit floats
// with a uint carrier two to a uint, the components of each of m's runs of 2 at word index / 2 of
// the uint area, the caller keeping those indices even); no barriers. Copies held by several
// invocations are stored by one. With a window, only the elements inside it, their row (column)
// counted from the window's first.
void store_to_scratch(LoweringState& state, Scratch& scratch, ir::FunctionBuilder& function, const MatrixType& m,
                      uint32_t matrix, uint32_t offset, uint32_t pitch, bool transpose, uint32_t area_elements,
                      const std::optional<ScratchWindow>& window = std::nullopt, uint32_t carrier = 0);
// The elements of a matrix of type `m` read from offset + row * pitch + column of the scratch area for
// its component type and scope (or `carrier`'s), which holds `area_elements`: the value of m.lowered;
// no barriers.
uint32_t load_from_scratch(LoweringState& state, Scratch& scratch, ir::FunctionBuilder& function, const MatrixType& m,
                           uint32_t offset, uint32_t pitch, uint32_t area_elements, uint32_t carrier = 0);
// `held` (a value of m.lowered) with the elements in rows first (a uint id) to first + rows - 1 read
// from (row - first) * m.columns + column of the scratch area (with `carrier`: Scratch::load) for the
// component type of `staged` (m's layout, the components' type maybe another), which holds those rows;
// `finish` converts each read to m's component type (none: the same). No barriers.
uint32_t load_rows_from_scratch(LoweringState& state, Scratch& scratch, ir::FunctionBuilder& function, const MatrixType& staged,
                                const MatrixType& m, uint32_t held, uint32_t first, uint32_t rows, uint32_t carrier = 0,
                                const std::function<uint32_t(uint32_t)>& finish = nullptr);
bool lower_reduce(LoweringState& state, Scratch& scratch, ir::BasicBlock& block, size_t index);

}  // namespace vkpolyfill::lowering::cooperative_matrix
