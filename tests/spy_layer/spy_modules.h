// The words of the modules the driver received, for the extensions the spy plays (which name or key
// pipelines by their code).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include <vulkan/vulkan_core.h>

namespace spy {

using Words = std::vector<uint32_t>;

void note_module(VkShaderModule module, const VkShaderModuleCreateInfo& info);
std::span<const uint32_t> words_of(const VkShaderModuleCreateInfo& info);
// The words of a stage's module or inline code; empty for a stage given otherwise (an identifier).
Words stage_words(const VkPipelineShaderStageCreateInfo& stage);
// `tag` and an FNV-1a hash of `words` and `more`, as bytes.
std::string hash_name(const char* tag, std::span<const uint32_t> words, const std::string& more = {});

// What a driver that may take a stage's code from elsewhere (a cache, a binary) compiles for one
// create info: VK_SUCCESS with `words` to compile instead of the stage's own (none: the stage's), or
// the create info's failure.
struct StageSource {
    VkResult result = VK_SUCCESS;
    Words words;
};
// vkCreateComputePipelines one create info at a time through `next`: `source(info)` may rewrite the
// create info and says what to compile; `compiled(pipeline, info, words)` hears of every pipeline made.
VkResult create_compute_pipelines_from(PFN_vkCreateComputePipelines next, VkDevice device, VkPipelineCache cache, uint32_t count,
                                       const VkComputePipelineCreateInfo* infos, const VkAllocationCallbacks* allocator,
                                       VkPipeline* pipelines, const std::function<StageSource(VkComputePipelineCreateInfo&)>& source,
                                       const std::function<void(VkPipeline, const VkComputePipelineCreateInfo&, const Words&)>& compiled);

}  // namespace spy
