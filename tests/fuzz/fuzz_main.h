// The body of a fuzz target: libFuzzer's bytes as SPIR-V words (trailing bytes that make no whole word
// are dropped), one check of fuzz_checks.h, abort() with its message when it finds a problem.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace vkpolyfill::lowering::fuzz {

template <typename Check>
int run_check(const uint8_t* data, size_t size, Check check) {
    std::vector<uint32_t> words(size / sizeof(uint32_t));
    if (!words.empty()) std::memcpy(words.data(), data, words.size() * sizeof(uint32_t));
    if (const std::string problem = check(words); !problem.empty()) {
        std::fprintf(stderr, "fuzz check failed: %s\n", problem.c_str());
        std::abort();
    }
    return 0;
}

}  // namespace vkpolyfill::lowering::fuzz
