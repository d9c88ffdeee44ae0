// TypeManager finds what a module has, makes what it lacks, and what it makes survives emission,
// a second parse and spirv-val. The builder adds code that uses them.
#include <gtest/gtest.h>

#include <array>
#include <set>
#include <spirv/unified1/spirv.hpp>

#include "ir/builder.h"
#include "ir/parser.h"
#include "ir/type_manager.h"
#include "spirv_text.h"
#include "vkpolyfill/lowering/validate.h"

namespace vkpolyfill::lowering::test {
namespace {

constexpr uint32_t kVulkan13 = (1u << 22) | (3u << 12);

std::unique_ptr<ir::Module> parse_or_fail(const std::vector<uint32_t>& words) {
    Diagnostics diagnostics;
    auto module = ir::parse(words, diagnostics);
    EXPECT_NE(module, nullptr) << (diagnostics.list().empty() ? "" : diagnostics.list()[0].message);
    return module;
}

TEST(TypeManager, FindsTheModulesTypesAndConstants) {
    const auto module = parse_or_fail(assemble(kMinimalCompute));
    ASSERT_NE(module, nullptr);
    ir::TypeManager types(*module);
    EXPECT_EQ(types.find_type_void(), 2u);
    EXPECT_EQ(types.find_type_int(32, false), 4u);
    EXPECT_EQ(types.find_constant(4, std::array{7u}), 5u);
    EXPECT_EQ(types.find_type_function(2, {}), 3u);
    EXPECT_EQ(types.find_type_int(32, true), 0u);
    EXPECT_EQ(types.find_type_float(ir::kFloat32), 0u);
    EXPECT_EQ(types.find_constant(4, std::array{8u}), 0u);

    const uint32_t bound = module->header.bound;
    EXPECT_EQ(types.get_type_int(32, false), 4u);  // found, not made
    EXPECT_EQ(types.get_constant_uint32(7), 5u);
    EXPECT_EQ(module->header.bound, bound);
}

TEST(TypeManager, FloatsAreKeyedByWidthAndEncoding) {
    const auto module = parse_or_fail(assemble(kMinimalCompute));
    ASSERT_NE(module, nullptr);
    ir::TypeManager types(*module);
    const uint32_t half = types.get_type_float(ir::kFloat16);
    const uint32_t bfloat = types.get_type_float(ir::kBFloat16);
    const uint32_t e4m3 = types.get_type_float(ir::kFloat8E4M3);
    const uint32_t e5m2 = types.get_type_float(ir::kFloat8E5M2);
    EXPECT_EQ(std::set<uint32_t>({half, bfloat, e4m3, e5m2}).size(), 4u);
    EXPECT_EQ(types.get_type_float(ir::kBFloat16), bfloat);
    EXPECT_EQ(types.find_type_float(ir::kFloat8E5M2), e5m2);
    EXPECT_EQ(types.float_format(bfloat), ir::kBFloat16);
    EXPECT_EQ(types.float_format(half), ir::kFloat16);
    EXPECT_EQ(types.float_format(4), std::nullopt);  // an int
}

// Makes one of every kind of type and a few constants, then checks they come back from the words.
TEST(TypeManager, CreatedTypesSurviveEmissionAndValidate) {
    auto module = parse_or_fail(assemble(kMinimalCompute));
    ASSERT_NE(module, nullptr);
    module->add_capability(spv::CapabilityFloat16);
    module->add_capability(spv::CapabilityBFloat16TypeKHR);
    module->add_capability(spv::CapabilityFloat8EXT);
    module->add_capability(spv::CapabilityCooperativeMatrixKHR);
    module->add_capability(spv::CapabilityBFloat16CooperativeMatrixKHR);
    module->add_capability(spv::CapabilityVulkanMemoryModel);
    module->add_extension("SPV_KHR_bfloat16");
    module->add_extension("SPV_EXT_float8");
    module->add_extension("SPV_KHR_cooperative_matrix");
    module->memory_model.front()->set_word(2, spv::MemoryModelVulkan);

    ir::TypeManager types(*module);
    const uint32_t uint_type = types.get_type_int(32, false);
    const uint32_t half = types.get_type_float(ir::kFloat16);
    const uint32_t bfloat = types.get_type_float(ir::kBFloat16);
    const uint32_t e4m3 = types.get_type_float(ir::kFloat8E4M3);
    const uint32_t vec4 = types.get_type_vector(half, 4);
    const uint32_t four = types.get_constant_uint32(4);
    const uint32_t array = types.get_type_array(vec4, four);
    const uint32_t runtime_array = types.get_type_runtime_array(uint_type);
    const uint32_t members[] = {array, uint_type};
    const uint32_t structure = types.create_type_struct(members);
    const uint32_t pointer = types.get_type_pointer(spv::StorageClassFunction, structure);
    const uint32_t parameters[] = {pointer, uint_type};
    const uint32_t function = types.get_type_function(types.get_type_void(), parameters);
    const uint32_t subgroup = types.get_constant_uint32(spv::ScopeSubgroup);
    const uint32_t sixteen = types.get_constant_uint32(16);
    const uint32_t use_a = types.get_constant_uint32(spv::CooperativeMatrixUseMatrixAKHR);
    const ir::CooperativeMatrixType matrix{bfloat, subgroup, sixteen, sixteen, use_a};
    const uint32_t coopmat = types.get_type_cooperative_matrix(matrix);
    const uint32_t yes = types.get_constant_bool(true);
    const uint32_t null_vec4 = types.get_constant_null(vec4);
    const uint32_t fours[] = {four, four};
    const uint32_t uvec2 = types.get_type_vector(uint_type, 2);
    const uint32_t composite = types.get_constant_composite(uvec2, fours);

    // Same request, same id; a second struct of the same members is a new type.
    EXPECT_EQ(types.get_type_vector(half, 4), vec4);
    EXPECT_EQ(types.get_type_cooperative_matrix(matrix), coopmat);
    EXPECT_EQ(types.find_type_struct(members), structure);
    EXPECT_NE(types.create_type_struct(members), structure);

    // The builder uses some of them in main's block, before OpReturn.
    ir::BasicBlock& block = module->functions.front()->blocks.front();
    ir::Builder builder(*module, block, block.instructions.size() - 1);
    const uint32_t sum = builder.add(spv::OpIAdd, uint_type, {four, sixteen});
    builder.add(spv::OpCompositeConstruct, uvec2, {sum, sum});
    EXPECT_EQ(builder.position(), block.instructions.size() - 1);

    const auto words = module->to_words();
    EXPECT_EQ(validate(words, kVulkan13), "");
    const auto reparsed = parse_or_fail(words);
    ASSERT_NE(reparsed, nullptr);
    EXPECT_EQ(reparsed->to_words(), words);
    ir::TypeManager found(*reparsed);
    EXPECT_EQ(found.find_type_float(ir::kFloat8E4M3), e4m3);
    EXPECT_EQ(found.find_type_array(vec4, four), array);
    EXPECT_EQ(found.find_type_runtime_array(uint_type), runtime_array);
    EXPECT_EQ(found.find_type_struct(members), structure);
    EXPECT_EQ(found.find_type_pointer(spv::StorageClassFunction, structure), pointer);
    EXPECT_EQ(found.find_type_function(found.find_type_void(), parameters), function);
    EXPECT_EQ(found.find_type_cooperative_matrix(matrix), coopmat);
    EXPECT_EQ(found.find_constant_null(vec4), null_vec4);
    EXPECT_EQ(found.find_constant_composite(uvec2, fours), composite);
    EXPECT_EQ(found.get_constant_bool(true), yes);
}

TEST(TypeManager, SpecializationConstantsAreNeverHandedOut) {
    const auto module = parse_or_fail(assemble(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
%1 = OpTypeInt 32 0
%2 = OpSpecConstant %1 7
)"));
    ASSERT_NE(module, nullptr);
    ir::TypeManager types(*module);
    EXPECT_EQ(types.find_constant(1, std::array{7u}), 0u);
    EXPECT_NE(types.get_constant_uint32(7), 2u);
}

// A decorated array or struct is not handed out (its layout would follow a pass's use of it); a
// decorated scalar is, since SPIR-V allows one declaration of it (a second OpTypeFloat 16 is invalid).
TEST(TypeManager, DecoratedTypesAreHandedOutOnlyWhereTheyMayBeDeclaredAgain) {
    const auto module = parse_or_fail(assemble(R"(
OpCapability Shader
OpCapability Float16
OpMemoryModel Logical GLSL450
OpDecorate %1 NoContraction
OpDecorate %4 ArrayStride 4
%1 = OpTypeFloat 16
%2 = OpTypeInt 32 0
%3 = OpConstant %2 2
%4 = OpTypeArray %2 %3
)"));
    ASSERT_NE(module, nullptr);
    ir::TypeManager types(*module);
    EXPECT_EQ(types.find_type_float(ir::kFloat16), 1u);
    EXPECT_EQ(types.find_type_array(2, 3), 0u);
}

}  // namespace
}  // namespace vkpolyfill::lowering::test
