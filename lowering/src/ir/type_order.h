// Restores "defined before used" in the types/constants/globals section after a pass rewrote
// definitions in place or added new ones at the end (SPIR-V 2.4 forbids forward references there,
// except to pointers declared by OpTypeForwardPointer).
#pragma once

#include "ir/module.h"

namespace vkpolyfill::lowering::ir {

// A stable topological sort: instructions keep their relative order unless a dependency must move
// ahead of them.
void sort_types_values_constants(Module& module);

}  // namespace vkpolyfill::lowering::ir
