// Commands on devices emulating tensors: vkCmdCopyTensorARM, tensor barriers in vkCmdPipelineBarrier2,
// and what the compute path of copies must restore (compute pipeline, descriptor sets, pushes and
// descriptor-buffer offsets, push constants), tracked from the application's own commands. Each hook hands the command on to the
// tile-image emulation's hook where that is active too.
#include <format>

#include <vulkan/utility/vk_safe_struct.hpp>
#include <vulkan/utility/vk_safe_struct_utils.hpp>
#include <vulkan/utility/vk_struct_helper.hpp>

#include "core/device_data.h"
#include "core/hooks.h"
#include "tensors/tensor_copy.h"

namespace vkpolyfill::hooks {
namespace {

void dispatch_region(VkCommandBuffer command_buffer, const VkuDeviceDispatchTable& next, VkPipelineLayout layout,
                     const VkPhysicalDeviceLimits& limits, const TensorCopyRegion& region) {
    next.CmdPushConstants(command_buffer, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(region), &region);
    const uint64_t groups = (uint64_t{region.count} + 63) / 64;  // the shader's workgroup is 64 invocations
    const uint64_t x = std::min<uint64_t>(groups, limits.maxComputeWorkGroupCount[0]);
    next.CmdDispatch(command_buffer, static_cast<uint32_t>(x), static_cast<uint32_t>((groups + x - 1) / x), 1);
}

}  // namespace

VKAPI_ATTR void VKAPI_CALL CmdCopyTensorARM(VkCommandBuffer commandBuffer, const VkCopyTensorInfoARM* pCopyTensorInfo) {
    const DeviceData& data = device_data(commandBuffer);
    if (!data.tensors) return;
    TensorDevice& tensors = *data.tensors;
    const std::shared_ptr<const Tensor> source = tensors.tensors.find(pCopyTensorInfo->srcTensor);
    const std::shared_ptr<const Tensor> destination = tensors.tensors.find(pCopyTensorInfo->dstTensor);
    if (std::string problem = check_copy(*pCopyTensorInfo, source.get(), destination.get()); !problem.empty()) {
        tensors.report("vkCmdCopyTensorARM: " + problem + "; nothing was recorded");
        return;
    }
    try {
        std::vector<VkBufferCopy> buffer_regions;
        std::vector<TensorCopyRegion> compute_regions;
        for (uint32_t r = 0; r < pCopyTensorInfo->regionCount; ++r) {
            const CopyPlan plan = plan_copy(pCopyTensorInfo->pRegions[r], *source, *destination);
            if (plan.as_buffer_copy()) {
                plan.buffer_regions(buffer_regions);
            } else {
                compute_regions.push_back(plan.compute_region());
            }
        }
        if (!buffer_regions.empty()) {
            data.next.CmdCopyBuffer(commandBuffer, source->buffer, destination->buffer, static_cast<uint32_t>(buffer_regions.size()),
                                    buffer_regions.data());
        }
        if (compute_regions.empty()) return;
        const VkPipeline pipeline = tensors.copy_pipelines.pipeline(source->layout.element_size);
        if (pipeline == VK_NULL_HANDLE || source->copy_set == VK_NULL_HANDLE || destination->copy_set == VK_NULL_HANDLE) {
            tensors.report(std::format("vkCmdCopyTensorARM: the driver refused the layer's copy pipeline or descriptor sets; {} of {} "
                                       "regions were not recorded", compute_regions.size(), pCopyTensorInfo->regionCount));
            return;
        }
        const VkDescriptorSet sets[] = {source->copy_set, destination->copy_set};
        data.next.CmdBindPipeline(commandBuffer, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
        data.next.CmdBindDescriptorSets(commandBuffer, VK_PIPELINE_BIND_POINT_COMPUTE, tensors.copy_pipelines.layout(), 0, 2, sets, 0, nullptr);
        for (const TensorCopyRegion& region : compute_regions) {
            dispatch_region(commandBuffer, data.next, tensors.copy_pipelines.layout(), tensors.facts.properties.limits, region);
        }
        if (const ComputeState* state = tensors.command_buffers.find(commandBuffer)) state->restore(commandBuffer, data.next);
    } catch (...) {
        tensors.report("vkCmdCopyTensorARM: out of host memory; the copy was not recorded");
    }
}

namespace {

// The dependency as the driver must see it: every tensor barrier a barrier on the tensor's buffer.
void tensor_barrier2(VkCommandBuffer command_buffer, const VkDependencyInfo* info, PFN_vkCmdPipelineBarrier2 down,
                     void (*tile_image_hook)(VkCommandBuffer, const VkDependencyInfo*)) {
    const DeviceData& data = device_data(command_buffer);
    auto pass_on = [&](const VkDependencyInfo* dependency) {
        if (data.tile_image) return tile_image_hook(command_buffer, dependency);
        down(command_buffer, dependency);
    };
    const auto* single = vku::FindStructInPNextChain<VkTensorMemoryBarrierARM>(info->pNext);
    const auto* many = vku::FindStructInPNextChain<VkTensorDependencyInfoARM>(info->pNext);
    if (!data.tensors || (single == nullptr && many == nullptr)) return pass_on(info);
    try {
        std::vector<VkBufferMemoryBarrier2> buffers(info->pBufferMemoryBarriers, info->pBufferMemoryBarriers + info->bufferMemoryBarrierCount);
        auto add = [&](const VkTensorMemoryBarrierARM& barrier) {
            const std::shared_ptr<const Tensor> tensor = data.tensors->tensors.find(barrier.tensor);
            if (tensor == nullptr) {
                data.tensors->report("vkCmdPipelineBarrier2: VkTensorMemoryBarrierARM::tensor (" + describe_tensor(barrier.tensor) +
                                     ") is not a tensor of this device; the barrier on it was dropped");
                return;
            }
            VkBufferMemoryBarrier2 buffer = vku::InitStructHelper();
            buffer.srcStageMask = barrier.srcStageMask;
            buffer.srcAccessMask = barrier.srcAccessMask;
            buffer.dstStageMask = barrier.dstStageMask;
            buffer.dstAccessMask = barrier.dstAccessMask;
            buffer.srcQueueFamilyIndex = barrier.srcQueueFamilyIndex;
            buffer.dstQueueFamilyIndex = barrier.dstQueueFamilyIndex;
            buffer.buffer = tensor->buffer;
            buffer.offset = 0;
            buffer.size = VK_WHOLE_SIZE;
            buffers.push_back(buffer);
        };
        if (single) add(*single);
        if (many) {
            for (uint32_t i = 0; i < many->tensorMemoryBarrierCount; ++i) add(many->pTensorMemoryBarriers[i]);
        }
        vku::safe_VkDependencyInfo copy(info);
        vku::RemoveFromPnext(copy, VK_STRUCTURE_TYPE_TENSOR_MEMORY_BARRIER_ARM);
        vku::RemoveFromPnext(copy, VK_STRUCTURE_TYPE_TENSOR_DEPENDENCY_INFO_ARM);
        VkDependencyInfo translated = *info;
        translated.pNext = copy.pNext;
        translated.bufferMemoryBarrierCount = static_cast<uint32_t>(buffers.size());
        translated.pBufferMemoryBarriers = buffers.data();
        pass_on(&translated);
    } catch (...) {
        data.tensors->report("vkCmdPipelineBarrier2: out of host memory; the barrier was not recorded");
    }
}

}  // namespace

VKAPI_ATTR void VKAPI_CALL TensorCmdPipelineBarrier2(VkCommandBuffer commandBuffer, const VkDependencyInfo* pDependencyInfo) {
    tensor_barrier2(commandBuffer, pDependencyInfo, device_data(commandBuffer).next.CmdPipelineBarrier2, CmdPipelineBarrier2);
}

VKAPI_ATTR void VKAPI_CALL TensorCmdPipelineBarrier2KHR(VkCommandBuffer commandBuffer, const VkDependencyInfo* pDependencyInfo) {
    tensor_barrier2(commandBuffer, pDependencyInfo, device_data(commandBuffer).next.CmdPipelineBarrier2KHR, CmdPipelineBarrier2KHR);
}

VKAPI_ATTR void VKAPI_CALL TensorCmdBindPipeline(VkCommandBuffer commandBuffer, VkPipelineBindPoint pipelineBindPoint, VkPipeline pipeline) {
    const DeviceData& data = device_data(commandBuffer);
    if (data.tensors && pipelineBindPoint == VK_PIPELINE_BIND_POINT_COMPUTE) data.tensors->command_buffers.at(commandBuffer).bind_pipeline(pipeline);
    if (data.tile_image) return CmdBindPipeline(commandBuffer, pipelineBindPoint, pipeline);
    data.next.CmdBindPipeline(commandBuffer, pipelineBindPoint, pipeline);
}

VKAPI_ATTR void VKAPI_CALL TensorCmdBindDescriptorSets(VkCommandBuffer commandBuffer, VkPipelineBindPoint pipelineBindPoint,
                                                       VkPipelineLayout layout, uint32_t firstSet, uint32_t descriptorSetCount,
                                                       const VkDescriptorSet* pDescriptorSets, uint32_t dynamicOffsetCount,
                                                       const uint32_t* pDynamicOffsets) {
    const DeviceData& data = device_data(commandBuffer);
    if (data.tensors && pipelineBindPoint == VK_PIPELINE_BIND_POINT_COMPUTE) {
        try {
            data.tensors->command_buffers.at(commandBuffer)
                .bind_sets(layout, firstSet, {pDescriptorSets, descriptorSetCount}, {pDynamicOffsets, dynamicOffsetCount});
        } catch (...) {
            data.tensors->report("vkCmdBindDescriptorSets: out of host memory; a later tensor copy will not restore these sets");
        }
    }
    if (data.tile_image) {
        return CmdBindDescriptorSets(commandBuffer, pipelineBindPoint, layout, firstSet, descriptorSetCount, pDescriptorSets,
                                     dynamicOffsetCount, pDynamicOffsets);
    }
    data.next.CmdBindDescriptorSets(commandBuffer, pipelineBindPoint, layout, firstSet, descriptorSetCount, pDescriptorSets,
                                    dynamicOffsetCount, pDynamicOffsets);
}

namespace {

// The maintenance6 forms: a bind at the compute stage is recorded like vkCmdBindDescriptorSets (a
// layout given only through a chained VkPipelineLayoutCreateInfo cannot be replayed and is not).
void bind_descriptor_sets2(VkCommandBuffer command_buffer, const VkBindDescriptorSetsInfo* info, PFN_vkCmdBindDescriptorSets2 down) {
    const DeviceData& data = device_data(command_buffer);
    if (data.tensors && (info->stageFlags & VK_SHADER_STAGE_COMPUTE_BIT) && info->layout != VK_NULL_HANDLE) {
        try {
            data.tensors->command_buffers.at(command_buffer)
                .bind_sets(info->layout, info->firstSet, {info->pDescriptorSets, info->descriptorSetCount},
                           {info->pDynamicOffsets, info->dynamicOffsetCount});
        } catch (...) {
            data.tensors->report("vkCmdBindDescriptorSets2: out of host memory; a later tensor copy will not restore these sets");
        }
    }
    down(command_buffer, info);
}

void push_constants2(VkCommandBuffer command_buffer, const VkPushConstantsInfo* info, PFN_vkCmdPushConstants2 down) {
    const DeviceData& data = device_data(command_buffer);
    if (data.tensors && info->layout != VK_NULL_HANDLE) {
        try {
            data.tensors->command_buffers.at(command_buffer)
                .push_constants(info->layout, info->stageFlags, info->offset, {static_cast<const std::byte*>(info->pValues), info->size});
        } catch (...) {
            data.tensors->report("vkCmdPushConstants2: out of host memory; a later tensor copy will not restore these constants");
        }
    }
    down(command_buffer, info);
}

}  // namespace

VKAPI_ATTR void VKAPI_CALL CmdBindDescriptorSets2(VkCommandBuffer commandBuffer, const VkBindDescriptorSetsInfo* pBindDescriptorSetsInfo) {
    bind_descriptor_sets2(commandBuffer, pBindDescriptorSetsInfo, device_data(commandBuffer).next.CmdBindDescriptorSets2);
}

VKAPI_ATTR void VKAPI_CALL CmdBindDescriptorSets2KHR(VkCommandBuffer commandBuffer, const VkBindDescriptorSetsInfo* pBindDescriptorSetsInfo) {
    bind_descriptor_sets2(commandBuffer, pBindDescriptorSetsInfo, device_data(commandBuffer).next.CmdBindDescriptorSets2KHR);
}

VKAPI_ATTR void VKAPI_CALL CmdPushConstants2(VkCommandBuffer commandBuffer, const VkPushConstantsInfo* pPushConstantsInfo) {
    push_constants2(commandBuffer, pPushConstantsInfo, device_data(commandBuffer).next.CmdPushConstants2);
}

VKAPI_ATTR void VKAPI_CALL CmdPushConstants2KHR(VkCommandBuffer commandBuffer, const VkPushConstantsInfo* pPushConstantsInfo) {
    push_constants2(commandBuffer, pPushConstantsInfo, device_data(commandBuffer).next.CmdPushConstants2KHR);
}

VKAPI_ATTR void VKAPI_CALL CmdPushConstants(VkCommandBuffer commandBuffer, VkPipelineLayout layout, VkShaderStageFlags stageFlags,
                                            uint32_t offset, uint32_t size, const void* pValues) {
    const DeviceData& data = device_data(commandBuffer);
    if (!data.tensors) return data.next.CmdPushConstants(commandBuffer, layout, stageFlags, offset, size, pValues);
    try {
        data.tensors->command_buffers.at(commandBuffer)
            .push_constants(layout, stageFlags, offset, {static_cast<const std::byte*>(pValues), size});
    } catch (...) {
        data.tensors->report("vkCmdPushConstants: out of host memory; a later tensor copy will not restore these constants");
    }
    data.next.CmdPushConstants(commandBuffer, layout, stageFlags, offset, size, pValues);
}

namespace {

// Descriptor-buffer offsets at the compute bind point: a compute copy's descriptor sets invalidate them.
void keep_buffer_offsets(VkCommandBuffer command_buffer, VkPipelineLayout layout, uint32_t first, uint32_t count, const uint32_t* indices,
                         const VkDeviceSize* offsets) {
    const DeviceData& data = device_data(command_buffer);
    if (!data.tensors || layout == VK_NULL_HANDLE) return;
    try {
        data.tensors->command_buffers.at(command_buffer).set_buffer_offsets(layout, first, {indices, count}, {offsets, count});
    } catch (...) {
        data.tensors->report("vkCmdSetDescriptorBufferOffsetsEXT: out of host memory; a later tensor copy will not restore these offsets");
    }
}

}  // namespace

VKAPI_ATTR void VKAPI_CALL CmdSetDescriptorBufferOffsetsEXT(VkCommandBuffer commandBuffer, VkPipelineBindPoint pipelineBindPoint,
                                                            VkPipelineLayout layout, uint32_t firstSet, uint32_t setCount,
                                                            const uint32_t* pBufferIndices, const VkDeviceSize* pOffsets) {
    if (pipelineBindPoint == VK_PIPELINE_BIND_POINT_COMPUTE) {
        keep_buffer_offsets(commandBuffer, layout, firstSet, setCount, pBufferIndices, pOffsets);
    }
    device_data(commandBuffer).next.CmdSetDescriptorBufferOffsetsEXT(commandBuffer, pipelineBindPoint, layout, firstSet, setCount,
                                                                     pBufferIndices, pOffsets);
}

VKAPI_ATTR void VKAPI_CALL CmdSetDescriptorBufferOffsets2EXT(VkCommandBuffer commandBuffer,
                                                             const VkSetDescriptorBufferOffsetsInfoEXT* pSetDescriptorBufferOffsetsInfo) {
    const VkSetDescriptorBufferOffsetsInfoEXT& info = *pSetDescriptorBufferOffsetsInfo;
    if (info.stageFlags & VK_SHADER_STAGE_COMPUTE_BIT) {
        keep_buffer_offsets(commandBuffer, info.layout, info.firstSet, info.setCount, info.pBufferIndices, info.pOffsets);
    }
    device_data(commandBuffer).next.CmdSetDescriptorBufferOffsets2EXT(commandBuffer, pSetDescriptorBufferOffsetsInfo);
}

// Recording starts from nothing bound.
VKAPI_ATTR VkResult VKAPI_CALL TensorBeginCommandBuffer(VkCommandBuffer commandBuffer, const VkCommandBufferBeginInfo* pBeginInfo) {
    const DeviceData& data = device_data(commandBuffer);
    if (data.tensors) data.tensors->command_buffers.reset(commandBuffer);
    return data.tile_image ? BeginCommandBuffer(commandBuffer, pBeginInfo) : data.next.BeginCommandBuffer(commandBuffer, pBeginInfo);
}

VKAPI_ATTR void VKAPI_CALL TensorFreeCommandBuffers(VkDevice device, VkCommandPool commandPool, uint32_t commandBufferCount,
                                                    const VkCommandBuffer* pCommandBuffers) {
    const DeviceData& data = device_data(device);
    for (uint32_t i = 0; i < commandBufferCount; ++i) {
        if (data.tensors && pCommandBuffers[i] != VK_NULL_HANDLE) data.tensors->command_buffers.reset(pCommandBuffers[i]);
    }
    if (data.tile_image) return FreeCommandBuffers(device, commandPool, commandBufferCount, pCommandBuffers);
    data.next.FreeCommandBuffers(device, commandPool, commandBufferCount, pCommandBuffers);
}

}  // namespace vkpolyfill::hooks
