#include "library_lowering.h"

#include <gtest/gtest.h>
#include <spirv/unified1/spirv.hpp>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <format>
#include <fstream>
#include <unordered_map>
#include <vector>

#include <vulkan/vulkan_core.h>

#include "vkpolyfill/lowering/validate.h"
#include "vulkan_context.h"

namespace vkpolyfill::test {
namespace {

constexpr size_t kHeaderWords = 5;

// `words` with each specialized constant's default replaced by its value (scalars of 1-8 bytes).
std::vector<uint32_t> with_specialization(std::span<const uint32_t> words, const lowering::Options& options) {
    std::vector<uint32_t> result(words.begin(), words.end());
    std::unordered_map<uint32_t, uint32_t> spec_id_of;  // result id -> SpecId
    for (size_t at = kHeaderWords; at < result.size();) {
        const uint32_t count = result[at] >> 16, opcode = result[at] & 0xFFFFu;
        if (count == 0 || at + count > result.size()) break;  // the lowering reports malformed modules
        if (opcode == spv::OpDecorate && count == 4 && result[at + 2] == spv::DecorationSpecId) spec_id_of[result[at + 1]] = result[at + 3];
        if (opcode == spv::OpSpecConstant && count >= 4) {
            const auto id = spec_id_of.find(result[at + 2]);
            for (const lowering::SpecializationValue& value : options.specialization) {
                if (id == spec_id_of.end() || id->second != value.spec_id) continue;
                uint64_t bits = 0;
                std::memcpy(&bits, value.bytes.data(), std::min(value.bytes.size(), sizeof bits));
                for (uint32_t w = 3; w < count; ++w) result[at + w] = uint32_t(bits >> (32 * (w - 3)));
            }
        }
        at += count;
    }
    return result;
}

// The pipeline's value of the constant that makes a test shader's workgroup one subgroup
// (kSubgroupWorkgroupConstant), as Context::create_compute_pipeline gives it, unless the test gives its own.
lowering::Options with_one_subgroup_workgroup(std::span<const uint32_t> words, lowering::Options options, uint32_t subgroup_size) {
    if (!declares_spec_id(words, kSubgroupWorkgroupConstant)) return options;
    for (const lowering::SpecializationValue& value : options.specialization) {
        if (value.spec_id == kSubgroupWorkgroupConstant) return options;
    }
    std::vector<uint8_t> bytes(sizeof subgroup_size);
    std::memcpy(bytes.data(), &subgroup_size, sizeof subgroup_size);
    options.specialization.push_back({kSubgroupWorkgroupConstant, std::move(bytes)});
    return options;
}

void write(const std::filesystem::path& path, std::span<const uint32_t> words) {
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(words.data()), std::streamsize(words.size_bytes()));
}

}  // namespace

lowering::Result lower_and_dump(std::span<const uint32_t> words, const lowering::Target& target, const lowering::Options& given) {
    const lowering::Options options = with_one_subgroup_workgroup(words, given, target.subgroup_size);
    lowering::Result result = lowering::lower(words, target, options);
    const char* directory = std::getenv("VK_POLYFILL_EXTENSIONS_DUMP_DIR");
    if (directory == nullptr || *directory == '\0') return result;
    static std::atomic<uint32_t> next{0};
    const std::filesystem::path stem = std::filesystem::path(directory) / std::format("library-{}", next++);
    write(stem.string() + ".original.spv", with_specialization(words, options));
    if (result.ok) write(stem.string() + ".lowered.spv", result.words);
    return result;
}

std::vector<uint32_t> lower_checked(std::span<const uint32_t> words, const lowering::Target& target,
                                    const lowering::Options& options) {
    const lowering::Result lowered = lower_and_dump(words, target, options);
    EXPECT_TRUE(lowered.ok) << (lowered.diagnostics.empty() ? "" : lowered.diagnostics[0].message);
    if (!lowered.ok) return {};
    const std::string invalid = lowering::validate(lowered.words, VK_API_VERSION_1_3);
    EXPECT_EQ(invalid, "");
    return invalid.empty() ? lowered.words : std::vector<uint32_t>{};
}

}  // namespace vkpolyfill::test
