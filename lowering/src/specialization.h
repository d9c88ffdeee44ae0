// Specialization constants at lowering time: a lowering that needs a constant's value (a matrix's
// rows, a helper's array length) freezes it to the pipeline's value, so the output no longer lets
// that one be specialized; the others stay specialization constants.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "diagnostics.h"
#include "ir/module.h"
#include "vkpolyfill/lowering/lower.h"

namespace vkpolyfill::lowering {

// The value of a scalar integer or boolean constant instruction (OpConstant, OpSpecConstant with the
// pipeline's value or its default, OpSpecConstantOp folded), zero-extended to 64 bits; nullopt when
// it is not one or cannot be folded.
std::optional<uint64_t> evaluate_constant(const ir::Module& module, uint32_t id,
                                          std::span<const SpecializationValue> values);

// Rewrites `id` — and every specialization constant it is computed from — into a plain constant
// holding its value, and drops their SpecId decorations. Returns the value, or reports why not.
std::optional<uint64_t> freeze_constant(ir::Module& module, uint32_t id, std::span<const SpecializationValue> values,
                                        Diagnostics& diagnostics);

}  // namespace vkpolyfill::lowering
