// SPV_INTEL_long_composites, part one: the parser keeps the *ContinuedINTEL instructions where they
// belong, the pass merges continuations whose composite fits one instruction, and malformed
// continuations (out of place, or a count that does not match the type) are reported clearly.
#include <gtest/gtest.h>

#include <spirv/unified1/spirv.hpp>

#include "ir/parser.h"
#include "long_composites_lowering.h"
#include "long_composites_modules.h"
#include "pass_runner.h"
#include "passes/pass.h"
#include "spirv_text.h"
#include "vkpolyfill/lowering/lower.h"
#include "vkpolyfill/lowering/validate.h"

namespace vkpolyfill::lowering::test {
namespace {

namespace modules = vkpolyfill::test::long_composites;

constexpr uint32_t kVulkan13 = (1u << 22) | (3u << 12);

// After kLongCompositesHeader: an empty compute entry point %1.
constexpr std::string_view kEntryPoint = "OpEntryPoint GLCompute %1 \"main\"\nOpExecutionMode %1 LocalSize 1 1 1\n";

bool is_continuation(uint32_t opcode) {
    return opcode == spv::OpTypeStructContinuedINTEL || opcode == spv::OpConstantCompositeContinuedINTEL ||
           opcode == spv::OpSpecConstantCompositeContinuedINTEL || opcode == spv::OpCompositeConstructContinuedINTEL;
}

size_t count_opcode(const std::vector<uint32_t>& words, uint32_t opcode) {
    size_t count = 0;
    while (find_opcode(words, opcode, count)) ++count;
    return count;
}

TEST(LongCompositesParsing, ContinuationsStayInTheirSectionsAndRoundTrip) {
    for (const char* name : {"fits", "struct", "table", "construct", "spec"}) {
        SCOPED_TRACE(name);
        const std::vector<uint32_t> words = modules::read_module(name);
        ASSERT_FALSE(words.empty());
        Diagnostics diagnostics;
        const auto module = ir::parse(words, diagnostics);
        ASSERT_NE(module, nullptr) << diagnostics.list().front().message;
        EXPECT_EQ(module->to_words(), words);
    }
    Diagnostics diagnostics;
    const auto fits = ir::parse(modules::read_module("fits"), diagnostics);
    ASSERT_NE(fits, nullptr);
    size_t in_types = 0;
    for (const auto& instruction : fits->types_values_constants) in_types += is_continuation(instruction->opcode());
    EXPECT_EQ(in_types, 4u);  // two struct types, a constant, a specialization constant
    size_t in_blocks = 0;
    fits->functions.front()->for_each_instruction(
        [&](const ir::Instruction& i) { in_blocks += i.opcode() == spv::OpCompositeConstructContinuedINTEL; });
    EXPECT_EQ(in_blocks, 1u);
}

// Type and constant continuations belong with the types; construct continuations in a block.
TEST(LongCompositesParsing, ContinuationsOutsideTheirSectionAreRejected) {
    const std::string types = std::string(kLongCompositesHeader) + std::string(kEntryPoint) + R"(%2 = OpTypeVoid
%3 = OpTypeFunction %2
%4 = OpTypeInt 32 0
%5 = OpTypeStruct %4
)";
    Diagnostics diagnostics;
    EXPECT_EQ(ir::parse(assemble(types + "%1 = OpFunction %2 None %3\n%6 = OpLabel\nOpTypeStructContinuedINTEL %4\n"
                                         "OpReturn\nOpFunctionEnd\n"),
                        diagnostics),
              nullptr);
    ASSERT_EQ(diagnostics.list().size(), 1u);
    EXPECT_EQ(diagnostics.list()[0].message, "OpTypeStructContinuedINTEL cannot appear inside a function");

