#include "spy_module_identifiers.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <span>
#include <string>

#include <vulkan/utility/vk_struct_helper.hpp>

namespace spy {
namespace {

using Words = std::vector<uint32_t>;
using Identifier = std::string;  // the identifier's bytes

std::mutex g_mutex;
std::map<VkShaderModule, Words> g_modules;
std::map<Identifier, Words> g_compiled;  // modules of the pipelines created so far, by identifier

Identifier identifier_of(std::span<const uint32_t> words) {
    uint64_t hash = 0xcbf29ce484222325u;  // FNV-1a over the words
    for (uint32_t word : words) hash = (hash ^ word) * 0x100000001b3u;
    return std::string("spy:drv:") + std::string(reinterpret_cast<const char*>(&hash), sizeof(hash));
}

void write(const Identifier& identifier, VkShaderModuleIdentifierEXT* out) {
    out->identifierSize = static_cast<uint32_t>(identifier.size());
    std::memcpy(out->identifier, identifier.data(), identifier.size());
}

std::span<const uint32_t> words_of(const VkShaderModuleCreateInfo& info) { return {info.pCode, info.codeSize / sizeof(uint32_t)}; }

// The words of a stage's module or inline code; empty for a stage given by identifier.
Words stage_words(const VkPipelineShaderStageCreateInfo& stage) {
    std::lock_guard lock(g_mutex);
    if (stage.module != VK_NULL_HANDLE) {
        const auto found = g_modules.find(stage.module);
        return found == g_modules.end() ? Words{} : found->second;
    }
    const auto* inline_code = vku::FindStructInPNextChain<VkShaderModuleCreateInfo>(stage.pNext);
    if (inline_code == nullptr) return {};
    const auto words = words_of(*inline_code);
    return {words.begin(), words.end()};
}

}  // namespace

bool plays_module_identifiers() { return std::getenv("VKPOLYFILL_SPY_MODULE_IDENTIFIERS") != nullptr; }

VkResult list_with_module_identifier(PFN_vkEnumerateDeviceExtensionProperties next, VkPhysicalDevice physical_device,
                                     uint32_t* count, VkExtensionProperties* properties) {
    uint32_t driver_count = 0;
    VkResult result = next(physical_device, nullptr, &driver_count, nullptr);
    if (result != VK_SUCCESS) return result;
    std::vector<VkExtensionProperties> all(driver_count);
    result = next(physical_device, nullptr, &driver_count, all.data());
    if (result != VK_SUCCESS) return result;
    all.resize(driver_count);
    VkExtensionProperties added{};
    std::strcpy(added.extensionName, VK_EXT_SHADER_MODULE_IDENTIFIER_EXTENSION_NAME);
    added.specVersion = VK_EXT_SHADER_MODULE_IDENTIFIER_SPEC_VERSION;
    all.push_back(added);
    if (properties == nullptr) {
        *count = static_cast<uint32_t>(all.size());
        return VK_SUCCESS;
    }
    const uint32_t written = std::min<uint32_t>(*count, static_cast<uint32_t>(all.size()));
    std::copy_n(all.begin(), written, properties);
    *count = written;
    return written < all.size() ? VK_INCOMPLETE : VK_SUCCESS;
}

std::vector<const char*> without_module_identifier(const VkDeviceCreateInfo& info) {
    std::vector<const char*> names;
    for (uint32_t i = 0; i < info.enabledExtensionCount; ++i) {
        if (std::strcmp(info.ppEnabledExtensionNames[i], VK_EXT_SHADER_MODULE_IDENTIFIER_EXTENSION_NAME) != 0) {
            names.push_back(info.ppEnabledExtensionNames[i]);
        }
    }
    return names;
}

void note_module(VkShaderModule module, const VkShaderModuleCreateInfo& info) {
    const auto words = words_of(info);
    std::lock_guard lock(g_mutex);
    g_modules[module] = Words(words.begin(), words.end());
}

void GetShaderModuleIdentifierEXT(VkDevice, VkShaderModule module, VkShaderModuleIdentifierEXT* identifier) {
    std::lock_guard lock(g_mutex);
    const auto found = g_modules.find(module);
    write(identifier_of(found == g_modules.end() ? Words{} : found->second), identifier);
}

void GetShaderModuleCreateInfoIdentifierEXT(VkDevice, const VkShaderModuleCreateInfo* info, VkShaderModuleIdentifierEXT* identifier) {
    write(identifier_of(words_of(*info)), identifier);
}

VkResult create_compute_pipelines(PFN_vkCreateComputePipelines next, VkDevice device, VkPipelineCache cache, uint32_t count,
                                  const VkComputePipelineCreateInfo* infos, const VkAllocationCallbacks* allocator,
                                  VkPipeline* pipelines) {
    VkResult result = VK_SUCCESS;
    for (uint32_t i = 0; i < count; ++i) {
        VkComputePipelineCreateInfo info = infos[i];
        VkShaderModuleCreateInfo cached = vku::InitStructHelper();
        Words cached_words;
        const auto* by_identifier = vku::FindStructInPNextChain<VkPipelineShaderStageModuleIdentifierCreateInfoEXT>(info.stage.pNext);
        if (info.stage.module == VK_NULL_HANDLE && by_identifier != nullptr && by_identifier->identifierSize != 0) {
            const Identifier wanted(reinterpret_cast<const char*>(by_identifier->pIdentifier), by_identifier->identifierSize);
            {
                std::lock_guard lock(g_mutex);
                if (const auto found = g_compiled.find(wanted); found != g_compiled.end()) cached_words = found->second;
            }
            if (cached_words.empty()) {
                pipelines[i] = VK_NULL_HANDLE;
                result = VK_PIPELINE_COMPILE_REQUIRED;
                continue;
            }
            cached.codeSize = cached_words.size() * sizeof(uint32_t);
            cached.pCode = cached_words.data();
            info.stage.pNext = &cached;  // the driver's cache holds the code
            info.flags &= ~VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT;  // lavapipe has no cache to hit
        }
        const Words words = stage_words(info.stage);
        const VkResult one = next(device, cache, 1, &info, allocator, &pipelines[i]);
        if (one != VK_SUCCESS) {
            result = one;
            continue;
        }
        std::lock_guard lock(g_mutex);
        g_compiled[identifier_of(words)] = words;
    }
    return result;
}

}  // namespace spy
