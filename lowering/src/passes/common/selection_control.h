// Selection control hints on the application's own code (Target::unflattened_selections).
#pragma once

#include "ir/module.h"

namespace vkpolyfill::lowering {

// Marks DontFlatten every selection construct of the module's entry-point functions that gives no
// control of its own (an application's Flatten or DontFlatten stays as it asked).
void keep_entry_point_selections(ir::Module& module);

}  // namespace vkpolyfill::lowering
