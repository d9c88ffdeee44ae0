// SPIR-V forbids two declarations of the same non-aggregate, non-pointer type (2.8). Replacing
// types (two cooperative-matrix types lowering to one array) can make two OpTypeFunction equal:
// this merges such duplicates into the first.
#pragma once

#include "ir/module.h"

namespace vkpolyfill::lowering::ir {

void merge_duplicate_types(Module& module);

}  // namespace vkpolyfill::lowering::ir
