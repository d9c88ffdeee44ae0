// merge_duplicate_types leaves one of each type that must be unique, including types built from
// duplicates, in one round over the section (two equal chains of function types, each level taking
// the one before, took a round and a whole-module remap per level: 50,000 levels ran for minutes).
#include <gtest/gtest.h>

#include <format>
#include <spirv/unified1/spirv.hpp>
#include <string>

#include "ir/parser.h"
#include "ir/type_dedup.h"
#include "spirv_text.h"

namespace vkpolyfill::lowering::test {
namespace {

TEST(TypeDedup, TypesBuiltFromDuplicatesMergeWithThem) {
    constexpr int kLevels = 30000;
    std::string text = R"(OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%a0 = OpTypeVoid
%b0 = OpTypeVoid
)";
    for (const char* chain : {"a", "b"}) {
        for (int i = 1; i <= kLevels; ++i) text += std::format("%{0}{1} = OpTypeFunction %{0}0 %{0}{2}\n", chain, i, i - 1);
    }
    text += "%main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n";
    Diagnostics diagnostics;
    const auto module = ir::parse(assemble(text), diagnostics);
    ASSERT_NE(module, nullptr);

    ir::merge_duplicate_types(*module);
    size_t voids = 0, functions = 0;
    for (const auto& instruction : module->types_values_constants) {
        voids += instruction->opcode() == spv::OpTypeVoid;
        functions += instruction->opcode() == spv::OpTypeFunction;
    }
    EXPECT_EQ(voids, 1u);
    EXPECT_EQ(functions, kLevels + 1u);  // one chain and %fn
}

}  // namespace
}  // namespace vkpolyfill::lowering::test
