// A 32-bit view of a read-only storage buffer that the shader declares as 8- or 16-bit scalars:
// another variable bound to the same descriptor, as an array of uints. On a driver whose
// invocations are SIMD lanes, a per-invocation 16-bit load is a gather emulated lane by lane, while
// a 32-bit one is a native gather; reading the word and shifting is cheaper there (measured on
// lavapipe with the f16 GEMM benchmark: tests/bench/README.md). Vulkan allows several variables on one
// descriptor when they agree with its type; both are read-only, so they cannot disagree.
// A 16-bit view reads f16 components of a uint8_t array (tensor loads: load_whole_component).
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
    uint32_t width = 32;     // the view's elements' bits: 32, or 16 (ushort data[])
};

// The word view of the descriptor `variable` (a StorageBuffer variable) is bound to; one per
// binding, made on first use. nullopt when the variable has no descriptor set or binding.
std::optional<uint32_t> binding_word_view(LoweringState& state, uint32_t variable);

// The view for elements of `element_type` reached through `base` and `indices` (member, element),
// nullopt unless `base` is a read-only descriptor whose last member is a runtime array of them. A
// view of `width` 16 needs the module to declare 16-bit storage-buffer access, else nullopt too.
std::optional<WordView> word_view(LoweringState& state, uint32_t base, std::span<const uint32_t> indices,
                                  uint32_t element_type, uint32_t width = 32);

// The component made of the shader's narrower array elements (`scalar_width` bits each) from element
// `index` on (a uint id), read with one load through `view`, whose elements are as wide as the
// component. It must lie at a multiple of its size in the buffer: a tensor load's pointer is 16-byte
// aligned (SPV_NV_cooperative_matrix2), so llama.cpp's flash attention's f16 and f32 elements in
// uint8_t arrays are, where reading them a byte at a time took a load per byte. A whole component
// read is inside the buffer wherever its bytes are (a word holding an f16 need not be).
uint32_t load_whole_component(LoweringState& state, ir::Builder& builder, const WordView& view, uint32_t index,
                              uint32_t scalar_width, const ComponentInfo& component);

// The component at element index `index` (a uint id) of the shader's array, read through `view`.
uint32_t load_through_word_view(LoweringState& state, ir::Builder& builder, const WordView& view, uint32_t index,
                                const ComponentInfo& component);

// The 32 / width components of the word whose first component is element `index` (a uint id; the
// caller knows that index + first_element is a multiple of 32 / width), in element order: one load.
std::vector<uint32_t> load_word_through_view(LoweringState& state, ir::Builder& builder, const WordView& view, uint32_t index,
                                             const ComponentInfo& component);

}  // namespace vkpolyfill::lowering::cooperative_matrix
