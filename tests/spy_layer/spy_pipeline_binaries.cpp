#include "spy_pipeline_binaries.h"

#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include <vulkan/utility/vk_struct_helper.hpp>

#include "spy_modules.h"

namespace spy {
namespace {

using Key = std::string;  // the key's bytes

struct Binary {
    Key key;
    Words words;
};

std::mutex g_mutex;
std::map<VkPipeline, Binary> g_pipelines;  // what each pipeline was compiled from
std::map<Key, Words> g_cache;              // the internal cache
std::map<VkPipelineBinaryKHR, Binary> g_binaries;
uint64_t g_next_handle = 1;

Key key_of(const Words& words, const char* entry_point) { return hash_name("spy:key:", words, entry_point ? entry_point : ""); }

// The compute create info behind a VkPipelineCreateInfoKHR; null for other pipelines.
const VkComputePipelineCreateInfo* compute_info(const VkPipelineCreateInfoKHR& info) {
    const auto* next = static_cast<const VkBaseInStructure*>(info.pNext);
    if (next == nullptr || next->sType != VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO) return nullptr;
    return reinterpret_cast<const VkComputePipelineCreateInfo*>(next);
}

void write_key(const Key& key, VkPipelineBinaryKeyKHR* out) {
    out->keySize = static_cast<uint32_t>(key.size());
    std::memcpy(out->key, key.data(), key.size());
}

// Creates `made` as binaries into `out` (the two-call idiom when its array is null).
VkResult hand_out(const std::vector<Binary>& made, VkPipelineBinaryHandlesInfoKHR* out) {
    if (out->pPipelineBinaries == nullptr) {
        out->pipelineBinaryCount = static_cast<uint32_t>(made.size());
        return VK_SUCCESS;
    }
    const uint32_t written = std::min<uint32_t>(out->pipelineBinaryCount, static_cast<uint32_t>(made.size()));
    std::lock_guard lock(g_mutex);
    for (uint32_t i = 0; i < written; ++i) {
        const auto handle = reinterpret_cast<VkPipelineBinaryKHR>(g_next_handle++);
        g_binaries[handle] = made[i];
        out->pPipelineBinaries[i] = handle;
    }
    out->pipelineBinaryCount = written;
    return written < made.size() ? VK_INCOMPLETE : VK_SUCCESS;
}

}  // namespace

VkResult GetPipelineKeyKHR(VkDevice, const VkPipelineCreateInfoKHR* info, VkPipelineBinaryKeyKHR* key) {
    if (info == nullptr) {
        write_key("spy:global", key);
        return VK_SUCCESS;
    }
    const VkComputePipelineCreateInfo* compute = compute_info(*info);
    if (compute == nullptr) return VK_ERROR_UNKNOWN;  // graphics: not played
    write_key(key_of(stage_words(compute->stage), compute->stage.pName), key);
    return VK_SUCCESS;
}

VkResult CreatePipelineBinariesKHR(VkDevice, const VkPipelineBinaryCreateInfoKHR* info, const VkAllocationCallbacks*,
                                   VkPipelineBinaryHandlesInfoKHR* binaries) {
    std::vector<Binary> made;
    if (info->pKeysAndDataInfo != nullptr) {
        const VkPipelineBinaryKeysAndDataKHR& given = *info->pKeysAndDataInfo;
        for (uint32_t i = 0; i < given.binaryCount; ++i) {
            const VkPipelineBinaryKeyKHR& key = given.pPipelineBinaryKeys[i];
            const VkPipelineBinaryDataKHR& data = given.pPipelineBinaryData[i];
            const auto* words = static_cast<const uint32_t*>(data.pData);
            made.push_back({Key(reinterpret_cast<const char*>(key.key), key.keySize), Words(words, words + data.dataSize / 4)});
        }
    } else if (info->pipeline != VK_NULL_HANDLE) {
        std::lock_guard lock(g_mutex);
        const auto found = g_pipelines.find(info->pipeline);
        if (found == g_pipelines.end()) return VK_ERROR_INITIALIZATION_FAILED;
        made.push_back(found->second);
    } else {
        const VkComputePipelineCreateInfo* compute = info->pPipelineCreateInfo ? compute_info(*info->pPipelineCreateInfo) : nullptr;
        if (compute == nullptr) return VK_ERROR_UNKNOWN;
        const Key key = key_of(stage_words(compute->stage), compute->stage.pName);
        std::lock_guard lock(g_mutex);
        const auto found = g_cache.find(key);
        if (found == g_cache.end()) return VK_PIPELINE_BINARY_MISSING_KHR;
        made.push_back({key, found->second});
    }
    return hand_out(made, binaries);
}

void DestroyPipelineBinaryKHR(VkDevice, VkPipelineBinaryKHR binary, const VkAllocationCallbacks*) {
    std::lock_guard lock(g_mutex);
    g_binaries.erase(binary);
}

VkResult GetPipelineBinaryDataKHR(VkDevice, const VkPipelineBinaryDataInfoKHR* info, VkPipelineBinaryKeyKHR* key, size_t* size,
                                  void* data) {
    std::lock_guard lock(g_mutex);
    const auto found = g_binaries.find(info->pipelineBinary);
    if (found == g_binaries.end()) return VK_ERROR_UNKNOWN;
    const Binary& binary = found->second;
    write_key(binary.key, key);
    const size_t bytes = binary.words.size() * sizeof(uint32_t);
    if (data == nullptr) {
        *size = bytes;
        return VK_SUCCESS;
    }
    if (*size < bytes) {
        *size = bytes;
        return VK_ERROR_NOT_ENOUGH_SPACE_KHR;
    }
    std::memcpy(data, binary.words.data(), bytes);
    *size = bytes;
    return VK_SUCCESS;
}

VkResult ReleaseCapturedPipelineDataKHR(VkDevice, const VkReleaseCapturedPipelineDataInfoKHR*, const VkAllocationCallbacks*) {
    return VK_SUCCESS;
}

VkResult create_compute_pipelines_with_binaries(PFN_vkCreateComputePipelines next, VkDevice device, VkPipelineCache cache,
                                                uint32_t count, const VkComputePipelineCreateInfo* infos,
                                                const VkAllocationCallbacks* allocator, VkPipeline* pipelines) {
    // Stage modules are ignored with binaries, as the extension says: the binary's code instead.
    const auto from_binaries = [](VkComputePipelineCreateInfo& info) -> StageSource {
        const auto* binaries = vku::FindStructInPNextChain<VkPipelineBinaryInfoKHR>(info.pNext);
        if (binaries == nullptr || binaries->binaryCount == 0) return {};
        std::lock_guard lock(g_mutex);
        const auto found = g_binaries.find(binaries->pPipelineBinaries[0]);
        if (found == g_binaries.end()) return {VK_ERROR_INITIALIZATION_FAILED, {}};
        return {VK_SUCCESS, found->second.words};
    };
    return create_compute_pipelines_from(next, device, cache, count, infos, allocator, pipelines, from_binaries,
                                         [](VkPipeline pipeline, const VkComputePipelineCreateInfo& info, const Words& words) {
                                             const Key key = key_of(words, info.stage.pName);
                                             std::lock_guard lock(g_mutex);
                                             g_pipelines[pipeline] = {key, words};
                                             g_cache[key] = words;
                                         });
}

}  // namespace spy
