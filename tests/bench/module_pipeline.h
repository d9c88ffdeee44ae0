// A compute pipeline of a module nobody described: its layout made from what the module declares
// (module_interface.h), its push-constant range the device's whole (a module reads within it).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "vulkan_context.h"

namespace vkpolyfill::bench {

class ModulePipeline {
  public:
    // `constants`: (SpecId, 32-bit value) pairs; the subgroup-workgroup constant as Specialization adds it.
    ModulePipeline(test::Context& context, std::span<const uint32_t> spirv,
                   std::span<const std::pair<uint32_t, uint32_t>> constants, VkPipelineCreateFlags flags);
    ~ModulePipeline();
    ModulePipeline(const ModulePipeline&) = delete;
    ModulePipeline& operator=(const ModulePipeline&) = delete;

    VkPipeline pipeline = VK_NULL_HANDLE;

  private:
    test::Context& context_;
    std::vector<VkDescriptorSetLayout> set_layouts_;
    VkPipelineLayout layout_ = VK_NULL_HANDLE;
    VkShaderModule module_ = VK_NULL_HANDLE;
};

}  // namespace vkpolyfill::bench