    Diagnostics outside;
    EXPECT_EQ(ir::parse(assemble(types + "OpCompositeConstructContinuedINTEL %4\n"), outside), nullptr);
    ASSERT_EQ(outside.list().size(), 1u);
    EXPECT_EQ(outside.list()[0].message, "OpCompositeConstructContinuedINTEL must be inside a function");
}

TEST(LongCompositesMerge, ContinuationsThatFitBecomeOneInstruction) {
    const std::vector<uint32_t> words = modules::read_module("fits");
    const Result result = lower(words, emulating_long_composites(), {});
    ASSERT_TRUE(result.ok) << messages(result);
    EXPECT_TRUE(result.changed);
    EXPECT_EQ(validate(result.words, kVulkan13), "");
    EXPECT_EQ(scan_emulated_capabilities(result.words) & ~bit(Emulated::Float16), 0u);
    for (uint32_t opcode : {spv::OpTypeStructContinuedINTEL, spv::OpConstantCompositeContinuedINTEL,
                            spv::OpSpecConstantCompositeContinuedINTEL, spv::OpCompositeConstructContinuedINTEL}) {
        EXPECT_EQ(count_opcode(result.words, opcode), 0u) << opcode;
    }
    // Nothing is split: the same composites, whole; the specialization constant keeps its SpecId.
    for (uint32_t opcode : {spv::OpTypeStruct, spv::OpConstantComposite, spv::OpSpecConstantComposite,
                            spv::OpCompositeConstruct, spv::OpSpecConstant}) {
        EXPECT_EQ(count_opcode(result.words, opcode), count_opcode(words, opcode)) << opcode;
    }
    const size_t five = find_opcode(result.words, spv::OpCompositeConstruct).value_or(0);
    EXPECT_EQ(result.words[five] >> 16, 3u + 5u);
    const size_t six = find_opcode(result.words, spv::OpConstantComposite).value_or(0);
    EXPECT_EQ(result.words[six] >> 16, 3u + 6u);
    EXPECT_EQ(count_opcode(result.words, spv::OpDecorate), count_opcode(words, spv::OpDecorate));
}

TEST(LongCompositesMerge, AContinuationAfterAnotherInstructionIsAnError) {
    const std::vector<uint32_t> words = modules::read_module("broken_order");
    const Diagnostic error = lowering_error(words);
    EXPECT_EQ(error.message,
              "OpConstantCompositeContinuedINTEL must directly follow the OpConstantComposite it continues (or another "
              "OpConstantCompositeContinuedINTEL); here it follows OpConstant");
    EXPECT_EQ(error.word_offset, find_opcode(words, spv::OpConstantCompositeContinuedINTEL));
    EXPECT_TRUE(error.instruction.starts_with("OpConstantCompositeContinuedINTEL %")) << error.instruction;

    // A construct continuation right after the block's label, and a struct one that opens the types
    // (naming the function: the one kind of id the parser lets come before its definition there).
    const std::string head = std::string(kLongCompositesHeader) + std::string(kEntryPoint);
    const std::string body = R"(
%2 = OpTypeVoid
%3 = OpTypeFunction %2
%4 = OpTypeInt 32 0
%5 = OpTypeStruct %4 %4
%7 = OpConstant %4 1
%1 = OpFunction %2 None %3
%6 = OpLabel
)";
    EXPECT_EQ(lowering_error(assemble(head + body + "OpCompositeConstructContinuedINTEL %7 %7\nOpReturn\nOpFunctionEnd\n"))
                  .message,
              "OpCompositeConstructContinuedINTEL must directly follow the OpCompositeConstruct it continues (or another "
              "OpCompositeConstructContinuedINTEL); here it follows OpLabel");
    EXPECT_EQ(lowering_error(assemble(head + "OpTypeStructContinuedINTEL %1\n" + body + "OpReturn\nOpFunctionEnd\n")).message,
              "OpTypeStructContinuedINTEL must directly follow the OpTypeStruct it continues (or another "
              "OpTypeStructContinuedINTEL); here it opens its section");
}

