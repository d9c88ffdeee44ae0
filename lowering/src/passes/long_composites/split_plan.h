// Which types the pass must split, and how: every struct of more than 16,383 members, and the array
// type of every composite of more than 65,532 constituents. Checks on the way that each composite the
// continuations spelled out has exactly one constituent per member or element of its type.
#pragma once

#include <span>

#include "passes/long_composites/split_type.h"
#include "passes/pass.h"

namespace vkpolyfill::lowering::long_composites {

// `merged_composites`: the result ids of composites that had continuations. Errors go to
// context.diagnostics (the returned plan is then incomplete).
SplitTypes plan_splits(PassContext& context, std::span<const uint32_t> merged_composites);

}  // namespace vkpolyfill::lowering::long_composites
