// validate() and disassemble() over SPIRV-Tools.
#include <spirv-tools/libspirv.hpp>

#include "vkpolyfill/lowering/validate.h"

namespace vkpolyfill::lowering {

namespace {

// VK_MAKE_API_VERSION(variant, major, minor, patch) -> the SPIR-V environment of that Vulkan version;
// versions past the newest SPIRV-Tools knows get the newest.
spv_target_env vulkan_environment(uint32_t vulkan_version) {
    const uint32_t major = (vulkan_version >> 22) & 0x7Fu;
    const uint32_t minor = (vulkan_version >> 12) & 0x3FFu;
    if (major > 1) return SPV_ENV_VULKAN_1_4;
    switch (minor) {
        case 0: return SPV_ENV_VULKAN_1_0;
        case 1: return SPV_ENV_VULKAN_1_1;
        case 2: return SPV_ENV_VULKAN_1_2;
        case 3: return SPV_ENV_VULKAN_1_3;
        default: return SPV_ENV_VULKAN_1_4;
    }
}

// Collects SPIRV-Tools' messages, one a line.
spvtools::MessageConsumer collect_into(std::string& messages) {
    return [&messages](spv_message_level_t, const char*, const spv_position_t& position, const char* message) {
        if (!messages.empty()) messages += '\n';
        messages += message;
        if (position.index) messages += " (word " + std::to_string(position.index) + ")";
    };
}

}  // namespace

std::string validate(std::span<const uint32_t> words, uint32_t vulkan_version) {
    try {
        spvtools::SpirvTools tools(vulkan_environment(vulkan_version));
        std::string messages;
        tools.SetMessageConsumer(collect_into(messages));
        if (tools.Validate(words.data(), words.size())) return {};
        return messages.empty() ? "spirv-val rejected the module without a message" : messages;
    } catch (...) {
        return "spirv-val could not run (out of memory)";
    }
}

std::string disassemble(std::span<const uint32_t> words) {
    try {
        spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
        std::string messages;
        tools.SetMessageConsumer(collect_into(messages));
        std::string text;
        const uint32_t options = SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES | SPV_BINARY_TO_TEXT_OPTION_INDENT;
        if (tools.Disassemble(words.data(), words.size(), &text, options)) return text;
        return "spirv-dis failed: " + messages;
    } catch (...) {
        return "spirv-dis could not run (out of memory)";
    }
}

}  // namespace vkpolyfill::lowering
