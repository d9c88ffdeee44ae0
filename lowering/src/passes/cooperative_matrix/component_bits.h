// Components as raw bits in the low bits of a 32-bit unsigned integer, and back: for components
// packed into wider array elements (stores through atomics), read through a word view, or given
// as bits by the shader (a tensor layout's clampValue). 8- and 16-bit components take a same-width
// OpBitcast only in modules that declare Int8 / Int16: without them (a module with only 8/16-bit
// storage access) spirv-val allows those types in width conversions only.
#pragma once

#include <cstdint>

#include "passes/cooperative_matrix/lowering_state.h"

namespace vkpolyfill::lowering::cooperative_matrix {

// The component whose bits are the low bits of uint `bits` (64-bit components: zero-extended).
uint32_t component_from_bits(LoweringState& state, ir::Builder& builder, uint32_t bits, const ComponentInfo& component);

// A component of 32 bits or fewer as a uint holding its bits in the low bits, the rest zero.
uint32_t component_to_bits(LoweringState& state, ir::Builder& builder, uint32_t value, const ComponentInfo& component);

// `value`, a `from` component, as the `to` component of the same width (its bits unchanged).
uint32_t reinterpret_component(LoweringState& state, ir::Builder& builder, uint32_t value, const ComponentInfo& from,
                               const ComponentInfo& to);

}  // namespace vkpolyfill::lowering::cooperative_matrix
