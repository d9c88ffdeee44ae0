// With VKPOLYFILL_SPY_PIPELINE_BINARIES set, the spy plays a driver that has VK_KHR_pipeline_binary
// for compute pipelines (no lavapipe has it): a pipeline's key is a hash of its stage's words and
// entry point (behind the tag "spy:key:"), a binary's data is those words, and its internal cache
// holds every compute pipeline created so far. A pipeline from binaries is created from their words.
#pragma once

#include <vulkan/vulkan_core.h>

namespace spy {

VkResult GetPipelineKeyKHR(VkDevice device, const VkPipelineCreateInfoKHR* info, VkPipelineBinaryKeyKHR* key);
VkResult CreatePipelineBinariesKHR(VkDevice device, const VkPipelineBinaryCreateInfoKHR* info, const VkAllocationCallbacks* allocator,
                                   VkPipelineBinaryHandlesInfoKHR* binaries);
void DestroyPipelineBinaryKHR(VkDevice device, VkPipelineBinaryKHR binary, const VkAllocationCallbacks* allocator);
VkResult GetPipelineBinaryDataKHR(VkDevice device, const VkPipelineBinaryDataInfoKHR* info, VkPipelineBinaryKeyKHR* key,
                                  size_t* size, void* data);
VkResult ReleaseCapturedPipelineDataKHR(VkDevice device, const VkReleaseCapturedPipelineDataInfoKHR* info,
                                        const VkAllocationCallbacks* allocator);
// vkCreateComputePipelines as such a driver: one create info at a time through `next`.
VkResult create_compute_pipelines_with_binaries(PFN_vkCreateComputePipelines next, VkDevice device, VkPipelineCache cache,
                                                uint32_t count, const VkComputePipelineCreateInfo* infos,
                                                const VkAllocationCallbacks* allocator, VkPipeline* pipelines);

}  // namespace spy
