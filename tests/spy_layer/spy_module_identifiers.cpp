#include "spy_module_identifiers.h"

#include <cstring>
#include <map>
#include <mutex>
#include <string>

#include <vulkan/utility/vk_struct_helper.hpp>

#include "spy_modules.h"

namespace spy {
namespace {

using Identifier = std::string;  // the identifier's bytes

std::mutex g_mutex;
std::map<Identifier, Words> g_compiled;  // modules of the pipelines created so far, by identifier

Identifier identifier_of(std::span<const uint32_t> words) { return hash_name("spy:drv:", words); }

void write(const Identifier& identifier, VkShaderModuleIdentifierEXT* out) {
    out->identifierSize = static_cast<uint32_t>(identifier.size());
    std::memcpy(out->identifier, identifier.data(), identifier.size());
}

}  // namespace

void GetShaderModuleIdentifierEXT(VkDevice, VkShaderModule module, VkShaderModuleIdentifierEXT* identifier) {
    VkPipelineShaderStageCreateInfo stage = vku::InitStructHelper();
    stage.module = module;
    write(identifier_of(stage_words(stage)), identifier);
}

void GetShaderModuleCreateInfoIdentifierEXT(VkDevice, const VkShaderModuleCreateInfo* info, VkShaderModuleIdentifierEXT* identifier) {
    write(identifier_of(words_of(*info)), identifier);
}

VkResult create_compute_pipelines(PFN_vkCreateComputePipelines next, VkDevice device, VkPipelineCache cache, uint32_t count,
                                  const VkComputePipelineCreateInfo* infos, const VkAllocationCallbacks* allocator,
                                  VkPipeline* pipelines) {
    const auto from_cache = [](VkComputePipelineCreateInfo& info) -> StageSource {
        const auto* by_identifier = vku::FindStructInPNextChain<VkPipelineShaderStageModuleIdentifierCreateInfoEXT>(info.stage.pNext);
        if (info.stage.module != VK_NULL_HANDLE || by_identifier == nullptr || by_identifier->identifierSize == 0) return {};
        const Identifier wanted(reinterpret_cast<const char*>(by_identifier->pIdentifier), by_identifier->identifierSize);
        std::lock_guard lock(g_mutex);
        const auto found = g_compiled.find(wanted);
        if (found == g_compiled.end()) return {VK_PIPELINE_COMPILE_REQUIRED, {}};
        info.stage.pNext = nullptr;  // the driver's cache holds the code
        info.flags &= ~VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT;  // lavapipe has no cache to hit
        return {VK_SUCCESS, found->second};
    };
    return create_compute_pipelines_from(next, device, cache, count, infos, allocator, pipelines, from_cache,
                                         [](VkPipeline, const VkComputePipelineCreateInfo&, const Words& words) {
                                             std::lock_guard lock(g_mutex);
                                             g_compiled[identifier_of(words)] = words;
                                         });
}

}  // namespace spy
