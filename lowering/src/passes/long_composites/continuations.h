// SPV_INTEL_long_composites spreads one struct type or composite over its head instruction and the
// *ContinuedINTEL instructions right after it. This folds each continuation into its head, so the
// rest of the pass sees every struct and composite as one (possibly over-long) instruction.
#pragma once

#include <cstdint>
#include <vector>

#include "diagnostics.h"
#include "ir/module.h"
#include "ir/type_manager.h"

namespace vkpolyfill::lowering::long_composites {

// Returns false after reporting a continuation that does not directly follow its head (or another
// continuation of it). `merged_composites` gets the result id of every composite that had continuations.
bool merge_continuations(ir::Module& module, ir::TypeManager& types, Diagnostics& diagnostics,
                         std::vector<uint32_t>& merged_composites);

}  // namespace vkpolyfill::lowering::long_composites
