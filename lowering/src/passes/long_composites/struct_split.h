// Grouping the members of a struct with more than 16,383 of them into chunk structs of at most that
// many. Where the struct has an explicit layout (Offset decorations: an interface block, or a struct
// inside one), every member must stay at its byte offset, so a chunk may only start where a nested
// struct can: see struct_split.cpp.
#pragma once

#include <optional>
#include <span>

#include "diagnostics.h"
#include "ir/module.h"
#include "passes/long_composites/split_type.h"

namespace vkpolyfill::lowering::long_composites {

// `offsets` holds each member's Offset decoration (empty when the struct has none). Chunk types are
// left for type_rewrite.h to make. Reports why and returns nullopt when no such grouping exists.
std::optional<SplitType> plan_struct_split(const ir::Module& module, const ir::Instruction& type,
                                           std::span<const std::optional<uint32_t>> offsets, Diagnostics& diagnostics);

}  // namespace vkpolyfill::lowering::long_composites
