// Where f16 data crosses between laid-out memory (16 bits wide) and registers (held as f32): loads
// convert after reading, stores before writing, piece by piece for structs, arrays and matrices (16-bit
// storage converts scalars and vectors only); logical copies between types that widened to one become
// plain copies. Run after the module's ids were remapped to the widened types, so a load's result type
// is already the register type.
#pragma once

#include "diagnostics.h"
#include "ir/module.h"
#include "ir/type_manager.h"
#include "passes/float16/widened_types.h"

namespace vkpolyfill::lowering::float16 {

void convert_memory_accesses(ir::Module& module, ir::TypeManager& types, WidenedTypes& widths, Diagnostics& diagnostics);

}  // namespace vkpolyfill::lowering::float16
