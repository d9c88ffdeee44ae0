// sort_types_values_constants restores "defined before used" after a pass: dependencies first, on a
// stack of its own (non-semantic instructions may name later ids, so a chain of them is as deep as the
// section is long; 60,000 links overflowed the native stack).
#include <gtest/gtest.h>

#include <spirv/unified1/spirv.hpp>
#include <string>
#include <unordered_set>

#include "ir/parser.h"
#include "ir/type_order.h"
#include "spirv_text.h"

namespace vkpolyfill::lowering::test {
namespace {

TEST(TypeOrder, AChainOfForwardNamesLongerThanTheStackIsSortedDependenciesFirst) {
    constexpr int kLinks = 200000;
    std::string text = R"(OpCapability Shader
OpExtension "SPV_KHR_non_semantic_info"
%ns = OpExtInstImport "NonSemantic.Chain"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
)";
    for (int i = 0; i < kLinks; ++i) text += "%e" + std::to_string(i) + " = OpExtInst %void %ns 1 %e" + std::to_string(i + 1) + "\n";
    text += "%e" + std::to_string(kLinks) + " = OpExtInst %void %ns 1\n";
    text += "%main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n";
    Diagnostics diagnostics;
    const auto module = ir::parse(assemble(text), diagnostics);
    ASSERT_NE(module, nullptr);

    ir::sort_types_values_constants(*module);
    std::unordered_set<uint32_t> defined;
    size_t forward = 0;
    for (const auto& instruction : module->types_values_constants) {
        if (instruction->opcode() == spv::OpExtInst && instruction->words().size() > 5) {
            forward += !defined.contains(instruction->word(5));
        }
        defined.insert(instruction->result_id());
    }
    EXPECT_EQ(module->types_values_constants.size(), kLinks + 3u);
    EXPECT_EQ(forward, 0u) << "instructions naming ids defined after them";
}

}  // namespace
}  // namespace vkpolyfill::lowering::test
