// With VKPOLYFILL_SPY_MODULE_IDENTIFIERS set, the spy plays a driver that has
// VK_EXT_shader_module_identifier (no lavapipe does): it lists the extension and takes it off
// vkCreateDevice's list, names each module it receives by a hash of its words (behind the tag
// "spy:drv:"), and creates a compute pipeline from an identifier alone only where a pipeline of that
// module was created before (its "cache"); any other identifier gets VK_PIPELINE_COMPILE_REQUIRED.
#pragma once

#include <vector>

#include <vulkan/vulkan_core.h>

namespace spy {

bool plays_module_identifiers();

// The driver's extensions (from `next`), and VK_EXT_shader_module_identifier.
VkResult list_with_module_identifier(PFN_vkEnumerateDeviceExtensionProperties next, VkPhysicalDevice physical_device,
                                     uint32_t* count, VkExtensionProperties* properties);
// The extensions a device enables, without VK_EXT_shader_module_identifier.
std::vector<const char*> without_module_identifier(const VkDeviceCreateInfo& info);

void note_module(VkShaderModule module, const VkShaderModuleCreateInfo& info);
void GetShaderModuleIdentifierEXT(VkDevice device, VkShaderModule module, VkShaderModuleIdentifierEXT* identifier);
void GetShaderModuleCreateInfoIdentifierEXT(VkDevice device, const VkShaderModuleCreateInfo* info,
                                            VkShaderModuleIdentifierEXT* identifier);
// vkCreateComputePipelines as such a driver: one create info at a time through `next`.
VkResult create_compute_pipelines(PFN_vkCreateComputePipelines next, VkDevice device, VkPipelineCache cache, uint32_t count,
                                  const VkComputePipelineCreateInfo* infos, const VkAllocationCallbacks* allocator,
                                  VkPipeline* pipelines);

}  // namespace spy
