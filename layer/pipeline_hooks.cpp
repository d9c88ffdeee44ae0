// vkCreateComputePipelines: stages whose code uses an emulated capability (a captured module, or
// maintenance5's VkShaderModuleCreateInfo inline in the stage) are lowered and reach the driver as a
// temporary module of the lowered words, on a deep copy of their create info pinned to the subgroup
// size the code was lowered for. Create infos that need nothing reach the driver as the
// application gave them; a call where none needs anything is passed down without a copy.
#include <format>
#include <optional>
#include <vector>

#include <vulkan/utility/vk_safe_struct.hpp>
#include <vulkan/utility/vk_safe_struct_utils.hpp>
#include <vulkan/utility/vk_struct_helper.hpp>

#include "device_data.h"
#include "hooks.h"
#include "shader_stage_lowering.h"

namespace vkpolyfill::hooks {
namespace {

const VkShaderModuleCreateInfo* inline_module(const VkPipelineShaderStageCreateInfo& stage) {
    return stage.module == VK_NULL_HANDLE ? vku::FindStructInPNextChain<VkShaderModuleCreateInfo>(stage.pNext) : nullptr;
}

bool stage_needs_lowering(const DeviceShaders& shaders, const VkPipelineShaderStageCreateInfo& stage) {
    if (stage.module != VK_NULL_HANDLE) return shaders.modules.contains(stage.module);
    const VkShaderModuleCreateInfo* code = inline_module(stage);
    return code != nullptr && shaders.needs_lowering(code_words(*code));
}

// How messages name inline code: maintenance5 lets the application name it with a chained
// VkDebugUtilsObjectNameInfoEXT.
std::string inline_module_name(const VkPipelineShaderStageCreateInfo& stage, uint32_t index) {
    auto* name = vku::FindStructInPNextChain<VkDebugUtilsObjectNameInfoEXT>(stage.pNext);
    if (name != nullptr && name->pObjectName != nullptr && *name->pObjectName != '\0') return name->pObjectName;
    return std::format("the inline VkShaderModuleCreateInfo of pCreateInfos[{}]", index);
}

StageCode stage_code(const DeviceShaders& shaders, const VkPipelineShaderStageCreateInfo& stage, uint32_t index) {
    if (stage.module != VK_NULL_HANDLE) {
        std::string name = shaders.modules.name(stage.module);
        return {shaders.modules.find(stage.module), name,
                {VK_OBJECT_TYPE_SHADER_MODULE, reinterpret_cast<uint64_t>(stage.module), name}};
    }
    return {capture(code_words(*inline_module(stage))), inline_module_name(stage, index), {}};
}

bool early_return_on_failure(const VkComputePipelineCreateInfo& info) {
    if (auto* flags2 = vku::FindStructInPNextChain<VkPipelineCreateFlags2CreateInfo>(info.pNext)) {
        return (flags2->flags & VK_PIPELINE_CREATE_2_EARLY_RETURN_ON_FAILURE_BIT) != 0;
    }
    return (info.flags & VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT) != 0;
}

// The driver's creation feedback, written into the copy's own structs, goes back to the application's.
void return_feedback(const VkComputePipelineCreateInfo& app, const vku::safe_VkComputePipelineCreateInfo& copy) {
    auto* to = vku::FindStructInPNextChain<VkPipelineCreationFeedbackCreateInfo>(app.pNext);
    auto* from = vku::FindStructInPNextChain<VkPipelineCreationFeedbackCreateInfo>(copy.pNext);
    if (to == nullptr || from == nullptr) return;
    *to->pPipelineCreationFeedback = *from->pPipelineCreationFeedback;
    for (uint32_t i = 0; i < std::min(to->pipelineStageCreationFeedbackCount, from->pipelineStageCreationFeedbackCount); ++i) {
        to->pPipelineStageCreationFeedbacks[i] = from->pPipelineStageCreationFeedbacks[i];
    }
}

// Modules of lowered code: the driver needs them only while it creates the pipelines.
class TemporaryModules {
  public:
    explicit TemporaryModules(const DeviceData& data) : data_(data) {}
    ~TemporaryModules() {
        for (VkShaderModule module : modules_) data_.next.DestroyShaderModule(data_.device, module, nullptr);
    }
    TemporaryModules(const TemporaryModules&) = delete;
    TemporaryModules& operator=(const TemporaryModules&) = delete;

    VkResult create(std::span<const uint32_t> words, VkShaderModule& module) {
        modules_.reserve(modules_.size() + 1);  // so push_back below cannot throw with a module in hand
        VkShaderModuleCreateInfo info = vku::InitStructHelper();
        info.codeSize = words.size_bytes();
        info.pCode = words.data();
        const VkResult result = data_.next.CreateShaderModule(data_.device, &info, nullptr, &module);
        if (result == VK_SUCCESS) modules_.push_back(module);
        return result;
    }

