// Indexes into split types: each original index into one becomes two, the outer member and the index
// inside its chunk (a dynamic array index divided by the chunk length, its remainder inside). Walked
// and rewritten: access chains (typed and untyped, with constant and dynamic indexes),
// OpCompositeExtract and OpCompositeInsert (also as OpSpecConstantOp) and OpArrayLength's member.
// OpCopyLogical is checked: it needs both sides split alike.
#pragma once

#include "diagnostics.h"
#include "ir/module.h"
#include "ir/type_manager.h"
#include "passes/long_composites/split_type.h"

namespace vkpolyfill::lowering::long_composites {

// Runs on the original declarations (before replace_split_types); reports what it cannot rewrite.
bool rewrite_indexes(ir::Module& module, ir::TypeManager& types, const SplitTypes& splits, Diagnostics& diagnostics);

}  // namespace vkpolyfill::lowering::long_composites
