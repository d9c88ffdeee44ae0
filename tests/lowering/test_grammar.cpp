// The generated grammar tables and their lookups.
#include <gtest/gtest.h>

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.hpp>

#include "emulated_sets.h"
#include "grammar/grammar.h"

namespace vkpolyfill::lowering::test {
namespace {

using grammar::OperandKind;

TEST(Grammar, InstructionsByNumber) {
    const grammar::InstructionInfo* load = grammar::find_instruction(spv::OpLoad);
    ASSERT_NE(load, nullptr);
    EXPECT_EQ(load->name, "OpLoad");
    EXPECT_TRUE(load->has_result_type);
    EXPECT_TRUE(load->has_result);
    ASSERT_EQ(load->operands.size(), 4u);
    EXPECT_EQ(load->operands[3].kind, OperandKind::MemoryAccess);
    EXPECT_EQ(load->operands[3].quantifier, grammar::Quantifier::Optional);

    const grammar::InstructionInfo* store = grammar::find_instruction(spv::OpStore);
    ASSERT_NE(store, nullptr);
    EXPECT_FALSE(store->has_result);
    EXPECT_EQ(grammar::find_instruction(spv::OpTypeForwardPointer)->has_result, false);
    EXPECT_EQ(grammar::find_instruction(spv::OpTypeInt)->instruction_class, grammar::InstructionClass::TypeDeclaration);

    // One entry per number: the NV alias of OpCooperativeMatrixReduceEXT is the same instruction.
    EXPECT_EQ(grammar::find_instruction(spv::OpCooperativeMatrixReduceNV), grammar::find_instruction(5366));
    EXPECT_EQ(grammar::find_instruction(0xFFFF), nullptr);
    EXPECT_EQ(grammar::find_instruction(0x7FFFFFFF), nullptr);
    EXPECT_EQ(grammar::opcode_name(spv::OpCooperativeMatrixMulAddKHR), "OpCooperativeMatrixMulAddKHR");
}

TEST(Grammar, OperandKindsAndEnumerants) {
    EXPECT_EQ(grammar::operand_kind(OperandKind::IdRef).category, grammar::Category::Id);
    EXPECT_EQ(grammar::operand_kind(OperandKind::LiteralString).category, grammar::Category::Literal);
    EXPECT_EQ(grammar::operand_kind(OperandKind::Capability).category, grammar::Category::ValueEnum);
    EXPECT_EQ(grammar::operand_kind(OperandKind::ImageOperands).category, grammar::Category::BitEnum);
    const auto& pair = grammar::operand_kind(OperandKind::PairLiteralIntegerIdRef);
    EXPECT_EQ(pair.category, grammar::Category::Composite);
    ASSERT_EQ(pair.bases.size(), 2u);
    EXPECT_EQ(pair.bases[0], OperandKind::LiteralInteger);
    EXPECT_EQ(pair.bases[1], OperandKind::IdRef);

    const grammar::EnumerantInfo* aligned =
        grammar::find_enumerant(OperandKind::MemoryAccess, spv::MemoryAccessAlignedMask);
    ASSERT_NE(aligned, nullptr);
    EXPECT_EQ(aligned->name, "Aligned");
    ASSERT_EQ(aligned->parameters.size(), 1u);
    EXPECT_EQ(aligned->parameters[0].kind, OperandKind::LiteralInteger);
    EXPECT_EQ(grammar::find_enumerant(OperandKind::FPEncoding, spv::FPEncodingFloat8E4M3EXT)->name, "Float8E4M3EXT");
    EXPECT_EQ(grammar::find_enumerant(OperandKind::Capability, 0xFFFFFF), nullptr);
    EXPECT_EQ(grammar::capability_name(spv::CapabilityCooperativeMatrixKHR), "CooperativeMatrixKHR");
    EXPECT_EQ(grammar::capability_name(0xFFFFFF), "");
}

TEST(Grammar, ExtendedInstructionSets) {
    const grammar::ExtInstSetInfo* glsl = grammar::find_ext_inst_set("GLSL.std.450");
    ASSERT_NE(glsl, nullptr);
    EXPECT_FALSE(glsl->non_semantic);
    const grammar::ExtInstInfo* fma = grammar::find_ext_inst(*glsl, GLSLstd450Fma);
    ASSERT_NE(fma, nullptr);
    EXPECT_EQ(fma->name, "Fma");
    EXPECT_EQ(fma->operands.size(), 3u);
    EXPECT_EQ(grammar::find_ext_inst(*glsl, 9999), nullptr);

    const grammar::ExtInstSetInfo* debug = grammar::find_ext_inst_set("NonSemantic.Shader.DebugInfo.100");
    ASSERT_NE(debug, nullptr);
    EXPECT_TRUE(debug->non_semantic);
    EXPECT_NE(grammar::find_ext_inst(*debug, 1), nullptr);  // DebugCompilationUnit
    EXPECT_NE(grammar::find_ext_inst_set("OpenCL.std"), nullptr);
    EXPECT_NE(grammar::find_ext_inst_set("NonSemantic.ClspvReflection.6"), nullptr);  // versioned name

    const grammar::ExtInstSetInfo* unknown = grammar::find_ext_inst_set("NonSemantic.Vendor.Thing");
    ASSERT_NE(unknown, nullptr);
    EXPECT_TRUE(unknown->non_semantic);
    EXPECT_TRUE(unknown->instructions.empty());
    EXPECT_EQ(grammar::find_ext_inst_set("Vendor.Thing"), nullptr);
}

// The emulated sets name capabilities and extensions the grammar knows: a typo would never match.
// A set of a core capability (Float16) has no extension to be named after.
TEST(Grammar, EmulatedSetsNameRealCapabilitiesAndExtensions) {
    for (const EmulatedSetInfo& set : emulated_sets()) {
        SCOPED_TRACE(set.name);
        EXPECT_EQ(grammar::is_known_extension(set.name), !set.extensions.empty());
        for (std::string_view extension : set.extensions) EXPECT_TRUE(grammar::is_known_extension(extension));
        for (uint32_t capability : set.capabilities) EXPECT_NE(grammar::capability_name(capability), "");
    }
    EXPECT_FALSE(grammar::is_known_extension("SPV_VENDOR_nothing"));
}

}  // namespace
}  // namespace vkpolyfill::lowering::test
