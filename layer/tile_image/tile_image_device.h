// Everything the tile-image emulation keeps per device (DeviceData::tile_image, only where the
// application enabled the emulated VK_EXT_shader_tile_image): attachments, layouts, descriptor sets,
// pipelines and command-buffer states. Destroyed before its VkDevice.
#pragma once

#include <string>

#include <vkpolyfill/lowering/lower.h>
#include <vulkan/utility/vk_dispatch_table.h>

#include "core/physical_device_facts.h"
#include "tile_image/tile_image_command_buffers.h"
#include "tile_image/tile_image_descriptors.h"
#include "tile_image/tile_image_layouts.h"
#include "tile_image/tile_image_pipelines.h"
#include "tile_image/tile_image_views.h"

namespace vkpolyfill {

struct TileImageDevice {
    TileImageDevice(VkDevice device, const VkuDeviceDispatchTable& next, const lowering::TileImageTarget& target,
                    std::string color_limit);

    VkDevice device;
    const VkuDeviceDispatchTable& next;
    lowering::TileImageTarget target;
    std::string color_limit;  // the device limit that decides how many color locations the layer's set has
    // vkCmdSetRenderingInputAttachmentIndices, core or KHR, whichever the device has.
    PFN_vkCmdSetRenderingInputAttachmentIndices set_input_attachment_indices;

    // Declared so that what refers to layouts and descriptors goes first.
    AttachmentViews views;
    TileImageLayouts layouts;
    TileImageDescriptors descriptors;
    TilePipelines pipelines;
    TileShaders shaders;
    CommandBufferStates command_buffers;
};

}  // namespace vkpolyfill
