// VK_EXT_shader_tile_image: tile-image reads lowered to input attachments read through dynamic
// rendering local read (lowering::Emulated::ExtShaderTileImage), ordered by rasterization-order
// attachment access; the render-pass side lives in tile_image_*.
#pragma once

#include "core/capabilities.h"

namespace vkpolyfill {

Capability ext_shader_tile_image_capability();

// Descriptor slots the emulation takes from every pipeline layout (one set, with an input attachment
// per color attachment, depth and stencil), so the limits reported to the application shrink by them.
uint32_t tile_image_input_attachments(const PhysicalDeviceFacts& facts);

// Where lowered reads find their attachments on this device: the last descriptor set the device has
// (the layer reports one fewer), colors at their locations, depth and stencil after the colors.
lowering::TileImageTarget tile_image_target(const PhysicalDeviceFacts& facts);

}  // namespace vkpolyfill