  private:
    const DeviceData& data_;
    std::vector<VkShaderModule> modules_;
};

// Lowers one create info's stage into `copy`; failures are logged by lower_stage.
VkResult prepare(const DeviceData& data, const VkComputePipelineCreateInfo& info, uint32_t index,
                 std::optional<vku::safe_VkComputePipelineCreateInfo>& copy, TemporaryModules& temporaries) {
    const DeviceShaders& shaders = *data.shaders;
    if (!stage_needs_lowering(shaders, info.stage)) return VK_SUCCESS;
    const StageCode code = stage_code(shaders, info.stage, index);
    const StageSubgroups subgroups = stage_subgroups(shaders.subgroup, info.stage.pNext);
    const LoweredStage lowered = lower_stage(data, code, {info.stage.pName, info.stage.pSpecializationInfo, subgroups.size});
    if (lowered.result != VK_SUCCESS) return lowered.result;
    VkShaderModule module = VK_NULL_HANDLE;
    if (const VkResult result = temporaries.create(*lowered.words, module); result != VK_SUCCESS) return result;

    copy.emplace(&info);
    vku::safe_VkPipelineShaderStageCreateInfo& stage = copy->stage;
    stage.module = module;
    vku::RemoveFromPnext(stage, VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
    if (subgroups.add_required_size) {
        VkPipelineShaderStageRequiredSubgroupSizeCreateInfo required = vku::InitStructHelper();
        required.requiredSubgroupSize = subgroups.size;
        vku::AddToPnext(stage, required);
        stage.flags &= ~VK_PIPELINE_SHADER_STAGE_CREATE_ALLOW_VARYING_SUBGROUP_SIZE_BIT;  // one of the sizes it allowed
    }
    if (can_require_full_subgroups(shaders.subgroup, *lowered.words, info.stage.pName, subgroups.size)) {
        stage.flags |= VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
    }
    return VK_SUCCESS;
}

VkResult create_with_lowering(const DeviceData& data, VkPipelineCache cache, std::span<const VkComputePipelineCreateInfo> infos,
                              const VkAllocationCallbacks* allocator, VkPipeline* pipelines) {
    const size_t count = infos.size();
    std::vector<std::optional<vku::safe_VkComputePipelineCreateInfo>> copies(count);
    std::vector<VkResult> failures(count, VK_SUCCESS);
    TemporaryModules temporaries(data);
    size_t end = count;  // past an early-return failure nothing is created
    for (uint32_t i = 0; i < end; ++i) {
        failures[i] = prepare(data, infos[i], i, copies[i], temporaries);
        if (failures[i] != VK_SUCCESS && early_return_on_failure(infos[i])) end = i + 1;
    }

    // The create infos that did not fail here, in order; a derivative's base index follows its base.
    std::vector<VkComputePipelineCreateInfo> down;
    std::vector<size_t> app_index;
    std::vector<int32_t> down_index(count, -1);
    for (size_t i = 0; i < end; ++i) {
        if (failures[i] != VK_SUCCESS) continue;
        down_index[i] = static_cast<int32_t>(down.size());
        down.push_back(copies[i] ? *copies[i]->ptr() : infos[i]);
        app_index.push_back(i);
    }
    for (VkComputePipelineCreateInfo& info : down) {
        if (info.basePipelineIndex < 0 || static_cast<size_t>(info.basePipelineIndex) >= count) continue;
        info.basePipelineIndex = down_index[static_cast<size_t>(info.basePipelineIndex)];
        if (info.basePipelineIndex < 0) info.flags &= ~VK_PIPELINE_CREATE_DERIVATIVE_BIT;  // its base failed
    }

    std::vector<VkPipeline> created(down.size(), VK_NULL_HANDLE);
    VkResult result = VK_SUCCESS;
    if (!down.empty()) {
        result = data.next.CreateComputePipelines(data.device, cache, static_cast<uint32_t>(down.size()), down.data(),
                                                  allocator, created.data());
    }
    std::fill(pipelines, pipelines + count, VK_NULL_HANDLE);
    for (size_t k = 0; k < down.size(); ++k) pipelines[app_index[k]] = created[k];
    for (size_t i = 0; i < count; ++i) {
        if (copies[i]) return_feedback(infos[i], *copies[i]);
    }
    // The layer's failure outranks the driver's success and its VK_PIPELINE_COMPILE_REQUIRED.
    if (result >= 0) {
        for (VkResult failure : failures) {
            if (failure != VK_SUCCESS) return failure;
        }
    }
    return result;
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL CreateComputePipelines(VkDevice device, VkPipelineCache pipelineCache, uint32_t createInfoCount,
                                                      const VkComputePipelineCreateInfo* pCreateInfos,
                                                      const VkAllocationCallbacks* pAllocator, VkPipeline* pPipelines) {
    const DeviceData& data = device_data(device);
    const std::span<const VkComputePipelineCreateInfo> infos(pCreateInfos, createInfoCount);
    const bool lowering = data.shaders && std::ranges::any_of(infos, [&](const VkComputePipelineCreateInfo& info) {
                              return stage_needs_lowering(*data.shaders, info.stage);
                          });
    if (!lowering) {
        if (data.shaders && data.instance->logger.enabled(LogLevel::Debug)) {
            data.instance->logger.log(LogLevel::Debug, "vkpolyfill-pipeline",
                                      std::format("vkCreateComputePipelines: {} create info(s) pass through (no emulated capability)",
                                                  createInfoCount));
        }
        return data.next.CreateComputePipelines(device, pipelineCache, createInfoCount, pCreateInfos, pAllocator, pPipelines);
    }
    try {
        return create_with_lowering(data, pipelineCache, infos, pAllocator, pPipelines);
    } catch (...) {  // allocation failed; the temporary modules are already destroyed
        std::fill(pPipelines, pPipelines + createInfoCount, VK_NULL_HANDLE);
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
}

}  // namespace vkpolyfill::hooks
