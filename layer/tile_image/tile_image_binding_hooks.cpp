// vkCmdBindPipeline, vkCmdBindShadersEXT and vkCmdBindDescriptorSets on devices emulating tile
// images: a graphics pipeline or fragment shader object that reads tile images gets the layer's set of
// the current attachments, and keeps it after the application's own binds. A fragment shader object
// reaches the driver as its single- or multisampled code, whichever vkCmdSetRasterizationSamplesEXT
// calls for.
#include <algorithm>
#include <format>
#include <vector>

#include "core/device_data.h"
#include "core/hooks.h"
#include "tile_image/tile_image_binding.h"

namespace vkpolyfill::hooks {
namespace {

// A secondary continuing its primary's render pass instance learns the attachments' formats
// (VkCommandBufferInheritanceRenderingInfo), never their views, and inherits no descriptor bindings:
// the layer's set would have to be bound there before the views are known, and writing it when the
// secondary is executed would invalidate the secondary (input attachments cannot be update-after-bind).
// So the secondary is refused: an error now, VK_ERROR_UNKNOWN from vkEndCommandBuffer.
void refuse_in_continuing_secondary(const DeviceData& data, CommandBufferState& state, VkCommandBuffer command_buffer,
                                    const char* what) {
    if (state.refused) return;
    state.refused = true;
    const LoggedObject objects[] = {{VK_OBJECT_TYPE_COMMAND_BUFFER, reinterpret_cast<uint64_t>(command_buffer), {}}};
    data.instance->logger.log(
        LogLevel::Error, "vkpolyfill-tile-image",
        std::format("VkCommandBuffer {}: error: this secondary command buffer continues a render pass instance and binds a {} "
                    "that reads tile images, which the layer cannot serve there (the secondary does not know the attachments' "
                    "views, so it cannot bind their input attachments): vkEndCommandBuffer returns VK_ERROR_UNKNOWN. Record "
                    "such draws in the primary, or begin and end the render pass instance in the secondary",
                    static_cast<const void*>(command_buffer), what),
        objects);
}

}  // namespace

VKAPI_ATTR void VKAPI_CALL CmdBindPipeline(VkCommandBuffer commandBuffer, VkPipelineBindPoint pipelineBindPoint,
                                           VkPipeline pipeline) {
    const DeviceData& data = device_data(commandBuffer);
    data.next.CmdBindPipeline(commandBuffer, pipelineBindPoint, pipeline);
    if (!data.tile_image || pipelineBindPoint != VK_PIPELINE_BIND_POINT_GRAPHICS) return;
    TileImageDevice& tile = *data.tile_image;
    std::shared_ptr<const TilePipeline> record = tile.pipelines.find(pipeline);
    CommandBufferState* state = record ? &tile.command_buffers.at(commandBuffer) : tile.command_buffers.find(commandBuffer);
    if (state == nullptr) return;  // no tile-image pipeline was ever bound here
    if (record && state->continues_rendering) refuse_in_continuing_secondary(data, *state, commandBuffer, "graphics pipeline");
    state->pipeline = std::move(record);
    state->shader = nullptr;  // a pipeline replaces the shader objects bound
    bind_layer_set(tile, *state, commandBuffer, false);
}

VKAPI_ATTR void VKAPI_CALL CmdBindShadersEXT(VkCommandBuffer commandBuffer, uint32_t stageCount, const VkShaderStageFlagBits* pStages,
                                             const VkShaderEXT* pShaders) {
    const DeviceData& data = device_data(commandBuffer);
    const auto* fragment = std::find(pStages, pStages + stageCount, VK_SHADER_STAGE_FRAGMENT_BIT);
    if (!data.tile_image || fragment == pStages + stageCount) {
        data.next.CmdBindShadersEXT(commandBuffer, stageCount, pStages, pShaders);
        return;
    }
    TileImageDevice& tile = *data.tile_image;
    const size_t index = fragment - pStages;
    std::shared_ptr<const TileShader> record = pShaders ? tile.shaders.find(pShaders[index]) : nullptr;
    CommandBufferState* state = record ? &tile.command_buffers.at(commandBuffer) : tile.command_buffers.find(commandBuffer);
    if (state == nullptr) {  // no tile-image shader was ever bound here
        data.next.CmdBindShadersEXT(commandBuffer, stageCount, pStages, pShaders);
        return;
    }
    if (record && state->continues_rendering) refuse_in_continuing_secondary(data, *state, commandBuffer, "fragment shader object");
    if (record && state->samples > VK_SAMPLE_COUNT_1_BIT) {
        std::vector<VkShaderEXT> shaders(pShaders, pShaders + stageCount);
        shaders[index] = record->multisampled;
        data.next.CmdBindShadersEXT(commandBuffer, stageCount, pStages, shaders.data());
    } else {
        data.next.CmdBindShadersEXT(commandBuffer, stageCount, pStages, pShaders);
    }
    state->pipeline = record ? record->reads : nullptr;
    state->shader = std::move(record);
    bind_layer_set(tile, *state, commandBuffer, false);
}

VKAPI_ATTR void VKAPI_CALL CmdSetRasterizationSamplesEXT(VkCommandBuffer commandBuffer, VkSampleCountFlagBits rasterizationSamples) {
    const DeviceData& data = device_data(commandBuffer);
    data.next.CmdSetRasterizationSamplesEXT(commandBuffer, rasterizationSamples);
    if (!data.tile_image) return;
    CommandBufferState& state = data.tile_image->command_buffers.at(commandBuffer);  // the shader may come later
    const VkSampleCountFlagBits before = state.samples;
    state.samples = rasterizationSamples;
    if (!state.shader || state.shader->for_samples(before) == state.shader->for_samples(rasterizationSamples)) return;
    const VkShaderStageFlagBits stage = VK_SHADER_STAGE_FRAGMENT_BIT;
    const VkShaderEXT code = state.shader->for_samples(rasterizationSamples);
    data.next.CmdBindShadersEXT(commandBuffer, 1, &stage, &code);
}

VKAPI_ATTR void VKAPI_CALL CmdBindDescriptorSets(VkCommandBuffer commandBuffer, VkPipelineBindPoint pipelineBindPoint,
                                                 VkPipelineLayout layout, uint32_t firstSet, uint32_t descriptorSetCount,
                                                 const VkDescriptorSet* pDescriptorSets, uint32_t dynamicOffsetCount,
                                                 const uint32_t* pDynamicOffsets) {
    const DeviceData& data = device_data(commandBuffer);
    data.next.CmdBindDescriptorSets(commandBuffer, pipelineBindPoint, layout, firstSet, descriptorSetCount, pDescriptorSets,
                                    dynamicOffsetCount, pDynamicOffsets);
    if (!data.tile_image || pipelineBindPoint != VK_PIPELINE_BIND_POINT_GRAPHICS) return;
    if (CommandBufferState* state = data.tile_image->command_buffers.find(commandBuffer)) {
        state->bound_set = VK_NULL_HANDLE;  // the application's layout may have disturbed it
        bind_layer_set(*data.tile_image, *state, commandBuffer, true);
    }
}

}  // namespace vkpolyfill::hooks
