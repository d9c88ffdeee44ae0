// The lowering fuzz targets' structure-aware mutator (tests/fuzz/spirv_mutator.h): its results stay
// whole instruction chains, mostly parse (which is what it is for), and repeat for a seed.
#include <gtest/gtest.h>

#include <cstring>

#include "ir/parser.h"
#include "spirv_corpus.h"
#include "spirv_mutator.h"

namespace vkpolyfill::lowering::test {
namespace {

constexpr size_t kMaxBytes = 300000;  // scripts/fuzz.sh's -max_len

std::vector<uint32_t> words_of(const std::vector<uint8_t>& bytes) {
    std::vector<uint32_t> words(bytes.size() / 4);
    std::memcpy(words.data(), bytes.data(), words.size() * 4);
    return words;
}

// A header and instructions whose word counts chain exactly to the end.
bool whole_chain(const std::vector<uint32_t>& words) {
    if (words.size() < 6 || words[0] != 0x07230203u) return false;
    size_t at = 5;
    while (at < words.size() && (words[at] >> 16) != 0) at += words[at] >> 16;
    return at == words.size();
}

// Mutates `module` with `seed`; `fell_back` says whether the byte mutator was asked instead.
std::vector<uint8_t> mutated(const std::vector<uint32_t>& module, unsigned int seed, bool& fell_back) {
    std::vector<uint8_t> bytes(kMaxBytes);
    std::memcpy(bytes.data(), module.data(), module.size() * 4);
    fell_back = false;
    const size_t size = fuzz::mutate_module(bytes.data(), module.size() * 4, kMaxBytes, seed, [&](uint8_t*, size_t s, size_t) {
        fell_back = true;
        return s;
    });
    bytes.resize(size);
    return bytes;
}

TEST(SpirvMutator, MutationsKeepWholeInstructionsAndOftenStillParse) {
    size_t mutations = 0, fallbacks = 0, parsed = 0;
    for (const CorpusModule& module : corpus()) {
        if (module.words.size() * 4 > 65536) continue;  // the long-composites modules: slow, and no different
        SCOPED_TRACE(module.name);
        for (unsigned int seed = 0; seed < 16; ++seed) {
            bool fell_back = false;
            const std::vector<uint8_t> bytes = mutated(module.words, seed, fell_back);
            if (fell_back) {
                ++fallbacks;
                continue;
            }
            ++mutations;
            const std::vector<uint32_t> words = words_of(bytes);
            ASSERT_TRUE(whole_chain(words)) << "seed " << seed;
            Diagnostics diagnostics;
            parsed += ir::parse(words, diagnostics) != nullptr;
            bool again = false;
            ASSERT_EQ(mutated(module.words, seed, again), bytes) << "seed " << seed << " did not repeat";
        }
    }
    ASSERT_GT(mutations, 1000u);
    // About one in four goes to the byte mutator by design.
    EXPECT_LT(fallbacks * 2, mutations);
    // libFuzzer's byte mutations left 4% of the lowering targets' inputs parseable (10,000 inputs
    // each); these about 32%.
    EXPECT_GT(parsed * 4, mutations) << parsed << " of " << mutations << " parsed";
    std::printf("%zu mutations of the corpus, %zu parsed; %zu byte-level fallbacks\n", mutations, parsed, fallbacks);
}

TEST(SpirvMutator, CrossOverSplicesARunOfTheOtherModulesInstructions) {
    const auto& modules = corpus();
    ASSERT_GE(modules.size(), 2u);
    const std::vector<uint32_t>& a = modules[0].words;
    const std::vector<uint32_t>& b = modules[1].words;
    for (unsigned int seed = 0; seed < 20; ++seed) {
        std::vector<uint8_t> out(kMaxBytes);
        const size_t size = fuzz::cross_over_modules(reinterpret_cast<const uint8_t*>(a.data()), a.size() * 4,
                                                     reinterpret_cast<const uint8_t*>(b.data()), b.size() * 4, out.data(),
                                                     out.size(), seed);
        ASSERT_GT(size, a.size() * 4);
        ASSERT_LE(size, (a.size() + b.size() - 5) * 4);
        out.resize(size);
        const std::vector<uint32_t> words = words_of(out);
        EXPECT_TRUE(whole_chain(words));
        EXPECT_EQ(words[3], std::max(a[3], b[3])) << "the bound covers both modules' ids";
    }
    // Not a module: nothing.
    const uint32_t junk[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    std::vector<uint8_t> out(kMaxBytes);
    EXPECT_EQ(fuzz::cross_over_modules(reinterpret_cast<const uint8_t*>(junk), sizeof(junk),
                                       reinterpret_cast<const uint8_t*>(b.data()), b.size() * 4, out.data(), out.size(), 1),
              0u);
}

}  // namespace
}  // namespace vkpolyfill::lowering::test
