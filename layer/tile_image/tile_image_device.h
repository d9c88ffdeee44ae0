// Everything the tile-image emulation keeps per device (DeviceData::tile_image, only where the
// application enabled the emulated VK_EXT_shader_tile_image): attachments, layouts, descriptor sets,
// pipelines and command-buffer states. Destroyed before its VkDevice.
#pragma once

#include <atomic>
#include <string>

#include <vkpolyfill/lowering/lower.h>
#include <vulkan/utility/vk_dispatch_table.h>

#include "core/physical_device_facts.h"
#include "tile_image/tile_image_command_buffers.h"
#include "tile_image/tile_image_descriptors.h"
#include "tile_image/tile_image_layouts.h"
#include "tile_image/tile_image_pipelines.h"
#include "tile_image/tile_image_primitive_indices.h"
#include "tile_image/tile_image_views.h"

namespace vkpolyfill {

// What orders coherent tile-image reads on this device: its rasterization-order attachment access
// (per aspect, for pipelines), llvmpipe's shading in primitive order, a fragment shader interlock (for
// the pipelines it can serve: tile_image_interlock.h), or else splitting draws
// (tile_image_draw_splitting.h); the tile_image_ordering setting may ask for splitting everywhere, or
// for the interlock wherever it can serve.
struct TileImageOrder {
    bool color = false, depth = false, stencil = false;  // rasterization-order access the device has
    bool shades_in_primitive_order = false;
    bool always_split = false;
    bool interlock = false;  // the device has what the interlock needs (enabled at vkCreateDevice)
    bool multisampled_interlock = false;  // and what it needs for multisampled attachments
    bool prefer_interlock = false;

    // Whether any pipeline or shader object may split its draws (needs_split_draws) or have them
    // wrapped in barriers (an interlock's); where none can, the device's draws are not intercepted.
    bool intercepts_draws() const {
        return always_split || (interlock && prefer_interlock) || !color || !depth || !stencil || !shades_in_primitive_order;
    }
};

struct TileImageDevice {
    TileImageDevice(VkDevice device, const VkuDeviceDispatchTable& next, const lowering::TileImageTarget& target,
                    std::string color_limit, const TileImageOrder& order, const VkPhysicalDeviceMemoryProperties& memory);

    VkDevice device;
    const VkuDeviceDispatchTable& next;
    lowering::TileImageTarget target;
    std::string color_limit;  // the device limit that decides how many color locations the layer's set has
    TileImageOrder order;
    // Set once a pipeline or shader object whose draws split or are interlocked is made: until then
    // the draw hooks skip looking up the command buffer's state (recording a draw through the layer
    // on lavapipe 26: 0.057 us with the lookup, 0.035-0.038 without it).
    std::atomic<bool> draws_intercepted{false};
    // vkCmdSetRenderingInputAttachmentIndices, core or KHR, whichever the device has.
    PFN_vkCmdSetRenderingInputAttachmentIndices set_input_attachment_indices;

    // Declared so that what refers to layouts and descriptors goes first.
    AttachmentViews views;
    TileImageLayouts layouts;
    TileImageDescriptors descriptors;
    TilePipelines pipelines;
    TileShaders shaders;
    CommandBufferStates command_buffers;
    PrimitiveIndices primitive_indices;
};

}  // namespace vkpolyfill
