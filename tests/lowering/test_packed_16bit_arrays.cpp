// pack_16bit_arrays: arrays of 16-bit numbers held in registers become arrays of pairs (vectors, or
// 32-bit words bit cast at each access), every index into them split in two, and the module stays
// valid; arrays it cannot follow everywhere are left alone. What the packed code computes is checked on lavapipe by the cooperative-matrix suites in the
// GPU layout (vulkan.plain@distributed.*, which pack every f16 matrix), against the CPU.
#include <gtest/gtest.h>

#include <spirv/unified1/spirv.hpp>
#include <string>

#include "ir/parser.h"
#include "ir/type_manager.h"
#include "passes/common/packed_16bit_arrays.h"
#include "spirv_facts.h"
#include "spirv_text.h"
#include "vkpolyfill/lowering/validate.h"

namespace vkpolyfill::lowering::test {
namespace {

constexpr uint32_t kVulkan13 = (1u << 22) | (3u << 12);

// An array of four halves in a Function variable: read at a run-time index and at constant ones,
// loaded whole, taken apart, inserted into and built. LENGTH, TYPES and EXTRA are
// replaced by the tests.
constexpr std::string_view kFourHalves = R"(
               OpCapability Shader
               OpCapability Float16
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %out
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %Out Block
               OpMemberDecorate %Out 0 Offset 0
               OpMemberDecorate %Out 1 Offset 4
               OpDecorate %out DescriptorSet 0
               OpDecorate %out Binding 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %half = OpTypeFloat 16
      %float = OpTypeFloat 32
       %uint = OpTypeInt 32 0
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_3 = OpConstant %uint 3
     %length = OpConstant %uint LENGTH
        %arr = OpTypeArray %half %length
    %arr_ptr = OpTypePointer Function %arr
   %half_ptr = OpTypePointer Function %half
               TYPES
        %Out = OpTypeStruct %float %uint
    %out_ptr = OpTypePointer StorageBuffer %Out
  %float_ptr = OpTypePointer StorageBuffer %float
   %uint_ptr = OpTypePointer StorageBuffer %uint
         %h1 = OpConstant %half 1
         %h2 = OpConstant %half 2
         %h3 = OpConstant %half 3
         %h4 = OpConstant %half 4
       %init = OpConstantComposite %arr %h1 %h2 %h3 %h4
        %out = OpVariable %out_ptr StorageBuffer
       %main = OpFunction %void None %fn
      %entry = OpLabel
          %v = OpVariable %arr_ptr Function %init
      %dyn_p = OpAccessChain %uint_ptr %out %uint_1
        %dyn = OpLoad %uint %dyn_p
          %p = OpAccessChain %half_ptr %v %dyn
          %x = OpLoad %half %p
          %q = OpAccessChain %half_ptr %v %uint_3
               OpStore %q %x
      %whole = OpLoad %arr %v
          %e = OpCompositeExtract %half %whole 2
        %ins = OpCompositeInsert %arr %e %whole 1
      %built = OpCompositeConstruct %arr %e %x %h1 %h2
          %a = OpCompositeExtract %half %ins 1
          %b = OpCompositeExtract %half %built 0
        %sum = OpFAdd %half %a %b
          %f = OpFConvert %float %sum
      %f_ptr = OpAccessChain %float_ptr %out %uint_0
               OpStore %f_ptr %f
               EXTRA
               OpReturn
               OpFunctionEnd
)";

std::vector<uint32_t> module_text(std::string_view length, std::string_view types = "", std::string_view extra = "") {
    return assemble(replaced(replaced(replaced(std::string(kFourHalves), "LENGTH", length), "TYPES", types), "EXTRA", extra));
}

// pack_16bit_arrays on `words`: whether it packed, and the module after.
std::pair<bool, std::vector<uint32_t>> packed(const std::vector<uint32_t>& words, PairForm form = PairForm::Vector) {
    Diagnostics diagnostics;
    const auto module = ir::parse(words, diagnostics);
    if (!module) {
        ADD_FAILURE() << "the test module does not parse";
        return {};
    }
    ir::TypeManager types(*module);
    const bool changed = pack_16bit_arrays(*module, types, form);
    return {changed, module->to_words()};
}

size_t arrays_of(const SpirvFacts& facts, uint32_t element_opcode) {
    size_t count = 0;
    for (const auto& [id, words] : facts.definitions) {
        count += (words[0] & 0xFFFFu) == spv::OpTypeArray && facts.opcode_of(words[2]) == element_opcode;
    }
    return count;
}

// The literal indices of each OpCompositeExtract or OpCompositeInsert, in code order.
std::vector<std::vector<uint32_t>> literal_indices(const SpirvFacts& facts, uint32_t opcode) {
    std::vector<std::vector<uint32_t>> all;
    for (const CodeInstruction& instruction : facts.code) {
        if ((instruction.words[0] & 0xFFFFu) != opcode) continue;
        const size_t first = opcode == spv::OpCompositeInsert ? 5 : 4;
        all.emplace_back(instruction.words.begin() + static_cast<std::ptrdiff_t>(first), instruction.words.end());
    }
    return all;
}

TEST(PackedArrays, PairsReplaceHalvesAndEveryIndexSplits) {
    const auto [changed, words] = packed(module_text("4"));
    ASSERT_TRUE(changed);
    EXPECT_EQ(validate(words, kVulkan13), "");
    const SpirvFacts facts = read_facts(words);
    EXPECT_EQ(arrays_of(facts, spv::OpTypeFloat), 0u);
    EXPECT_EQ(arrays_of(facts, spv::OpTypeVector), 1u);
    // Extracts: element 2 is pair 1's first, 1 pair 0's second, 0 pair 0's first.
    EXPECT_EQ(literal_indices(facts, spv::OpCompositeExtract),
              (std::vector<std::vector<uint32_t>>{{1, 0}, {0, 1}, {0, 0}}));
    EXPECT_EQ(literal_indices(facts, spv::OpCompositeInsert), (std::vector<std::vector<uint32_t>>{{0, 1}}));
    // The run-time index becomes index >> 1 and index & 1; the constant 3 becomes 1 and 1.
    EXPECT_EQ(facts.count(spv::OpShiftRightLogical), 1u);
    EXPECT_EQ(facts.count(spv::OpBitwiseAnd), 1u);
    size_t split_chains = 0;
    for (const CodeInstruction& instruction : facts.code) {
        if ((instruction.words[0] & 0xFFFFu) != spv::OpAccessChain || instruction.words.size() != 6) continue;
        ++split_chains;
        const auto vector = facts.constant(instruction.words[4]), component = facts.constant(instruction.words[5]);
        if (vector && component) {
            EXPECT_EQ(std::pair(*vector, *component), std::pair(1u, 1u));
        }
    }
    EXPECT_EQ(split_chains, 2u);
    // The construct takes pairs, and the initializer is made of pairs.
    EXPECT_EQ(facts.count(spv::OpCompositeConstruct), 3u);
}

TEST(PackedArrays, WordsHoldPairsWhereHalvesWouldBeWidened) {
    const auto [changed, words] = packed(module_text("4"), PairForm::Word);
    ASSERT_TRUE(changed);
    EXPECT_EQ(validate(words, kVulkan13), "");
    const SpirvFacts facts = read_facts(words);
    EXPECT_EQ(arrays_of(facts, spv::OpTypeFloat), 0u);
    EXPECT_EQ(arrays_of(facts, spv::OpTypeVector), 0u);
    EXPECT_EQ(arrays_of(facts, spv::OpTypeInt), 1u);
    // The initializer's words: halves 1 and 2 (0x3C00, 0x4000), 3 and 4 (0x4200, 0x4400), low half first.
    std::vector<uint32_t> initializer;
    for (const auto& [id, definition] : facts.definitions) {
        if ((definition[0] & 0xFFFFu) != spv::OpConstantComposite || facts.opcode_of(definition[1]) != spv::OpTypeArray) continue;
        for (size_t k = 3; k < definition.size(); ++k) initializer.push_back(facts.constant(definition[k]).value_or(0));
    }
    EXPECT_EQ(initializer, (std::vector<uint32_t>{0x40003C00u, 0x44004200u}));
    // The two access chains end at a word: a load through one takes its half; the store through the
    // other reads the word, replaces its half and writes it back.
    size_t word_chains = 0;
    for (const CodeInstruction& instruction : facts.code) {
        if ((instruction.words[0] & 0xFFFFu) != spv::OpAccessChain) continue;
        const auto& pointer = facts.definitions.at(instruction.words[1]);
        word_chains += pointer[2] == spv::StorageClassFunction && facts.opcode_of(pointer[3]) == spv::OpTypeInt;
    }
    EXPECT_EQ(word_chains, 2u);
    EXPECT_EQ(facts.count(spv::OpVectorExtractDynamic), 4u);  // the load and the three extracts
    EXPECT_EQ(facts.count(spv::OpVectorInsertDynamic), 2u);   // the store and the insert
    // Casts: one for each load and extract (4), two for the store and the insert (4), one for each
    // pair the construct makes (2).
    EXPECT_EQ(facts.count(spv::OpBitcast), 10u);
}

TEST(PackedArrays, ArraysItCannotFollowStayAsTheyAre) {
    struct Case {
        const char* what;
        std::vector<uint32_t> words;
    };
    const Case cases[] = {
        {"an odd length", assemble(R"(
               OpCapability Shader
               OpCapability Float16
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %half = OpTypeFloat 16
       %uint = OpTypeInt 32 0
     %uint_2 = OpConstant %uint 2
     %uint_3 = OpConstant %uint 3
        %arr = OpTypeArray %half %uint_3
    %arr_ptr = OpTypePointer Function %arr
   %half_ptr = OpTypePointer Function %half
         %h1 = OpConstant %half 1
       %main = OpFunction %void None %fn
      %entry = OpLabel
          %v = OpVariable %arr_ptr Function
          %p = OpAccessChain %half_ptr %v %uint_2
               OpStore %p %h1
               OpReturn
               OpFunctionEnd
)")},
        {"a pointer to the whole array made by an access chain",
         module_text("4", "", "%same = OpAccessChain %arr_ptr %v\nOpStore %same %built")},
        {"the array in a struct", module_text("4", "%nest = OpTypeStruct %arr")},
        {"the array decorated",
         assemble(replaced(replaced(replaced(replaced(std::string(kFourHalves), "LENGTH", "4"), "TYPES", ""), "EXTRA", ""),
                           "OpDecorate %out Binding 0", "OpDecorate %out Binding 0\nOpDecorate %arr ArrayStride 2"))},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.what);
        for (const PairForm form : {PairForm::Vector, PairForm::Word}) {
            const auto [changed, words] = packed(c.words, form);
            EXPECT_FALSE(changed);
            EXPECT_EQ(words, c.words);
        }
    }
}

// A word has no addressable halves: an element pointer used other than by a load or a store keeps
// the array as it is in the word form (pairs of vectors can be pointed into).
TEST(PackedArrays, WordsKeepArraysWhoseElementsArePointedAtOtherwise) {
    const std::vector<uint32_t> copied = module_text("4", "", "OpCopyMemory %q %p");
    EXPECT_TRUE(packed(copied, PairForm::Vector).first);
    const auto [changed, words] = packed(copied, PairForm::Word);
    EXPECT_FALSE(changed);
    EXPECT_EQ(words, copied);
}

}  // namespace
}  // namespace vkpolyfill::lowering::test
