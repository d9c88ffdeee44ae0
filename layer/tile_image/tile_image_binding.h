// Keeping the layer's descriptor set bound: whenever a tile-image pipeline and a render pass instance
// meet (either order), and again after the application binds its own sets (which may disturb the
// layer's under the pipeline-layout compatibility rules).
#pragma once

#include "tile_image/tile_image_device.h"

namespace vkpolyfill {

// Binds the set of the current render pass instance's attachments for the bound tile-image pipeline,
// unless it is already bound (`force` binds it again). Does nothing outside a render pass instance or
// with another pipeline bound.
void bind_layer_set(TileImageDevice& tile, CommandBufferState& state, VkCommandBuffer command_buffer, bool force);

}  // namespace vkpolyfill
