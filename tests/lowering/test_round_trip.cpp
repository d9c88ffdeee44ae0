// parse -> to_words gives back the very same words for every module of the corpus.
#include <gtest/gtest.h>

#include <spirv/unified1/spirv.hpp>

#include "ir/parser.h"
#include "spirv_corpus.h"

namespace vkpolyfill::lowering::test {
namespace {

TEST(RoundTrip, EveryCorpusModuleComesBackIdentical) {
    ASSERT_FALSE(corpus().empty());
    for (const CorpusModule& module : corpus()) {
        SCOPED_TRACE(module.name);
        Diagnostics diagnostics;
        const auto parsed = ir::parse(module.words, diagnostics);
        ASSERT_NE(parsed, nullptr) << (diagnostics.list().empty() ? "" : diagnostics.list()[0].message);
        EXPECT_TRUE(diagnostics.list().empty());
        EXPECT_EQ(parsed->to_words(), module.words);
    }
}

TEST(RoundTrip, CorpusHasOptimizedAndDebugInfoModules) {
    // The round trip is only as strong as the corpus: OpPhi (spirv-opt), OpLine/OpSource (-g),
    // NonSemantic debug info (-gVS) and a cooperative matrix must all be in it.
    bool phi = false, line = false, non_semantic = false, coopmat = false;
    for (const CorpusModule& module : corpus()) {
        Diagnostics diagnostics;
        const auto parsed = ir::parse(module.words, diagnostics);
        ASSERT_NE(parsed, nullptr) << module.name;
        parsed->for_each_instruction([&](const ir::Instruction& instruction) {
            phi = phi || instruction.opcode() == spv::OpPhi;
            line = line || instruction.opcode() == spv::OpLine;
            coopmat = coopmat || instruction.opcode() == spv::OpCooperativeMatrixMulAddKHR;
            non_semantic = non_semantic || (instruction.opcode() == spv::OpExtInst &&
                                            parsed->ext_inst_set(instruction.word(3))->non_semantic);
        });
    }
    EXPECT_TRUE(phi);
    EXPECT_TRUE(line);
    EXPECT_TRUE(non_semantic);
    EXPECT_TRUE(coopmat);
}

}  // namespace
}  // namespace vkpolyfill::lowering::test
