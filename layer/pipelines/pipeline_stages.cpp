#include "pipelines/pipeline_stages.h"

#include <format>

#include <vulkan/utility/vk_safe_struct_utils.hpp>
#include <vulkan/utility/vk_struct_helper.hpp>

namespace vkpolyfill {
namespace {

const VkShaderModuleCreateInfo* inline_module(const VkPipelineShaderStageCreateInfo& stage) {
    return stage.module == VK_NULL_HANDLE ? vku::FindStructInPNextChain<VkShaderModuleCreateInfo>(stage.pNext) : nullptr;
}

// How messages name inline code: maintenance5 lets the application name it with a chained
// VkDebugUtilsObjectNameInfoEXT.
std::string inline_module_name(const VkPipelineShaderStageCreateInfo& stage, uint32_t index) {
    auto* name = vku::FindStructInPNextChain<VkDebugUtilsObjectNameInfoEXT>(stage.pNext);
    if (name != nullptr && name->pObjectName != nullptr && *name->pObjectName != '\0') return name->pObjectName;
    return std::format("the inline VkShaderModuleCreateInfo of pCreateInfos[{}]", index);
}

}  // namespace

bool stage_needs_lowering(const DeviceShaders& shaders, const VkPipelineShaderStageCreateInfo& stage) {
    if (stage.module != VK_NULL_HANDLE) return shaders.modules.contains(stage.module);
    const VkShaderModuleCreateInfo* code = inline_module(stage);
    return code != nullptr && shaders.needs_lowering(code_words(*code));
}

StageCode stage_code(const DeviceShaders& shaders, const VkPipelineShaderStageCreateInfo& stage, uint32_t index) {
    if (stage.module != VK_NULL_HANDLE) {
        std::string name = shaders.modules.name(stage.module);
        return {shaders.modules.find(stage.module), name,
                {VK_OBJECT_TYPE_SHADER_MODULE, reinterpret_cast<uint64_t>(stage.module), name}};
    }
    const VkShaderModuleCreateInfo* code = inline_module(stage);  // present: the stage needs lowering
    return {capture(code ? code_words(*code) : std::span<const uint32_t>()), inline_module_name(stage, index), {}};
}

TemporaryModules::~TemporaryModules() {
    for (VkShaderModule module : modules_) data_.next.DestroyShaderModule(data_.device, module, nullptr);
}

VkResult TemporaryModules::create(std::span<const uint32_t> words, VkShaderModule& module) {
    modules_.reserve(modules_.size() + 1);  // so push_back below cannot throw with a module in hand
    VkShaderModuleCreateInfo info = vku::InitStructHelper();
    info.codeSize = words.size_bytes();
    info.pCode = words.data();
    const VkResult result = data_.next.CreateShaderModule(data_.device, &info, nullptr, &module);
    if (result == VK_SUCCESS) modules_.push_back(module);
    return result;
}

VkResult use_lowered_code(std::span<const uint32_t> words, vku::safe_VkPipelineShaderStageCreateInfo& stage,
                          TemporaryModules& temporaries) {
    VkShaderModule module = VK_NULL_HANDLE;
    if (const VkResult result = temporaries.create(words, module); result != VK_SUCCESS) return result;
    stage.module = module;
    vku::RemoveFromPnext(stage, VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
    return VK_SUCCESS;
}

}  // namespace vkpolyfill
