// cooperative_matrix2_use(): what of SPV_NV_cooperative_matrix2 a module uses, from glslang's output.
#include <gtest/gtest.h>

#include <filesystem>

#include "spirv_corpus.h"
#include "vkpolyfill/lowering/cooperative_matrix.h"

namespace vkpolyfill::lowering {
namespace {

using test::read_spirv;

CooperativeMatrix2Use use_of(const char* shader) {
    const std::vector<uint32_t> words = read_spirv(std::filesystem::path(VKPOLYFILL_SHADER_DIR) / shader);
    const std::optional<CooperativeMatrix2Use> use = cooperative_matrix2_use(words);
    if (!use) ADD_FAILURE() << shader << " was not read";
    return use.value_or(CooperativeMatrix2Use{});
}

TEST(CooperativeMatrix2Use, SubgroupOperationsNeedTheirFeatureBits) {
    const CooperativeMatrix2Use all = use_of("tests/coopmat2/subgroup_ops.comp.spv");
    EXPECT_FALSE(all.workgroup_scope);
    EXPECT_TRUE(all.reductions);
    EXPECT_TRUE(all.conversions);
    EXPECT_TRUE(all.per_element_operations);
    EXPECT_FALSE(all.tensor_addressing || all.block_loads || all.other);

    const CooperativeMatrix2Use elementwise = use_of("tests/coopmat2/subgroup_elementwise.comp.spv");
    EXPECT_FALSE(elementwise.reductions);
    EXPECT_TRUE(elementwise.per_element_operations);
    EXPECT_FALSE(elementwise.workgroup_scope);
}

TEST(CooperativeMatrix2Use, WorkgroupScopeIsSeenInTheMatrixTypes) {
    EXPECT_TRUE(use_of("tests/coopmat2/workgroup_attention.comp.spv").workgroup_scope);
    // KHR-only modules are subgroup scope and need no feature bit of the extension.
    const CooperativeMatrix2Use khr = use_of("tests/coopmat/muladd_f16_f32.comp.spv");
    EXPECT_FALSE(khr.workgroup_scope || khr.reductions || khr.conversions || khr.per_element_operations);
}

TEST(CooperativeMatrix2Use, ModulesTooBrokenToReadGiveNothing) {
    const std::vector<uint32_t> words = read_spirv(std::filesystem::path(VKPOLYFILL_SHADER_DIR) /
                                                         "tests/coopmat2/subgroup_ops.comp.spv");
    ASSERT_GT(words.size(), 5u);
    // The header, then an instruction that says it is longer than what is left.
    std::vector<uint32_t> cut(words.begin(), words.begin() + 5);
    cut.push_back((100u << 16) | 17u);  // OpCapability of 100 words
    EXPECT_FALSE(cooperative_matrix2_use(cut).has_value());
    cut.back() = 17u;  // of 0 words
    EXPECT_FALSE(cooperative_matrix2_use(cut).has_value());
    const uint32_t not_spirv[] = {0x12345678u, words[1], words[2], words[3], words[4], (2u << 16) | 17u, 1u};
    EXPECT_FALSE(cooperative_matrix2_use(not_spirv).has_value());
}

}  // namespace
}  // namespace vkpolyfill::lowering
