// The workgroup size a compute module runs with, as the lowering needs it (how many subgroups
// share shared memory, how a workgroup-scope matrix is spread): from the WorkgroupSize built-in if
// the module has one, else LocalSizeId or LocalSize. Specialization constants it depends on are
// frozen to the pipeline's values.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "diagnostics.h"
#include "ir/module.h"
#include "vkpolyfill/lowering/lower.h"

namespace vkpolyfill::lowering {

// nullopt after reporting why the size is not known.
std::optional<std::array<uint32_t, 3>> workgroup_size(ir::Module& module, std::span<const SpecializationValue> values,
                                                       Diagnostics& diagnostics);

}  // namespace vkpolyfill::lowering
