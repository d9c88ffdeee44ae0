// The shader modules the layer kept because they use an emulated capability (the driver holds a
// placeholder under the same handle), and the debug-utils names of a device's shader modules.
// Sharded maps: concurrent calls on different modules do not wait for each other.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <vulkan/utility/vk_concurrent_unordered_map.hpp>
#include <vulkan/vulkan_core.h>

#include "core/content_hash.h"

namespace vkpolyfill {

struct CapturedModule {
    std::vector<uint32_t> words;
    ContentHash hash;
};

std::shared_ptr<const CapturedModule> capture(std::span<const uint32_t> words);

inline std::span<const uint32_t> code_words(const VkShaderModuleCreateInfo& info) {
    return {info.pCode, info.codeSize / sizeof(uint32_t)};
}

class CapturedModules {
  public:
    void add(VkShaderModule module, std::shared_ptr<const CapturedModule> captured);
    // Null when the module was passed to the driver as it was.
    std::shared_ptr<const CapturedModule> find(VkShaderModule module) const;
    bool contains(VkShaderModule module) const { return modules_.contains(module); }
    void set_name(VkShaderModule module, const char* name);
    // The debug-utils name, or "VkShaderModule 0x…" when it has none.
    std::string name(VkShaderModule module) const;
    void remove(VkShaderModule module);

  private:
    vku::concurrent::unordered_map<VkShaderModule, std::shared_ptr<const CapturedModule>, 4> modules_;
    vku::concurrent::unordered_map<VkShaderModule, std::string, 2> names_;
};

std::string handle_text(const char* type_name, uint64_t handle);

}  // namespace vkpolyfill
