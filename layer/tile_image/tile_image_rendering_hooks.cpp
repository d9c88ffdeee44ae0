// Render pass instances on devices emulating tile images. Local reads need every attachment in
// RENDERING_LOCAL_READ (or GENERAL, for the storage images an interlock reads), which the application
// never asked for: vkCmdBeginRendering
// moves each attachment there from the layout the application gave (chained after its own barriers
// by the attachment stages) and begins with that layout; the instance's end moves them back, so the
// application's later barriers find the layouts they expect. Suspended instances keep the layout
// until the instance that resumes them ends. By-region barriers the application records for
// non-coherent reads name color or depth/stencil attachment reads; the lowered reads are
// input-attachment reads in the fragment shader, so those barriers get that access and stage too.
// vkCmdSetRenderingAttachmentLocations moves tile images with the color attachments: the input
// attachment indices follow the locations.
#include <array>
#include <vector>

#include <vulkan/utility/vk_struct_helper.hpp>

#include "core/device_data.h"
#include "core/hooks.h"
#include "tile_image/tile_image_binding.h"

namespace vkpolyfill::hooks {
namespace {

constexpr VkPipelineStageFlags kAttachmentStages = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT |
                                                   VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT |
                                                   VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
constexpr VkAccessFlags kAttachmentWrites = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
constexpr VkAccessFlags kAttachmentAccess = kAttachmentWrites | VK_ACCESS_COLOR_ATTACHMENT_READ_BIT |
                                            VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT;


VkImageMemoryBarrier transition(VkImage image, const VkImageSubresourceRange& range, VkImageLayout from, VkImageLayout to) {
    VkImageMemoryBarrier barrier = vku::InitStructHelper();
    barrier.srcAccessMask = kAttachmentWrites;
    barrier.dstAccessMask = kAttachmentAccess | VK_ACCESS_INPUT_ATTACHMENT_READ_BIT;
    barrier.oldLayout = from;
    barrier.newLayout = to;
    barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    barrier.image = image;
    barrier.subresourceRange = range;
    return barrier;
}

void record_barriers(const TileImageDevice& tile, VkCommandBuffer command_buffer, const std::vector<VkImageMemoryBarrier>& barriers) {
    if (barriers.empty()) return;
    const VkPipelineStageFlags stages = kAttachmentStages | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT;
    tile.next.CmdPipelineBarrier(command_buffer, stages, stages, 0, 0, nullptr, 0, nullptr, static_cast<uint32_t>(barriers.size()),
                                 barriers.data());
}

// The begin info the driver gets, and the barriers before it.
struct LocalReadBegin {
    VkRenderingInfo info;
    std::array<VkRenderingAttachmentInfo, kMaxTileImageColors> colors;
    VkRenderingAttachmentInfo depth;
    VkRenderingAttachmentInfo stencil;
    std::vector<VkImageMemoryBarrier> barriers;
};

// Moves one attachment to its local-read layout (RENDERING_LOCAL_READ, or GENERAL for a storage
// image: ViewRecord::local_layout) in `begin`, and notes how to move it back. The layer's descriptors
// name that layout. Returns the view's record (null for a view the layer never saw, left as it is).
std::shared_ptr<const ViewRecord> make_local(const TileImageDevice& tile, VkRenderingAttachmentInfo& attachment,
                                             VkImageAspectFlags aspect, LocalReadBegin& begin, CommandBufferState& state) {
    if (attachment.imageView == VK_NULL_HANDLE) return nullptr;
    std::shared_ptr<const ViewRecord> view = tile.views.find(attachment.imageView);
    if (!view) return nullptr;
    const VkImageLayout local = view->local_layout();
    if (attachment.imageLayout == local) return view;
    const VkImageSubresourceRange range = view->range(aspect);
    if (!(begin.info.flags & VK_RENDERING_RESUMING_BIT)) {
        begin.barriers.push_back(transition(view->image, range, attachment.imageLayout, local));
    }
    if (!(begin.info.flags & VK_RENDERING_SUSPENDING_BIT)) state.restore.push_back({view->image, range, attachment.imageLayout, local});
    attachment.imageLayout = local;
    return view;
}

void begin_rendering(VkCommandBuffer command_buffer, const VkRenderingInfo* info, PFN_vkCmdBeginRendering down) {
    const DeviceData& data = device_data(command_buffer);
    if (!data.tile_image || info->colorAttachmentCount > kMaxTileImageColors) {
        down(command_buffer, info);
        return;
    }
    TileImageDevice& tile = *data.tile_image;
    CommandBufferState& state = tile.command_buffers.at(command_buffer);
    LocalReadBegin begin{*info, {}, {}, {}, {}};
    state.restore.clear();
    state.color_count = info->colorAttachmentCount;
    state.attachment_views = {};
    for (uint32_t i = 0; i < info->colorAttachmentCount; ++i) {
        begin.colors[i] = info->pColorAttachments[i];
        state.attachment_views.colors[i] = begin.colors[i].imageView;
        state.locations[i] = i;
        const std::shared_ptr<const ViewRecord> view = make_local(tile, begin.colors[i], VK_IMAGE_ASPECT_COLOR_BIT, begin, state);
        if (view && view->storage) state.attachment_views.general_colors |= 1u << i;
    }
    begin.info.pColorAttachments = begin.colors.data();
    if (info->pDepthAttachment) {
        begin.depth = *info->pDepthAttachment;
        state.attachment_views.depth = begin.depth.imageView;
        make_local(tile, begin.depth, VK_IMAGE_ASPECT_DEPTH_BIT, begin, state);
        begin.info.pDepthAttachment = &begin.depth;
    }
    if (info->pStencilAttachment) {
        begin.stencil = *info->pStencilAttachment;
        state.attachment_views.stencil = begin.stencil.imageView;
        make_local(tile, begin.stencil, VK_IMAGE_ASPECT_STENCIL_BIT, begin, state);
        begin.info.pStencilAttachment = &begin.stencil;
    }
    record_barriers(tile, command_buffer, begin.barriers);
    down(command_buffer, &begin.info);
    state.rendering = true;
    state.suspending = (info->flags & VK_RENDERING_SUSPENDING_BIT) != 0;
    state.bound_set = VK_NULL_HANDLE;
    bind_layer_set(tile, state, command_buffer, false);
}

void end_rendering(VkCommandBuffer command_buffer, PFN_vkCmdEndRendering down) {
    const DeviceData& data = device_data(command_buffer);
    down(command_buffer);
    if (!data.tile_image) return;
    CommandBufferState* state = data.tile_image->command_buffers.find(command_buffer);
    if (state == nullptr) return;
    state->rendering = false;
    std::vector<VkImageMemoryBarrier> barriers;
    for (const LayoutRestore& r : state->restore) {
        barriers.push_back(transition(r.image, r.range, r.local, r.layout));
    }
    state->restore.clear();
    record_barriers(*data.tile_image, command_buffer, barriers);
}

// Whether a barrier's second scope reads attachments the way tile-image reads do.
bool reads_attachments(VkAccessFlags2 access) {
    return (access & (VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT)) != 0;
}

void pipeline_barrier2(VkCommandBuffer commandBuffer, const VkDependencyInfo* pDependencyInfo, PFN_vkCmdPipelineBarrier2 down) {
    const DeviceData& data = device_data(commandBuffer);
    if (!data.tile_image || !(pDependencyInfo->dependencyFlags & VK_DEPENDENCY_BY_REGION_BIT)) {
        down(commandBuffer, pDependencyInfo);
        return;
    }
    VkDependencyInfo info = *pDependencyInfo;
    std::vector<VkMemoryBarrier2> memory(info.pMemoryBarriers, info.pMemoryBarriers + info.memoryBarrierCount);
    for (VkMemoryBarrier2& barrier : memory) {
        if (!reads_attachments(barrier.dstAccessMask)) continue;
        barrier.dstAccessMask |= VK_ACCESS_2_INPUT_ATTACHMENT_READ_BIT;
        barrier.dstStageMask |= VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT;
    }
    info.pMemoryBarriers = memory.data();
    down(commandBuffer, &info);
}

void set_attachment_locations(VkCommandBuffer commandBuffer, const VkRenderingAttachmentLocationInfo* pLocationInfo,
                              PFN_vkCmdSetRenderingAttachmentLocations down) {
    const DeviceData& data = device_data(commandBuffer);
    down(commandBuffer, pLocationInfo);
    if (!data.tile_image) return;
    TileImageDevice& tile = *data.tile_image;
    CommandBufferState& state = tile.command_buffers.at(commandBuffer);
    for (uint32_t i = 0; i < pLocationInfo->colorAttachmentCount && i < kMaxTileImageColors; ++i) {
        state.locations[i] = pLocationInfo->pColorAttachmentLocations ? pLocationInfo->pColorAttachmentLocations[i] : i;
    }
    VkRenderingInputAttachmentIndexInfo indices = vku::InitStructHelper();
    indices.colorAttachmentCount = pLocationInfo->colorAttachmentCount;
    indices.pColorAttachmentInputIndices = pLocationInfo->pColorAttachmentLocations;
    tile.set_input_attachment_indices(commandBuffer, &indices);
    bind_layer_set(tile, state, commandBuffer, false);
}

}  // namespace

VKAPI_ATTR void VKAPI_CALL CmdBeginRendering(VkCommandBuffer commandBuffer, const VkRenderingInfo* pRenderingInfo) {
    begin_rendering(commandBuffer, pRenderingInfo, device_data(commandBuffer).next.CmdBeginRendering);
}

VKAPI_ATTR void VKAPI_CALL CmdBeginRenderingKHR(VkCommandBuffer commandBuffer, const VkRenderingInfo* pRenderingInfo) {
    begin_rendering(commandBuffer, pRenderingInfo, device_data(commandBuffer).next.CmdBeginRenderingKHR);
}

VKAPI_ATTR void VKAPI_CALL CmdEndRendering(VkCommandBuffer commandBuffer) {
    end_rendering(commandBuffer, device_data(commandBuffer).next.CmdEndRendering);
}

VKAPI_ATTR void VKAPI_CALL CmdEndRenderingKHR(VkCommandBuffer commandBuffer) {
    end_rendering(commandBuffer, device_data(commandBuffer).next.CmdEndRenderingKHR);
}

VKAPI_ATTR void VKAPI_CALL CmdPipelineBarrier(VkCommandBuffer commandBuffer, VkPipelineStageFlags srcStageMask,
                                              VkPipelineStageFlags dstStageMask, VkDependencyFlags dependencyFlags,
                                              uint32_t memoryBarrierCount, const VkMemoryBarrier* pMemoryBarriers,
                                              uint32_t bufferMemoryBarrierCount, const VkBufferMemoryBarrier* pBufferMemoryBarriers,
                                              uint32_t imageMemoryBarrierCount, const VkImageMemoryBarrier* pImageMemoryBarriers) {
    const DeviceData& data = device_data(commandBuffer);
    const bool by_region = data.tile_image && (dependencyFlags & VK_DEPENDENCY_BY_REGION_BIT);
    std::vector<VkMemoryBarrier> memory(pMemoryBarriers, pMemoryBarriers + (by_region ? memoryBarrierCount : 0));
    for (VkMemoryBarrier& barrier : memory) {
        if (!reads_attachments(barrier.dstAccessMask)) continue;
        barrier.dstAccessMask |= VK_ACCESS_INPUT_ATTACHMENT_READ_BIT;
        dstStageMask |= VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT;
    }
    data.next.CmdPipelineBarrier(commandBuffer, srcStageMask, dstStageMask, dependencyFlags, memoryBarrierCount,
                                 by_region ? memory.data() : pMemoryBarriers, bufferMemoryBarrierCount, pBufferMemoryBarriers,
                                 imageMemoryBarrierCount, pImageMemoryBarriers);
}

VKAPI_ATTR void VKAPI_CALL CmdPipelineBarrier2(VkCommandBuffer commandBuffer, const VkDependencyInfo* pDependencyInfo) {
    pipeline_barrier2(commandBuffer, pDependencyInfo, device_data(commandBuffer).next.CmdPipelineBarrier2);
}

VKAPI_ATTR void VKAPI_CALL CmdPipelineBarrier2KHR(VkCommandBuffer commandBuffer, const VkDependencyInfo* pDependencyInfo) {
    pipeline_barrier2(commandBuffer, pDependencyInfo, device_data(commandBuffer).next.CmdPipelineBarrier2KHR);
}

VKAPI_ATTR void VKAPI_CALL CmdSetRenderingAttachmentLocations(VkCommandBuffer commandBuffer,
                                                              const VkRenderingAttachmentLocationInfo* pLocationInfo) {
    set_attachment_locations(commandBuffer, pLocationInfo, device_data(commandBuffer).next.CmdSetRenderingAttachmentLocations);
}

VKAPI_ATTR void VKAPI_CALL CmdSetRenderingAttachmentLocationsKHR(VkCommandBuffer commandBuffer,
                                                                 const VkRenderingAttachmentLocationInfo* pLocationInfo) {
    set_attachment_locations(commandBuffer, pLocationInfo, device_data(commandBuffer).next.CmdSetRenderingAttachmentLocationsKHR);
}

}  // namespace vkpolyfill::hooks
