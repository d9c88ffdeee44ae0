// Components wider than the scalars of the array a cooperative-matrix load or store points into
// (SPV_KHR_cooperative_matrix lets the pointee type differ from the component type, and llama.cpp's
// attention kernels load f16 and f32 matrices from uint8_t buffers): such a component is
// consecutive scalars of the array ("pieces"), the lowest-addressed holding its lowest bits.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "passes/cooperative_matrix/lowering_state.h"

namespace vkpolyfill::lowering::cooperative_matrix {

// Why components of `component` cannot be made of `piece` scalars (a piece type whose bits the
// lowering cannot take without capabilities the module may lack); nullopt when they can.
std::optional<std::string> wide_component_problem(const ir::TypeManager& types, const ComponentInfo& piece,
                                                  const ComponentInfo& component);

// The component made of `pieces` (component.width / piece.width values of the piece type).
uint32_t assemble_component(LoweringState& state, ir::Builder& builder, std::span<const uint32_t> pieces, const ComponentInfo& piece,
                            const ComponentInfo& component);

// `value` cut into component.width / piece.width values of the piece type, lowest bits first.
std::vector<uint32_t> split_component(LoweringState& state, ir::Builder& builder, uint32_t value, const ComponentInfo& piece,
                                      const ComponentInfo& component);

}  // namespace vkpolyfill::lowering::cooperative_matrix
