// vkCmdBindPipeline and vkCmdBindDescriptorSets on devices emulating tile images: a graphics pipeline
// that reads tile images gets the layer's set of the current attachments, and keeps it after the
// application's own binds.
#include "device_data.h"
#include "hooks.h"
#include "tile_image_binding.h"

namespace vkpolyfill::hooks {

VKAPI_ATTR void VKAPI_CALL CmdBindPipeline(VkCommandBuffer commandBuffer, VkPipelineBindPoint pipelineBindPoint,
                                           VkPipeline pipeline) {
    const DeviceData& data = device_data(commandBuffer);
    data.next.CmdBindPipeline(commandBuffer, pipelineBindPoint, pipeline);
    if (!data.tile_image || pipelineBindPoint != VK_PIPELINE_BIND_POINT_GRAPHICS) return;
    TileImageDevice& tile = *data.tile_image;
    std::shared_ptr<const TilePipeline> record = tile.pipelines.find(pipeline);
    CommandBufferState* state = record ? &tile.command_buffers.at(commandBuffer) : tile.command_buffers.find(commandBuffer);
    if (state == nullptr) return;  // no tile-image pipeline was ever bound here
    state->pipeline = std::move(record);
    bind_layer_set(tile, *state, commandBuffer, false);
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
