// What the tile-image emulation tracks per command buffer while it is recorded: the render pass
// instance (its attachments, the layouts to restore at its end) and the graphics pipeline bound, so
// the layer's descriptor set is bound whenever a tile-image pipeline meets attachments. A command
// buffer is recorded by one thread at a time (external synchronization), so its state needs no lock;
// only the map from handles to states is shared.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include <vulkan/utility/vk_concurrent_unordered_map.hpp>

#include "tile_image/tile_image_descriptors.h"
#include "tile_image/tile_image_pipelines.h"

namespace vkpolyfill {

// The index buffer the application bound (vkCmdBindIndexBuffer, or ...2 with a size), which a split
// strip or fan replaces for its draws and then binds again.
struct IndexBinding {
    bool bound = false;
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceSize offset = 0;
    VkDeviceSize size = VK_WHOLE_SIZE;  // VK_WHOLE_SIZE: bound without a size
    VkIndexType type = VK_INDEX_TYPE_UINT32;
};

struct LayoutRestore {
    VkImage image;
    VkImageSubresourceRange range;
    VkImageLayout layout;  // the application's, during the render pass
    VkImageLayout local;   // the layer's (ViewRecord::local_layout)
};

struct CommandBufferState {
    bool secondary = false;  // its level, from vkAllocateCommandBuffers: kept across recordings
    // A secondary continuing its primary's render pass instance, which knows the attachments' formats
    // only, never their views: tile-image reads cannot be served there (refused at vkEndCommandBuffer).
    bool continues_rendering = false;
    bool refused = false;  // it bound a tile-image pipeline or shader all the same (reported once)

    // The render pass instance being recorded.
    bool rendering = false;
    bool suspending = false;  // it resumes elsewhere: its layouts are restored at that end
    // Color views (and general_colors bits) by attachment index; depth/stencil as the application gave them.
    RenderedViews attachment_views{};
    uint32_t color_count = 0;
    std::array<uint32_t, kMaxTileImageColors> locations{};  // of each color attachment (local read's remapping)
    std::vector<LayoutRestore> restore;

    // The graphics pipeline or fragment shader object bound, when it reads tile images.
    std::shared_ptr<const TilePipeline> pipeline;
    // The fragment shader object bound, when it reads tile images, and the rasterization sample count
    // set: they choose the code the driver has bound.
    std::shared_ptr<const TileShader> shader;
    VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
    // What the layer's set was last bound with, to skip binding it again.
    VkDescriptorSet bound_set = VK_NULL_HANDLE;
    VkPipelineLayout bound_layout = VK_NULL_HANDLE;

    // What split draws need (tile_image_draw_splitting.h): the dynamic topology, the application's
    // index buffer, and whether a draw that could not be split was reported.
    std::optional<VkPrimitiveTopology> topology;
    IndexBinding index;
    bool reported_unsplit = false;

    void reset() {
        const bool level = secondary;
        *this = CommandBufferState{};
        secondary = level;
    }
};

class CommandBufferStates {
  public:
    // Made on first use.
    CommandBufferState& at(VkCommandBuffer command_buffer);
    // Null while the command buffer has never met the emulation.
    CommandBufferState* find(VkCommandBuffer command_buffer) const;
    void remove(VkCommandBuffer command_buffer) { states_.erase(command_buffer); }

  private:
    vku::concurrent::unordered_map<VkCommandBuffer, std::shared_ptr<CommandBufferState>, 4> states_;
};

}  // namespace vkpolyfill
