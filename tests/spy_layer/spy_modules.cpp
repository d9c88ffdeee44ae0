#include "spy_modules.h"

#include <map>
#include <mutex>

#include <vulkan/utility/vk_struct_helper.hpp>

namespace spy {
namespace {

std::mutex g_mutex;
std::map<VkShaderModule, Words> g_modules;

}  // namespace

void note_module(VkShaderModule module, const VkShaderModuleCreateInfo& info) {
    const auto words = words_of(info);
    std::lock_guard lock(g_mutex);
    g_modules[module] = Words(words.begin(), words.end());
}

std::span<const uint32_t> words_of(const VkShaderModuleCreateInfo& info) { return {info.pCode, info.codeSize / sizeof(uint32_t)}; }

Words stage_words(const VkPipelineShaderStageCreateInfo& stage) {
    if (stage.module != VK_NULL_HANDLE) {
        std::lock_guard lock(g_mutex);
        const auto found = g_modules.find(stage.module);
        return found == g_modules.end() ? Words{} : found->second;
    }
    const auto* inline_code = vku::FindStructInPNextChain<VkShaderModuleCreateInfo>(stage.pNext);
    if (inline_code == nullptr) return {};
    const auto words = words_of(*inline_code);
    return {words.begin(), words.end()};
}

std::string hash_name(const char* tag, std::span<const uint32_t> words, const std::string& more) {
    uint64_t hash = 0xcbf29ce484222325u;
    for (uint32_t word : words) hash = (hash ^ word) * 0x100000001b3u;
    for (char c : more) hash = (hash ^ static_cast<uint8_t>(c)) * 0x100000001b3u;
    return std::string(tag) + std::string(reinterpret_cast<const char*>(&hash), sizeof(hash));
}

VkResult create_compute_pipelines_from(PFN_vkCreateComputePipelines next, VkDevice device, VkPipelineCache cache, uint32_t count,
                                       const VkComputePipelineCreateInfo* infos, const VkAllocationCallbacks* allocator,
                                       VkPipeline* pipelines, const std::function<StageSource(VkComputePipelineCreateInfo&)>& source,
                                       const std::function<void(VkPipeline, const VkComputePipelineCreateInfo&, const Words&)>& compiled) {
    VkResult result = VK_SUCCESS;
    for (uint32_t i = 0; i < count; ++i) {
        VkComputePipelineCreateInfo info = infos[i];
        const StageSource instead = source(info);
        if (instead.result != VK_SUCCESS) {
            pipelines[i] = VK_NULL_HANDLE;
            result = instead.result;
            continue;
        }
        VkShaderModuleCreateInfo code = vku::InitStructHelper(const_cast<void*>(info.stage.pNext));
        if (!instead.words.empty()) {
            code.codeSize = instead.words.size() * sizeof(uint32_t);
            code.pCode = instead.words.data();
            info.stage.module = VK_NULL_HANDLE;
            info.stage.pNext = &code;
        }
        const Words words = stage_words(info.stage);
        const VkResult one = next(device, cache, 1, &info, allocator, &pipelines[i]);
        if (one != VK_SUCCESS) {
            result = one;
            continue;
        }
        compiled(pipelines[i], info, words);
    }
    return result;
}

}  // namespace spy