// Folded into its head, a continuation that names the head would use the head's id where it is
// defined (found by the lower_long_composites fuzz target: the lowered module did not parse).
TEST(LongCompositesMerge, AContinuationThatNamesWhatItContinuesIsAnError) {
    const std::string head = std::string(kLongCompositesHeader) + std::string(kEntryPoint) + R"(
%2 = OpTypeVoid
%3 = OpTypeFunction %2
%4 = OpTypeInt 32 0
)";
    const Diagnostic type_error =
        lowering_error(assemble(head + "%5 = OpTypeStruct %4 %4\nOpTypeStructContinuedINTEL %4 %5\n%1 = OpFunction %2 None %3\n"
                                       "%6 = OpLabel\nOpReturn\nOpFunctionEnd\n"));
    EXPECT_EQ(type_error.message,
              "OpTypeStructContinuedINTEL names %5, the result of the instruction it continues: a struct or composite "
              "cannot contain itself");
    EXPECT_TRUE(type_error.instruction.starts_with("OpTypeStructContinuedINTEL %")) << type_error.instruction;

    const Diagnostic construct_error = lowering_error(
        assemble(head + "%5 = OpTypeStruct %4 %4 %4\n%7 = OpConstant %4 1\n%1 = OpFunction %2 None %3\n%6 = OpLabel\n"
                        "%8 = OpCompositeConstruct %5 %7 %7\nOpCompositeConstructContinuedINTEL %8\nOpReturn\nOpFunctionEnd\n"));
    EXPECT_EQ(construct_error.message,
              "OpCompositeConstructContinuedINTEL names %8, the result of the instruction it continues: a struct or "
              "composite cannot contain itself");
}

TEST(LongCompositesMerge, ACountThatDoesNotMatchTheTypeIsAnError) {
    const std::vector<uint32_t> words = modules::read_module("broken_count");
    const Diagnostic error = lowering_error(words);
    EXPECT_TRUE(error.message.starts_with("OpConstantComposite %")) << error.message;
    EXPECT_NE(error.message.find(" has 5 constituents (its continuations included), but its type %"), std::string::npos)
        << error.message;
    EXPECT_TRUE(error.message.ends_with(" takes 6")) << error.message;
    EXPECT_EQ(error.word_offset, find_opcode(words, spv::OpConstantComposite));
}

// The passes that ran, in order.
std::vector<std::string>& ran_passes() {
    static std::vector<std::string> ran;
    return ran;
}

// A stand-in pass that records that it ran and drops its set's declarations.
template <uint32_t kCapability>
class Recording final : public Pass {
  public:
    std::string_view name() const override { return "recording"; }
    bool run(PassContext& context) override {
        ran_passes().push_back(std::string(grammar::capability_name(kCapability)));
        std::erase_if(context.module.capabilities, [](const auto& i) { return i->word(1) == kCapability; });
        context.module.extensions.clear();
        return true;
    }
};

template <uint32_t kCapability>
std::unique_ptr<Pass> make_recording() {
    return std::make_unique<Recording<kCapability>>();
}

// Other passes take every composite to be one instruction, so long composites are lowered first,
// whatever order the module declares the capabilities in.
TEST(LongCompositesMerge, ItsPassRunsBeforeTheOthers) {
    static constexpr uint32_t kLong[] = {spv::CapabilityLongCompositesINTEL};
    static constexpr uint32_t kCoopmat[] = {spv::CapabilityCooperativeMatrixKHR};
    const EmulatedSetInfo sets[] = {
        {Emulated::IntelLongComposites, "long", kLong, {}, &make_recording<spv::CapabilityLongCompositesINTEL>},
        {Emulated::KhrCooperativeMatrix, "coopmat", kCoopmat, {}, &make_recording<spv::CapabilityCooperativeMatrixKHR>},
    };
    Diagnostics diagnostics;
    const auto module = ir::parse(assemble(R"(
OpCapability Shader
OpCapability CooperativeMatrixKHR
OpCapability LongCompositesINTEL
OpExtension "SPV_KHR_cooperative_matrix"
OpExtension "SPV_INTEL_long_composites"
OpMemoryModel Logical GLSL450
)"),
                                  diagnostics);
    ASSERT_NE(module, nullptr);
    ran_passes().clear();
    Target target;
    target.emulate = bit(Emulated::IntelLongComposites) | bit(Emulated::KhrCooperativeMatrix);
    EXPECT_TRUE(run_emulation_passes(*module, target, {}, sets, diagnostics));
    EXPECT_EQ(ran_passes(), (std::vector<std::string>{"LongCompositesINTEL", "CooperativeMatrixKHR"}));
}

}  // namespace
}  // namespace vkpolyfill::lowering::test
