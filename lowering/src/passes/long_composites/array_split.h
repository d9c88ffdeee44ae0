// Splitting an array whose composites are too long for one instruction: T[N] becomes T[C][K], with
// element i at [i / C][i % C], so a dynamic index still reaches its element with a division.
#pragma once

#include <cstdint>
#include <optional>

#include "diagnostics.h"
#include "ir/module.h"
#include "passes/long_composites/split_type.h"

namespace vkpolyfill::lowering::long_composites {

// `length` is the array's element count; `has_stride` whether it has an ArrayStride decoration. Chunk
// types are left for type_rewrite.h to make. Reports why and returns nullopt when it cannot be split.
std::optional<SplitType> plan_array_split(const ir::Module& module, const ir::Instruction& type, uint32_t length,
                                          bool has_stride, Diagnostics& diagnostics);

}  // namespace vkpolyfill::lowering::long_composites
