// vkCreateRayTracingPipelinesKHR on devices that lower shaders: stages whose code uses an emulated
// capability (long composites, tensors) are lowered at the device's subgroup size and reach the
// driver as temporary modules, on a deep copy of their create info, as in graphics pipelines. The
// temporary modules must outlive the driver's work, so a call that lowers something is not deferred:
// the driver gets no deferred operation, and a success is VK_OPERATION_NOT_DEFERRED_KHR where the
// application gave one (an implementation may always decline to defer).
#include <optional>
#include <vector>

#include "core/device_data.h"
#include "core/hooks.h"
#include "pipelines/pipeline_batch.h"
#include "pipelines/pipeline_preparation.h"

namespace vkpolyfill {

VkResult prepare_ray_tracing_pipeline(const DeviceData& data, const VkRayTracingPipelineCreateInfoKHR& info, uint32_t index,
                                      std::optional<vku::safe_VkRayTracingPipelineCreateInfoKHR>& copy, TemporaryModules& temporaries) {
    const DeviceShaders& shaders = *data.shaders;
    for (uint32_t s = 0; s < info.stageCount; ++s) {
        const VkPipelineShaderStageCreateInfo& stage = info.pStages[s];
        if (!stage_needs_lowering(shaders, stage)) continue;
        if (!copy) copy.emplace(&info);
        const LoweredStage lowered =
            lower_stage(data, stage_code(shaders, stage, index), {stage.pName, stage.pSpecializationInfo, shaders.subgroup.size});
        if (lowered.result != VK_SUCCESS) return lowered.result;
        if (const VkResult result = use_lowered_code(*lowered.words, copy->pStages[s], temporaries); result != VK_SUCCESS) return result;
    }
    return VK_SUCCESS;
}

namespace hooks {

VKAPI_ATTR VkResult VKAPI_CALL CreateRayTracingPipelinesKHR(VkDevice device, VkDeferredOperationKHR deferredOperation,
                                                            VkPipelineCache pipelineCache, uint32_t createInfoCount,
                                                            const VkRayTracingPipelineCreateInfoKHR* pCreateInfos,
                                                            const VkAllocationCallbacks* pAllocator, VkPipeline* pPipelines) {
    const DeviceData& data = device_data(device);
    const std::span<const VkRayTracingPipelineCreateInfoKHR> infos(pCreateInfos, createInfoCount);
    const bool lowering = data.shaders && any_stage_needs_lowering(*data.shaders, infos);
    if (!lowering) {
        return data.next.CreateRayTracingPipelinesKHR(device, deferredOperation, pipelineCache, createInfoCount, pCreateInfos,
                                                      pAllocator, pPipelines);
    }
    return unless_out_of_memory(createInfoCount, pPipelines, [&] {
        std::vector<std::optional<vku::safe_VkRayTracingPipelineCreateInfoKHR>> copies(infos.size());
        std::vector<VkResult> failures(infos.size(), VK_SUCCESS);
        TemporaryModules temporaries(data);
        const size_t end = prepare_all(infos, failures, [&](uint32_t i) {
            return prepare_ray_tracing_pipeline(data, infos[i], i, copies[i], temporaries);
        });
        const VkResult result = create_prepared(infos, copies, failures, end, pPipelines,
                                                [&](uint32_t n, const VkRayTracingPipelineCreateInfoKHR* down, VkPipeline* out) {
                                                    return data.next.CreateRayTracingPipelinesKHR(device, VK_NULL_HANDLE, pipelineCache, n,
                                                                                                  down, pAllocator, out);
                                                });
        return deferredOperation != VK_NULL_HANDLE && result == VK_SUCCESS ? VK_OPERATION_NOT_DEFERRED_KHR : result;
    });
}

}  // namespace hooks
}  // namespace vkpolyfill
