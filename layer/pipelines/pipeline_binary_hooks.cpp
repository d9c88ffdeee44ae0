// VK_KHR_pipeline_binary, where the driver has it. A key names the pipeline the driver compiles; for a
// create info whose stages the layer lowers, the driver would see the placeholder every kept module
// shares, key them all alike, and an application's key-addressed store would hand one pipeline's
// binary to another. vkGetPipelineKeyKHR and vkCreatePipelineBinariesKHR's internal-cache lookup
// (pPipelineCreateInfo) therefore get the create info as vkCreate*Pipelines passes it down: lowered
// modules, pinned subgroup size, the layer's pipeline layout (compute, graphics and ray-tracing
// pipelines alike). Binaries from a pipeline or from data need nothing: the driver made them from
// what it compiled. Pipelines created from binaries are prepared as always (the driver ignores their
// modules, but not the rest the layer rewrites).
#include <optional>
#include <string>

#include "core/device_data.h"
#include "core/hooks.h"
#include "pipelines/pipeline_preparation.h"

namespace vkpolyfill::hooks {
namespace {

// Calls `down(info)` with `info` as the driver sees it at pipeline creation; a stage that fails to
// lower fails the call (logged, naming the shader), as it would fail the pipeline.
template <typename Down>
VkResult as_created(const DeviceData& data, const VkPipelineCreateInfoKHR& info, Down down) noexcept {
    const auto* pipeline = static_cast<const VkBaseInStructure*>(info.pNext);
    if (!data.shaders || pipeline == nullptr) return down(info);
    try {
        TemporaryModules temporaries(data);
        // `down` with the pipeline create info rewritten where preparing it copied it.
        const auto down_with = [&](const void* copy) {
            VkPipelineCreateInfoKHR lowered = info;
            if (copy != nullptr) lowered.pNext = const_cast<void*>(copy);
            return down(lowered);
        };
        switch (pipeline->sType) {
            case VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO: {
                std::optional<vku::safe_VkComputePipelineCreateInfo> copy;
                std::string name;
                const auto& compute = *reinterpret_cast<const VkComputePipelineCreateInfo*>(pipeline);
                const VkResult result = prepare_compute_pipeline(data, compute, 0, copy, name, temporaries);
                return result != VK_SUCCESS ? result : down_with(copy ? copy->ptr() : nullptr);
            }
            case VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO: {
                PreparedGraphicsPipeline prepared;
                const auto& graphics = *reinterpret_cast<const VkGraphicsPipelineCreateInfo*>(pipeline);
                const VkResult result = prepare_graphics_pipeline(data, graphics, 0, prepared, temporaries);
                return result != VK_SUCCESS ? result : down_with(prepared.copy ? prepared.copy->ptr() : nullptr);
            }
            case VK_STRUCTURE_TYPE_RAY_TRACING_PIPELINE_CREATE_INFO_KHR: {
                std::optional<vku::safe_VkRayTracingPipelineCreateInfoKHR> copy;
                const auto& ray_tracing = *reinterpret_cast<const VkRayTracingPipelineCreateInfoKHR*>(pipeline);
                const VkResult result = prepare_ray_tracing_pipeline(data, ray_tracing, 0, copy, temporaries);
                return result != VK_SUCCESS ? result : down_with(copy ? copy->ptr() : nullptr);
            }
            default:
                return down(info);
        }
    } catch (...) {
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL GetPipelineKeyKHR(VkDevice device, const VkPipelineCreateInfoKHR* pPipelineCreateInfo,
                                                 VkPipelineBinaryKeyKHR* pPipelineKey) {
    const DeviceData& data = device_data(device);
    if (pPipelineCreateInfo == nullptr) return data.next.GetPipelineKeyKHR(device, nullptr, pPipelineKey);  // the global key
    return as_created(data, *pPipelineCreateInfo, [&](const VkPipelineCreateInfoKHR& info) {
        return data.next.GetPipelineKeyKHR(device, &info, pPipelineKey);
    });
}

VKAPI_ATTR VkResult VKAPI_CALL CreatePipelineBinariesKHR(VkDevice device, const VkPipelineBinaryCreateInfoKHR* pCreateInfo,
                                                         const VkAllocationCallbacks* pAllocator,
                                                         VkPipelineBinaryHandlesInfoKHR* pBinaries) {
    const DeviceData& data = device_data(device);
    if (pCreateInfo->pPipelineCreateInfo == nullptr) return data.next.CreatePipelineBinariesKHR(device, pCreateInfo, pAllocator, pBinaries);
    return as_created(data, *pCreateInfo->pPipelineCreateInfo, [&](const VkPipelineCreateInfoKHR& info) {
        VkPipelineBinaryCreateInfoKHR down = *pCreateInfo;
        down.pPipelineCreateInfo = &info;
        return data.next.CreatePipelineBinariesKHR(device, &down, pAllocator, pBinaries);
    });
}

}  // namespace vkpolyfill::hooks
