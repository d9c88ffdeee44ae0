// A 32-bit view of a read-only storage buffer that the shader declares as 8- or 16-bit scalars:
// another variable bound to the same descriptor, as an array of uints. On a driver whose
// invocations are SIMD lanes, a per-invocation 16-bit load is a gather emulated lane by lane, while
// a 32-bit one is a native gather; reading the word and shifting is cheaper there (measured on
// lavapipe with the f16 GEMM benchmark: tests/bench/README.md). Vulkan allows several variables on one
// descriptor when they agree with its type; both are read-only, so they cannot disagree.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "passes/cooperative_matrix/lowering_state.h"

namespace vkpolyfill::lowering::cooperative_matrix {

struct WordView {
    uint32_t variable;       // StorageBuffer Block { uint data[]; } on the same set and binding
    uint32_t first_element;  // where the shader's array starts in the buffer, in its elements
};

// The word view of the descriptor `variable` (a StorageBuffer variable) is bound to; one per
// binding, made on first use. nullopt when the variable has no descriptor set or binding.
std::optional<uint32_t> binding_word_view(LoweringState& state, uint32_t variable);

// The view for elements of `element_type` reached through `base` and `indices` (member, element),
// nullopt unless `base` is a read-only descriptor whose last member is a runtime array of them.
std::optional<WordView> word_view(LoweringState& state, uint32_t base, std::span<const uint32_t> indices,
                                  uint32_t element_type);

// The component at element index `index` (a uint id) of the shader's array, read through `view`.
uint32_t load_through_word_view(LoweringState& state, ir::Builder& builder, const WordView& view, uint32_t index,
                                const ComponentInfo& component);

// The 32 / width components of the word whose first component is element `index` (a uint id; the
// caller knows that index + first_element is a multiple of 32 / width), in element order: one load.
std::vector<uint32_t> load_word_through_view(LoweringState& state, ir::Builder& builder, const WordView& view, uint32_t index,
                                             const ComponentInfo& component);

}  // namespace vkpolyfill::lowering::cooperative_matrix
