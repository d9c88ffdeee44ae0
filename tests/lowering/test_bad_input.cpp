// The bad-input corpus (tests/bad_input/) through lower(): each module fails with the error its file
// names, on the instruction that breaks the rule, and nothing is half-lowered.
#include <gtest/gtest.h>

#include "corpus.h"
#include "spirv_text.h"
#include "vkpolyfill/lowering/lower.h"

namespace vkpolyfill::lowering::test {
namespace {

Target emulating_everything() {
    Target target;
    target.emulate = bit(Emulated::KhrCooperativeMatrix) | bit(Emulated::NvCooperativeMatrix2) | bit(Emulated::NvTensorAddressing) |
                     bit(Emulated::NvCooperativeMatrixDecodeVector) | bit(Emulated::ArmTensors) | bit(Emulated::ExtShaderTileImage) |
                     bit(Emulated::IntelLongComposites);
    target.subgroup_size = 8;
    target.max_shared_memory_bytes = 32768;
    return target;
}

TEST(BadInput, EveryModuleFailsWithItsErrorNamingTheInstruction) {
    const std::vector<vkpolyfill::test::BadInput> inputs =
        vkpolyfill::test::bad_inputs([](const std::string& text) { return assemble(text); });
    EXPECT_GE(inputs.size(), 16u);
    for (const vkpolyfill::test::BadInput& input : inputs) {
        SCOPED_TRACE(input.name + ": " + input.why);
        Options options;
        options.module_name = input.name;
        const Result result = lower(input.words, emulating_everything(), options);
        EXPECT_FALSE(result.ok);
        EXPECT_TRUE(result.words.empty());
        ASSERT_FALSE(result.diagnostics.empty());
        const Diagnostic& first = result.diagnostics.front();
        EXPECT_EQ(first.severity, Diagnostic::Severity::Error);
        EXPECT_NE(first.message.find(input.expect), std::string::npos) << first.message;
        if (!input.damaged) {
            EXPECT_NE(first.word_offset, ~0u) << first.message;
            EXPECT_FALSE(first.instruction.empty()) << first.message;
        }
        EXPECT_NE(format(first, input.name).find(input.name), std::string::npos);
    }
}

}  // namespace
}  // namespace vkpolyfill::lowering::test
