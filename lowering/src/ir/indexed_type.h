// What one access-chain or composite index leads to, through the type declarations.
#pragma once

#include <cstdint>
#include <optional>

#include "ir/module.h"

namespace vkpolyfill::lowering::ir {

// The type an index selects inside `type` (an element of an array, vector or matrix; a struct's
// member `index`, which must then be known), or 0 when there is no such type.
uint32_t indexed_type(const Module& module, uint32_t type, std::optional<uint64_t> index);

}  // namespace vkpolyfill::lowering::ir
