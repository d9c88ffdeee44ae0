// SPIRV-Tools' validator and disassembler, wrapped for the layer's messages.
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace vkpolyfill::lowering {

// spirv-val for the SPIR-V environment matching a Vulkan API version (VK_MAKE_API_VERSION form).
// Returns an empty string when the module is valid, else the validator's message.
std::string validate(std::span<const uint32_t> words, uint32_t vulkan_version);

// The whole module as spirv-dis text (friendly names), or the disassembler's error.
std::string disassemble(std::span<const uint32_t> words);

}  // namespace vkpolyfill::lowering
