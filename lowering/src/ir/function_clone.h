// A copy of a function with fresh ids, for a pass that must specialize a function per call site
// (a tensor parameter bound to different bindings, say). Names and decorations of the function's ids
// are copied to the clone's ids; instructions keep their source offsets, so diagnostics about the
// clone still point into the input.
#pragma once

#include <cstdint>

#include "ir/id_remap.h"

namespace vkpolyfill::lowering::ir {

// Adds the clone at the end of the module's functions and returns it; `ids` receives original id ->
// clone id for every result id in the function.
Function& clone_function(Module& module, const Function& function, IdMap& ids);

}  // namespace vkpolyfill::lowering::ir
