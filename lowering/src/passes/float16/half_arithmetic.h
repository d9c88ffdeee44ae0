// f16 arithmetic done in f32: every operation whose result was an f16 gets rounded to f16 right after
// (OpQuantizeToF16), so values stay what f16 arithmetic would give, subnormals aside; conversions
// to and from f16 become roundings and copies; bit casts go through packHalf2x16 / unpackHalf2x16.
// Run after the module's ids were remapped to the widened types.
#pragma once

#include <cstdint>
#include <unordered_map>

#include "diagnostics.h"
#include "ir/module.h"
#include "ir/type_manager.h"
#include "passes/float16/widened_types.h"

namespace vkpolyfill::lowering::float16 {

// `original_types`: each result id's type before the remap.
void round_half_arithmetic(ir::Module& module, ir::TypeManager& types, WidenedTypes& widths,
                           const std::unordered_map<uint32_t, uint32_t>& original_types, Diagnostics& diagnostics);

}  // namespace vkpolyfill::lowering::float16
