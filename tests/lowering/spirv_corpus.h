// The SPIR-V modules the tests run over: every compiled test shader, plus a spirv-opt -O version of
// each (OpPhi, merged blocks, what real coopmat shaders look like).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace vkpolyfill::lowering::test {

struct CorpusModule {
    std::string name;  // file name, "+opt" for the optimized version
    std::vector<uint32_t> words;
};

// Fails the calling test (and returns nothing) when no .spv is found.
const std::vector<CorpusModule>& corpus();

std::vector<uint32_t> read_spirv(const std::filesystem::path& path);

}  // namespace vkpolyfill::lowering::test
