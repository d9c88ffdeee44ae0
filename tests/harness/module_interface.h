// The resource interface a compute module declares, read from its SPIR-V, so that a pipeline layout
// can be made for a module nobody described (an engine's shader compiled as it ships): the descriptor
// bindings per set with their Vulkan descriptor types, whether it reads push constants, and the SPIR-V
// extensions and capabilities it declares.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include <volk.h>

namespace vkpolyfill::test {

struct ModuleInterface {
    // set -> binding -> the binding (binding, type, count, compute stage). Variables that alias one
    // binding (an engine's several views of one buffer) give it once.
    std::map<uint32_t, std::map<uint32_t, VkDescriptorSetLayoutBinding>> sets;
    bool push_constants = false;
    std::vector<std::string> extensions;  // OpExtension
    std::vector<uint32_t> capabilities;   // OpCapability
};

// Throws std::invalid_argument naming what it cannot map to a descriptor type.
ModuleInterface reflect_interface(std::span<const uint32_t> spirv);

}  // namespace vkpolyfill::test
