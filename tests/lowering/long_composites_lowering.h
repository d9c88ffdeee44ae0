// What the long-composites lowering tests share: the target that emulates the set, the opening of a
// module that declares it, and lowering that must fail with one clear error.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "diagnostic_text.h"
#include "vkpolyfill/lowering/lower.h"

namespace vkpolyfill::lowering::test {

inline constexpr std::string_view kLongCompositesHeader = R"(
OpCapability Shader
OpCapability LongCompositesINTEL
OpExtension "SPV_INTEL_long_composites"
OpMemoryModel Logical GLSL450
)";

Target emulating_long_composites();

// The error lowering `words` gives; the test fails unless it is the only diagnostic.
Diagnostic lowering_error(const std::vector<uint32_t>& words);

}  // namespace vkpolyfill::lowering::test
