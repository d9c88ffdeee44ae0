// Looking up a decoration's literal (OpDecorate), for passes that need a type's layout, a variable's
// location or a constant's SpecId.
#pragma once

#include <cstdint>
#include <optional>

#include "ir/module.h"

namespace vkpolyfill::lowering::ir {

// The first literal of `decoration` on `target` (0 for a decoration without one), nullopt when it
// is not decorated so.
std::optional<uint32_t> find_decoration(const Module& module, uint32_t target, uint32_t decoration);

}  // namespace vkpolyfill::lowering::ir
