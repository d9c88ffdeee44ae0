// The SPV_INTEL_long_composites pass: struct types and composites spread over *ContinuedINTEL
// instructions become core SPIR-V. What fits SPIR-V's universal limits once merged (16,383 struct
// members, 65,535 words an instruction) is merged into one instruction; what does not is split into
// nested structs and arrays (split_type.h), with every use rewritten and explicit layouts kept to the byte.
#pragma once

#include <memory>

#include "passes/pass.h"

namespace vkpolyfill::lowering {

std::unique_ptr<Pass> make_long_composites_pass();

}  // namespace vkpolyfill::lowering
