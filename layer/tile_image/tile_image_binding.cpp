#include "tile_image/tile_image_binding.h"

namespace vkpolyfill {
namespace {

// Color views by the location a tile image names them with (local read's remapping applies). An
// interlock's reads take only views that can be storage images (an image the layer could not give
// storage usage leaves its element unbound).
RenderedViews views_by_location(TileImageDevice& tile, const CommandBufferState& state, const TileSetLayout& layout) {
    RenderedViews views;
    for (uint32_t i = 0; i < state.color_count; ++i) {
        const uint32_t location = state.locations[i];
        const bool storage = (state.attachment_views.general_colors >> i) & 1;  // set at vkCmdBeginRendering
        if (location >= kMaxTileImageColors || (layout.interlock && !storage)) continue;
        views.colors[location] = state.attachment_views.colors[i];
        if (storage) views.general_colors |= 1u << location;
    }
    if (layout.depth && state.attachment_views.depth) views.depth = tile.views.aspect_view(state.attachment_views.depth, VK_IMAGE_ASPECT_DEPTH_BIT);
    if (layout.stencil && state.attachment_views.stencil) {
        views.stencil = tile.views.aspect_view(state.attachment_views.stencil, VK_IMAGE_ASPECT_STENCIL_BIT);
    }
    return views;
}

}  // namespace

void bind_layer_set(TileImageDevice& tile, CommandBufferState& state, VkCommandBuffer command_buffer, bool force) {
    if (!state.rendering || !state.pipeline) return;
    const TileSetLayout& set_layout = *state.pipeline->set_layout;
    const VkDescriptorSet set = tile.descriptors.set_for(set_layout, views_by_location(tile, state, set_layout));
    const VkPipelineLayout layout = state.pipeline->layout->layout;
    if (set == VK_NULL_HANDLE || (!force && set == state.bound_set && layout == state.bound_layout)) return;
    tile.next.CmdBindDescriptorSets(command_buffer, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, tile.target.descriptor_set, 1, &set,
                                    0, nullptr);
    state.bound_set = set;
    state.bound_layout = layout;
}

}  // namespace vkpolyfill
