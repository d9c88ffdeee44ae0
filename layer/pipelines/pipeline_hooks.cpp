// vkCreateComputePipelines: stages whose code uses an emulated capability (a captured module, or
// maintenance5's VkShaderModuleCreateInfo inline in the stage) are lowered and reach the driver as a
// temporary module of the lowered words, on a deep copy of their create info pinned to the subgroup
// size the code was lowered for. Create infos that need nothing reach the driver as the
// application gave them; a call where none needs anything is passed down without a copy. A lowered
// stage the driver then fails to compile is reported, naming the shader: the code passed the
// lowering's checks, so the driver's result is all the application would see otherwise.
#include <format>
#include <optional>
#include <string>
#include <vector>

#include <vulkan/utility/vk_safe_struct.hpp>
#include <vulkan/utility/vk_safe_struct_utils.hpp>
#include <vulkan/utility/vk_struct_helper.hpp>
#include <vulkan/vk_enum_string_helper.h>

#include "core/device_data.h"
#include "core/hooks.h"
#include "pipelines/pipeline_batch.h"
#include "pipelines/pipeline_preparation.h"
#include "pipelines/shader_stage_lowering.h"

namespace vkpolyfill {

VkResult prepare_compute_pipeline(const DeviceData& data, const VkComputePipelineCreateInfo& info, uint32_t index,
                                  std::optional<vku::safe_VkComputePipelineCreateInfo>& copy, std::string& name,
                                  TemporaryModules& temporaries) {
    const DeviceShaders& shaders = *data.shaders;
    if (!stage_needs_lowering(shaders, info.stage)) return VK_SUCCESS;
    const StageCode code = stage_code(shaders, info.stage, index);
    name = code.name;
    const StageSubgroups subgroups = stage_subgroups(shaders.subgroup, info.stage.pNext);
    const LoweredStage lowered = lower_stage(data, code, {info.stage.pName, info.stage.pSpecializationInfo, subgroups.size});
    if (lowered.result != VK_SUCCESS) return lowered.result;
    copy.emplace(&info);
    vku::safe_VkPipelineShaderStageCreateInfo& stage = copy->stage;
    if (const VkResult result = use_lowered_code(*lowered.words, stage, temporaries); result != VK_SUCCESS) return result;
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

namespace hooks {
namespace {

VkResult create_with_lowering(const DeviceData& data, VkPipelineCache cache, std::span<const VkComputePipelineCreateInfo> infos,
                              const VkAllocationCallbacks* allocator, VkPipeline* pipelines) {
    const size_t count = infos.size();
    std::vector<std::optional<vku::safe_VkComputePipelineCreateInfo>> copies(count);
    std::vector<std::string> names(count);
    std::vector<VkResult> failures(count, VK_SUCCESS);
    TemporaryModules temporaries(data);
    const size_t end =
        prepare_all(infos, failures, [&](uint32_t i) { return prepare_compute_pipeline(data, infos[i], i, copies[i], names[i], temporaries); });
    const VkResult result =
        create_prepared(infos, copies, failures, end, pipelines, [&](uint32_t n, const VkComputePipelineCreateInfo* down, VkPipeline* out) {
            return data.next.CreateComputePipelines(data.device, cache, n, down, allocator, out);
        });
    if (result < 0) {
        for (size_t i = 0; i < end; ++i) {
            if (!copies[i] || failures[i] != VK_SUCCESS || pipelines[i] != VK_NULL_HANDLE) continue;
            data.instance->logger.log(
                LogLevel::Error, "vkpolyfill-pipeline",
                std::format("{}: error: the driver's vkCreateComputePipelines returned {} for the lowered code (which the "
                            "lowering checked{}), so the driver's own compiler failed on it (its limits or a "
                            "driver bug; a smaller kernel or tile may compile)",
                            names[i], string_VkResult(result), data.instance->settings.validate_output ? " and spirv-val accepted" : ""));
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
    return unless_out_of_memory(createInfoCount, pPipelines,
                                [&] { return create_with_lowering(data, pipelineCache, infos, pAllocator, pPipelines); });
}

}  // namespace hooks
}  // namespace vkpolyfill
