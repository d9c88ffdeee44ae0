// The SPIR-V modules the tests run over: every compiled test shader, plus a spirv-opt -O version of
// each (OpPhi, merged blocks, what real coopmat shaders look like).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "vkpolyfill/lowering/lower.h"

namespace vkpolyfill::lowering::test {

struct CorpusModule {
    std::string name;  // file name, "+opt" for the optimized version
    std::vector<uint32_t> words;
};

// Fails the calling test (and returns nothing) when no .spv is found.
const std::vector<CorpusModule>& corpus();

std::vector<uint32_t> read_spirv(const std::filesystem::path& path);

// Corpus module `name` with specialization constants 0, 1, ... = `constants`, lowered for `target`
// (a missing module fails the calling test).
Result lowered_corpus_module(const std::string& name, const std::vector<uint32_t>& constants, const Target& target);

}  // namespace vkpolyfill::lowering::test
