// Where f16 data crosses between memory (laid out: 16 bits wide; plain workgroup memory: 16-bit
// integers, where the device has them) and registers (held as f32): loads convert after reading,
// stores before writing, piece by piece for structs, arrays and matrices (16-bit storage converts
// scalars and vectors only); logical copies between types that widened to one become plain copies. Run after the module's ids were remapped to the widened types, so a load's result type
// is already the register type.
#pragma once

#include <cstdint>
#include <unordered_map>

#include "diagnostics.h"
#include "ir/module.h"
#include "ir/type_manager.h"
#include "passes/float16/widened_types.h"

namespace vkpolyfill::lowering::float16 {

// `original_types`: each value's type before the remap (which tells a pointer into workgroup memory
// holding f16 bits from one at the module's own 16-bit integers of the same type).
void convert_memory_accesses(ir::Module& module, ir::TypeManager& types, WidenedTypes& widths,
                             const std::unordered_map<uint32_t, uint32_t>& original_types, Diagnostics& diagnostics);

}  // namespace vkpolyfill::lowering::float16
