// VK_EXT_shader_tile_image: tile-image reads lowered to input attachments read through dynamic
// rendering local read (lowering::Emulated::ExtShaderTileImage), ordered by rasterization-order
// attachment access; the render-pass side lives in tile_image_*.
#pragma once

#include <string>

#include "core/capabilities.h"
#include "core/settings.h"
#include "tile_image/tile_image_device.h"

namespace vkpolyfill {

Capability ext_shader_tile_image_capability();

// The color locations the layer's set has (0 when it can have none), and the limit that decides it: an
// input attachment per location up to min(maxColorAttachments, 16), as many as the device's input-
// attachment limits leave beside depth, stencil and the 4 Vulkan guarantees the application (Turnip's
// 8 leave 2).
struct TileImageColorBudget {
    uint32_t colors = 0;
    std::string decided_by;
};
TileImageColorBudget tile_image_color_budget(const PhysicalDeviceFacts& facts);

// What orders coherent reads on this device, with the tile_image_ordering setting.
TileImageOrder tile_image_order(const PhysicalDeviceFacts& facts, TileImageOrdering setting);

// Descriptor slots the emulation takes from every pipeline layout (one set, with an input attachment
// per color attachment, depth and stencil), so the limits reported to the application shrink by them.
uint32_t tile_image_input_attachments(const PhysicalDeviceFacts& facts);

// Where lowered reads find their attachments on this device: the last descriptor set the device has
// (the layer reports one fewer), colors at their locations, depth and stencil after the colors, indexed
// at run time where the device can.
lowering::TileImageTarget tile_image_target(const PhysicalDeviceFacts& facts);

}  // namespace vkpolyfill
