// OpCooperativeMatrixLoadKHR and OpCooperativeMatrixStoreKHR become calls to generated functions
// that read or write this invocation's elements (lane_layout.h) through the access chain the
// pointer came from, so StorageBuffer, Workgroup and PhysicalStorageBuffer memory all work in
// Logical addressing. The pointee may be wider than a component (f16 matrices in uint or uvec4
// arrays): loads pick the component out, stores of packed components use atomic AND/OR so that
// invocations sharing a word do not overwrite each other.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "ir/function.h"
#include "passes/cooperative_matrix/lowering_state.h"

namespace vkpolyfill::lowering::cooperative_matrix {

// Rewrites block.instructions[index] (a load or a store) into a call. Returns false after reporting
// why it cannot be lowered.
bool lower_memory_access(LoweringState& state, ir::BasicBlock& block, size_t index);

// Adds the call of generated `function` that replaces load or store `replaced`: a load's call takes
// over its result id.
void add_access_call(LoweringState& state, ir::Builder& builder, uint32_t function, std::span<const uint32_t> arguments,
                     const ir::Instruction& replaced, const MatrixType& matrix);

}  // namespace vkpolyfill::lowering::cooperative_matrix
