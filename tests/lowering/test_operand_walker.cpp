// The grammar-driven operand walker: against SPIRV-Tools' own binary parser on every corpus module,
// and on hand-made instructions for each operand shape the grammar has.
#include <gtest/gtest.h>

#include <map>
#include <spirv-tools/libspirv.h>
#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.hpp>
#include <tuple>

#include "ir/operand_walker.h"
#include "ir/parser.h"
#include "spirv_corpus.h"

namespace vkpolyfill::lowering::test {
namespace {

using grammar::OperandKind;

// (absolute word offset, word count, is an id) for every operand of a module.
using OperandLayout = std::vector<std::tuple<size_t, size_t, bool>>;

bool is_spirv_tools_id(spv_operand_type_t type) {
    switch (type) {
        case SPV_OPERAND_TYPE_ID:
        case SPV_OPERAND_TYPE_TYPE_ID:
        case SPV_OPERAND_TYPE_RESULT_ID:
        case SPV_OPERAND_TYPE_MEMORY_SEMANTICS_ID:
        case SPV_OPERAND_TYPE_SCOPE_ID:
        case SPV_OPERAND_TYPE_OPTIONAL_ID:
        case SPV_OPERAND_TYPE_VARIABLE_ID:
            return true;
        default:
            return false;
    }
}

// The independent reference: what spvBinaryParse reports.
OperandLayout spirv_tools_layout(const std::vector<uint32_t>& words) {
    struct State {
        const uint32_t* begin;
        OperandLayout layout;
    } state{words.data(), {}};
    const auto on_instruction = [](void* user, const spv_parsed_instruction_t* instruction) {
        auto& s = *static_cast<State*>(user);
        const size_t base = static_cast<size_t>(instruction->words - s.begin);
        for (uint16_t i = 0; i < instruction->num_operands; ++i) {
            const spv_parsed_operand_t& operand = instruction->operands[i];
            s.layout.emplace_back(base + operand.offset, operand.num_words, is_spirv_tools_id(operand.type));
        }
        return SPV_SUCCESS;
    };
    spv_context context = spvContextCreate(SPV_ENV_UNIVERSAL_1_6);
    const spv_result_t result =
        spvBinaryParse(context, &state, words.data(), words.size(), nullptr, on_instruction, nullptr);
    spvContextDestroy(context);
    EXPECT_EQ(result, SPV_SUCCESS);
    return state.layout;
}

OperandLayout walker_layout(const ir::Module& module) {
    OperandLayout layout;
    std::vector<ir::Operand> operands;
    module.for_each_instruction([&](const ir::Instruction& instruction) {
        EXPECT_EQ(ir::walk_operands(instruction.words(), module, operands), "");
        for (const ir::Operand& operand : operands) {
            layout.emplace_back(instruction.source_offset() + operand.first_word, operand.word_count,
                                ir::is_id(operand.kind));
        }
    });
    return layout;
}

TEST(OperandWalker, MatchesSpirvToolsOnEveryCorpusModule) {
    ASSERT_FALSE(corpus().empty());
    for (const CorpusModule& corpus_module : corpus()) {
        SCOPED_TRACE(corpus_module.name);
        Diagnostics diagnostics;
        const auto module = ir::parse(corpus_module.words, diagnostics);
        ASSERT_NE(module, nullptr);
        const OperandLayout expected = spirv_tools_layout(corpus_module.words);
        const OperandLayout actual = walker_layout(*module);
        ASSERT_EQ(actual.size(), expected.size());
        for (size_t i = 0; i < expected.size(); ++i) {
            ASSERT_EQ(actual[i], expected[i]) << "operand " << i << " at word " << std::get<0>(expected[i]);
        }
    }
}

// Answers for hand-made instructions: %1 is a 32-bit int, %2 a 64-bit int, %3 a 16-bit float,
// %9 GLSL.std.450, %10 an unknown NonSemantic set; %20 and %21 are values of type %2 / %1.
class FakeContext final : public ir::OperandContext {
  public:
    uint32_t literal_word_count(uint32_t type_id) const override {
        static const std::map<uint32_t, uint32_t> kWords{{1, 1}, {2, 2}, {3, 1}};
        const auto it = kWords.find(type_id);
        return it != kWords.end() ? it->second : 0;
    }
    uint32_t type_of(uint32_t id) const override { return id == 20 ? 2 : id == 21 ? 1 : 0; }
    const grammar::ExtInstSetInfo* ext_inst_set(uint32_t set_id) const override {
        if (set_id == 9) return grammar::find_ext_inst_set("GLSL.std.450");
        if (set_id == 10) return grammar::find_ext_inst_set("NonSemantic.Vendor.Thing.1");
        return nullptr;
    }
};

std::vector<uint32_t> instruction(uint32_t opcode, std::vector<uint32_t> operands) {
    operands.insert(operands.begin(), static_cast<uint32_t>(operands.size() + 1) << 16 | opcode);
    return operands;
}

struct Expected {
    OperandKind kind;
    uint32_t first_word;
    uint32_t word_count;
    bool operator==(const ir::Operand& o) const {
        return kind == o.kind && first_word == o.first_word && word_count == o.word_count;
    }
};

void expect_operands(const std::vector<uint32_t>& words, const std::vector<Expected>& expected) {
    std::vector<ir::Operand> operands;
    ASSERT_EQ(ir::walk_operands(words, FakeContext{}, operands), "");
    ASSERT_EQ(operands.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
        EXPECT_TRUE(expected[i] == operands[i])
            << "operand " << i << ": " << grammar::operand_kind(operands[i].kind).name << " at "
            << operands[i].first_word << " x" << operands[i].word_count;
    }
}

std::string walk_error(const std::vector<uint32_t>& words) {
    std::vector<ir::Operand> operands;
    return ir::walk_operands(words, FakeContext{}, operands);
}

TEST(OperandWalker, MemoryAccessParametersFollowTheMaskInBitOrder) {
    // OpStore %5 %6 Aligned|MakePointerAvailable 16 %7: the alignment (bit 1) before the scope (bit 3).
    const uint32_t mask = spv::MemoryAccessAlignedMask | spv::MemoryAccessMakePointerAvailableMask;
    expect_operands(instruction(spv::OpStore, {5, 6, mask, 16, 7}),
                    {{OperandKind::IdRef, 1, 1},
                     {OperandKind::IdRef, 2, 1},
                     {OperandKind::MemoryAccess, 3, 1},
                     {OperandKind::LiteralInteger, 4, 1},
                     {OperandKind::IdScope, 5, 1}});
}

TEST(OperandWalker, ImageOperandsWithSeveralParameters) {
    const uint32_t mask = spv::ImageOperandsGradMask | spv::ImageOperandsConstOffsetMask;
    expect_operands(instruction(spv::OpImageSampleExplicitLod, {1, 30, 31, 32, mask, 33, 34, 35}),
                    {{OperandKind::IdResultType, 1, 1},
                     {OperandKind::IdResult, 2, 1},
                     {OperandKind::IdRef, 3, 1},
                     {OperandKind::IdRef, 4, 1},
                     {OperandKind::ImageOperands, 5, 1},
                     {OperandKind::IdRef, 6, 1},
                     {OperandKind::IdRef, 7, 1},
                     {OperandKind::IdRef, 8, 1}});
}

TEST(OperandWalker, ContextDependentLiteralsTakeTheirTypesWidth) {
    expect_operands(instruction(spv::OpConstant, {2, 40, 0xFFFFFFFF, 0x7FFFFFFF}),
                    {{OperandKind::IdResultType, 1, 1},
                     {OperandKind::IdResult, 2, 1},
                     {OperandKind::LiteralContextDependentNumber, 3, 2}});
    expect_operands(instruction(spv::OpConstant, {3, 41, 0x3C00}),
                    {{OperandKind::IdResultType, 1, 1},
                     {OperandKind::IdResult, 2, 1},
                     {OperandKind::LiteralContextDependentNumber, 3, 1}});
    EXPECT_NE(walk_error(instruction(spv::OpConstant, {2, 40, 1})), "");  // 64-bit value needs 2 words
    EXPECT_NE(walk_error(instruction(spv::OpConstant, {99, 40, 1})), "");  // not a numeric type
}

TEST(OperandWalker, SwitchCaseLiteralsAreAsWideAsTheSelector) {
    // OpSwitch %20 (64-bit) default %50, case 5 -> %51, case 1<<32 -> %52.
    expect_operands(instruction(spv::OpSwitch, {20, 50, 5, 0, 51, 0, 1, 52}),
                    {{OperandKind::IdRef, 1, 1},
                     {OperandKind::IdRef, 2, 1},
                     {OperandKind::LiteralInteger, 3, 2},
                     {OperandKind::IdRef, 5, 1},
                     {OperandKind::LiteralInteger, 6, 2},
                     {OperandKind::IdRef, 8, 1}});
    expect_operands(instruction(spv::OpSwitch, {21, 50, 5, 51}),
                    {{OperandKind::IdRef, 1, 1},
                     {OperandKind::IdRef, 2, 1},
                     {OperandKind::LiteralInteger, 3, 1},
                     {OperandKind::IdRef, 4, 1}});
}

TEST(OperandWalker, SpecConstantOpWalksTheEmbeddedOpcode) {
    expect_operands(instruction(spv::OpSpecConstantOp, {1, 42, spv::OpIAdd, 43, 44}),
                    {{OperandKind::IdResultType, 1, 1},
                     {OperandKind::IdResult, 2, 1},
                     {OperandKind::LiteralSpecConstantOpInteger, 3, 1},
                     {OperandKind::IdRef, 4, 1},
                     {OperandKind::IdRef, 5, 1}});
    expect_operands(instruction(spv::OpSpecConstantOp, {1, 42, spv::OpCompositeExtract, 43, 0, 2}),
                    {{OperandKind::IdResultType, 1, 1},
                     {OperandKind::IdResult, 2, 1},
                     {OperandKind::LiteralSpecConstantOpInteger, 3, 1},
                     {OperandKind::IdRef, 4, 1},
                     {OperandKind::LiteralInteger, 5, 1},
                     {OperandKind::LiteralInteger, 6, 1}});
    EXPECT_NE(walk_error(instruction(spv::OpSpecConstantOp, {1, 42, spv::OpStore, 43, 44})), "");
    // An operation that would pick its own layout again: refused, not recursed into.
    std::vector<uint32_t> nested(1000, spv::OpSpecConstantOp);
    nested[0] = 1;
    nested[1] = 42;
    EXPECT_NE(walk_error(instruction(spv::OpSpecConstantOp, nested)), "");
    EXPECT_NE(walk_error(instruction(spv::OpSpecConstantOp, {1, 42, spv::OpExtInst, 9, GLSLstd450Sqrt, 43})), "");
}

TEST(OperandWalker, ExtInstOperandsComeFromTheSetsGrammar) {
    expect_operands(instruction(spv::OpExtInst, {1, 45, 9, GLSLstd450FMix, 46, 47, 48}),
                    {{OperandKind::IdResultType, 1, 1},
                     {OperandKind::IdResult, 2, 1},
                     {OperandKind::IdRef, 3, 1},
                     {OperandKind::LiteralExtInstInteger, 4, 1},
                     {OperandKind::IdRef, 5, 1},
                     {OperandKind::IdRef, 6, 1},
                     {OperandKind::IdRef, 7, 1}});
    EXPECT_NE(walk_error(instruction(spv::OpExtInst, {1, 45, 9, GLSLstd450FMix, 46, 47})), "");  // too few
    EXPECT_NE(walk_error(instruction(spv::OpExtInst, {1, 45, 9, 9999, 46})), "");                // no such
    EXPECT_NE(walk_error(instruction(spv::OpExtInst, {1, 45, 11, 1, 46})), "");                  // no set
    // An unknown non-semantic instruction: every operand an id.
    expect_operands(instruction(spv::OpExtInst, {1, 45, 10, 77, 46, 47}),
                    {{OperandKind::IdResultType, 1, 1},
                     {OperandKind::IdResult, 2, 1},
                     {OperandKind::IdRef, 3, 1},
                     {OperandKind::LiteralExtInstInteger, 4, 1},
                     {OperandKind::IdRef, 5, 1},
                     {OperandKind::IdRef, 6, 1}});
}

TEST(OperandWalker, StringsAndEnumParametersOfDecorations) {
    // OpDecorate %5 LinkageAttributes "fn" Export: a string parameter, then an enum parameter.
    expect_operands(instruction(spv::OpDecorate, {5, spv::DecorationLinkageAttributes, 0x00006e66, 0}),
                    {{OperandKind::IdRef, 1, 1},
                     {OperandKind::Decoration, 2, 1},
                     {OperandKind::LiteralString, 3, 1},
                     {OperandKind::LinkageType, 4, 1}});
    // A 4-byte string takes a second word for its nul.
    expect_operands(instruction(spv::OpExtension, {0x64636261, 0}), {{OperandKind::LiteralString, 1, 2}});
    EXPECT_NE(walk_error(instruction(spv::OpExtension, {0x64636261})), "");  // no nul
}

TEST(OperandWalker, CompositePairsComeAsTheirParts) {
    expect_operands(instruction(spv::OpPhi, {1, 60, 61, 62, 63, 64}),
                    {{OperandKind::IdResultType, 1, 1},
                     {OperandKind::IdResult, 2, 1},
                     {OperandKind::IdRef, 3, 1},
                     {OperandKind::IdRef, 4, 1},
                     {OperandKind::IdRef, 5, 1},
                     {OperandKind::IdRef, 6, 1}});
    expect_operands(instruction(spv::OpGroupMemberDecorate, {70, 71, 2}),
                    {{OperandKind::IdRef, 1, 1}, {OperandKind::IdRef, 2, 1}, {OperandKind::LiteralInteger, 3, 1}});
    EXPECT_NE(walk_error(instruction(spv::OpGroupMemberDecorate, {70, 71})), "");  // half a pair
}

TEST(OperandWalker, OptionalOperandsMayBeAbsent) {
    expect_operands(instruction(spv::OpTypeFloat, {80, 16}),
                    {{OperandKind::IdResult, 1, 1}, {OperandKind::LiteralInteger, 2, 1}});
    expect_operands(instruction(spv::OpTypeFloat, {80, 16, spv::FPEncodingBFloat16KHR}),
                    {{OperandKind::IdResult, 1, 1},
                     {OperandKind::LiteralInteger, 2, 1},
                     {OperandKind::FPEncoding, 3, 1}});
}

TEST(OperandWalker, ReportsWordsThatDoNotMatchTheGrammar) {
    EXPECT_NE(walk_error(instruction(spv::OpTypeInt, {80, 32})), "");                   // missing signedness
    EXPECT_NE(walk_error(instruction(spv::OpTypeVoid, {80, 1})), "");                    // a word too many
    EXPECT_NE(walk_error(instruction(spv::OpCapability, {0xFFFFFFu})), "");              // unknown capability
    EXPECT_NE(walk_error(instruction(spv::OpLoad, {1, 2, 3, 0x40000000u})), "");          // unknown mask bit
    EXPECT_NE(walk_error(instruction(spv::OpLoad, {1, 2, 3, spv::MemoryAccessAlignedMask})), "");  // no alignment
}

}  // namespace
}  // namespace vkpolyfill::lowering::test
