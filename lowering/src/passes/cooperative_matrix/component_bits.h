// Components as raw bits in the low bits of a 32-bit unsigned integer, and back: for components
// packed into wider array elements (stores through atomics), read through a word view, or given
// as bits by the shader (a tensor layout's clampValue).
#pragma once

#include <cstdint>

#include "passes/cooperative_matrix/lowering_state.h"

namespace vkpolyfill::lowering::cooperative_matrix {

// The component whose bits are the low bits of uint `bits` (64-bit components: zero-extended).
uint32_t component_from_bits(LoweringState& state, ir::Builder& builder, uint32_t bits, const ComponentInfo& component);

// A component of 32 bits or fewer as a uint holding its bits in the low bits, the rest zero.
uint32_t component_to_bits(LoweringState& state, ir::Builder& builder, uint32_t value, const ComponentInfo& component);

}  // namespace vkpolyfill::lowering::cooperative_matrix
