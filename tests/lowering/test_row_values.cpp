// Accumulators that hold one value a row (row_values.h): in the GPU layout, flash attention's softmax
// state goes around its loop as one component per row an invocation holds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <spirv/unified1/spirv.hpp>
#include <vector>

#include "coopmat_target.h"
#include "diagnostic_text.h"
#include "spirv_corpus.h"
#include "spirv_facts.h"
#include "vkpolyfill/lowering/lower.h"
#include "vkpolyfill/lowering/validate.h"

namespace vkpolyfill::lowering::test {
namespace {

constexpr uint32_t kVulkan13 = (1u << 22) | (3u << 12);

// The component counts of the arrays the phis of the module's first function (its entry point) carry.
std::vector<uint32_t> carried_array_lengths(const SpirvFacts& facts) {
    std::vector<uint32_t> lengths;
    for (const CodeInstruction& instruction : facts.code) {
        const uint32_t opcode = instruction.words[0] & 0xFFFFu;
        if (opcode == spv::OpFunctionEnd) break;
        if (opcode != spv::OpPhi || facts.opcode_of(instruction.words[1]) != spv::OpTypeArray) continue;
        lengths.push_back(*facts.constant(facts.definitions.at(instruction.words[1])[3]));
    }
    std::ranges::sort(lengths);
    return lengths;
}

// workgroup_flash_attention.comp on a 32-wide GPU: its 32x8 blocks of scores over one subgroup are
// held 2 rows x 4 columns an invocation, its 32x16 output 4 x 4. The running row maxima M and sums L
// go around the loop as 2 components each (a whole block's 8 before), O as its 16.
TEST(RowValues, FlashAttentionCarriesItsRowMaximaAndSumsOneValueARow) {
    Target target = emulating_coopmat(32);
    target.distributed_matrices = target.subgroup_shuffles = true;
    const Result result = lowered_corpus_module("workgroup_flash_attention.comp.spv", {}, target);
    ASSERT_TRUE(result.ok) << messages(result);
    EXPECT_EQ(validate(result.words, kVulkan13), "");
    EXPECT_EQ(carried_array_lengths(read_facts(result.words)), (std::vector<uint32_t>{2, 2, 16}));
}

}  // namespace
}  // namespace vkpolyfill::lowering::test
