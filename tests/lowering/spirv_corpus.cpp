#include "spirv_corpus.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <spirv-tools/optimizer.hpp>

namespace vkpolyfill::lowering::test {

namespace {

std::vector<std::filesystem::path> spirv_files() {
    std::vector<std::filesystem::path> files;
    for (const char* dir : {VKPOLYFILL_SHADER_DIR, VKPOLYFILL_LOWERING_TEST_SPIRV_DIR}) {
        if (!std::filesystem::is_directory(dir)) continue;
        for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
            if (entry.is_regular_file() && entry.path().extension() == ".spv") files.push_back(entry.path());
        }
    }
    std::ranges::sort(files);
    return files;
}

// The coopmat shaders need Vulkan 1.3's SPIR-V 1.6; every test shader is built for it.
std::vector<uint32_t> optimized(const std::vector<uint32_t>& words) {
    spvtools::Optimizer optimizer(SPV_ENV_VULKAN_1_3);
    optimizer.RegisterPerformancePasses();
    std::vector<uint32_t> result;
    if (!optimizer.Run(words.data(), words.size(), &result)) result.clear();
    return result;
}

std::vector<CorpusModule> load_corpus() {
    std::vector<CorpusModule> modules;
    for (const auto& path : spirv_files()) {
        const std::string name = path.filename().string();
        auto words = read_spirv(path);
        // spirv-opt refuses modules its validator rejects; SPIRV-Tools 2026.4 rejects some valid
        // cooperative-matrix code (OpSelect of matrices), which then has no optimized version.
        auto optimized_words = optimized(words);
        modules.push_back({name, std::move(words)});
        if (!optimized_words.empty()) modules.push_back({name + "+opt", std::move(optimized_words)});
    }
    return modules;
}

}  // namespace

std::vector<uint32_t> read_spirv(const std::filesystem::path& path) {
    std::ifstream file(path, std::ios::binary);
    std::vector<char> bytes{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
    std::vector<uint32_t> words(bytes.size() / 4);
    std::memcpy(words.data(), bytes.data(), words.size() * 4);
    return words;
}

const std::vector<CorpusModule>& corpus() {
    static const std::vector<CorpusModule> modules = load_corpus();
    EXPECT_FALSE(modules.empty()) << "no .spv under " << VKPOLYFILL_SHADER_DIR;
    return modules;
}

Result lowered_corpus_module(const std::string& name, const std::vector<uint32_t>& constants, const Target& target) {
    const auto module = std::find_if(corpus().begin(), corpus().end(), [&](const CorpusModule& m) { return m.name == name; });
    EXPECT_NE(module, corpus().end()) << name;
    if (module == corpus().end()) return {};
    Options options;
    for (uint32_t id = 0; id < constants.size(); ++id) {
        const uint32_t v = constants[id];
        options.specialization.push_back({id, {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)}});
    }
    return lower(module->words, target, options);
}

}  // namespace vkpolyfill::lowering::test
