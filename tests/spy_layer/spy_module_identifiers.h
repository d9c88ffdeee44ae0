// With VKPOLYFILL_SPY_MODULE_IDENTIFIERS set, the spy plays a driver that has
// VK_EXT_shader_module_identifier (no lavapipe does): it lists the extension and takes it off
// vkCreateDevice's list, names each module it receives by a hash of its words (behind the tag
// "spy:drv:"), and creates a compute pipeline from an identifier alone only where a pipeline of that
// module was created before (its "cache"); any other identifier gets VK_PIPELINE_COMPILE_REQUIRED.
#pragma once

#include <vulkan/vulkan_core.h>

namespace spy {

void GetShaderModuleIdentifierEXT(VkDevice device, VkShaderModule module, VkShaderModuleIdentifierEXT* identifier);
void GetShaderModuleCreateInfoIdentifierEXT(VkDevice device, const VkShaderModuleCreateInfo* info,
                                            VkShaderModuleIdentifierEXT* identifier);
// vkCreateComputePipelines as such a driver: one create info at a time through `next`.
VkResult create_compute_pipelines(PFN_vkCreateComputePipelines next, VkDevice device, VkPipelineCache cache, uint32_t count,
                                  const VkComputePipelineCreateInfo* infos, const VkAllocationCallbacks* allocator,
                                  VkPipeline* pipelines);

}  // namespace spy
