#include "long_composites_lowering.h"

#include <gtest/gtest.h>

namespace vkpolyfill::lowering::test {

Target emulating_long_composites() {
    Target target;
    target.emulate = bit(Emulated::IntelLongComposites);
    return target;
}

Diagnostic lowering_error(const std::vector<uint32_t>& words) {
    const Result result = lower(words, emulating_long_composites(), {});
    EXPECT_FALSE(result.ok);
    EXPECT_EQ(result.diagnostics.size(), 1u) << messages(result);
    return result.diagnostics.empty() ? Diagnostic{} : result.diagnostics[0];
}

}  // namespace vkpolyfill::lowering::test
