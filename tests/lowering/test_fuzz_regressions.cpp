// Every input a fuzz target found a problem with (regressions/) now passes every fuzz check: the
// parser round trip and lower() with each capability's pass.
#include <gtest/gtest.h>

#include <filesystem>

#include "fuzz_checks.h"
#include "spirv_corpus.h"

namespace vkpolyfill::lowering::test {
namespace {

TEST(FuzzRegressions, EveryFoundInputPassesEveryCheck) {
    size_t inputs = 0;
    for (const auto& entry : std::filesystem::directory_iterator(VKPOLYFILL_FUZZ_REGRESSIONS_DIR)) {
        if (entry.path().extension() != ".spv") continue;
        SCOPED_TRACE(entry.path().filename().string());
        ++inputs;
        const std::vector<uint32_t> words = read_spirv(entry.path());
        EXPECT_EQ(fuzz::parse_problem(words), "");
        for (const fuzz::Pass pass : fuzz::kPasses) {
            EXPECT_EQ(fuzz::lower_problem(words, pass), "") << "pass " << static_cast<int>(pass);
        }
    }
    EXPECT_GT(inputs, 0u);
}

}  // namespace
}  // namespace vkpolyfill::lowering::test
