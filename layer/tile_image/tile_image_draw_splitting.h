// Coherent tile-image reads where nothing in the driver orders them (no rasterization-order attachment
// access for that aspect, or a shader object, which cannot ask for it): each draw becomes a draw per
// primitive (per instance, in rasterization order), with a by-region barrier from the attachment
// writes to the fragment shader's input-attachment reads before each. Fragments of one primitive never
// overlap, so every read sees the fragments of the primitives before it, as rasterization order
// promises; the pipeline state (depth tests, blending, sample masks) stays the driver's. Slow (a
// barrier per primitive), so the layer reports shaderTileImageCoherentReadAccelerated false.
//
// Split: vkCmdDraw of point, line and triangle lists, line and triangle strips and triangle fans
// (strips' and fans' triangles through PrimitiveIndices, so each keeps its vertices' order and
// winding); vkCmdDrawIndexed of lists and line strips. Not split, each reported once per command
// buffer with the reason (the draw then runs as it is, its overlapping fragments unordered): indexed
// triangle strips and fans (a triangle's winding depends on the restarts before it), indirect and
// multi-draws (their counts are on the device, or their draw indices would change), mesh tasks,
// adjacency and patch topologies, a dynamic topology never set.
#pragma once

#include <cstdint>
#include <string>

#include <vkpolyfill/lowering/tile_image.h>

#include "tile_image/tile_image_device.h"

namespace vkpolyfill {

struct DeviceData;

// Whether a pipeline's (`shader_object` false) or a fragment shader object's coherent reads need
// their draws split on this device.
bool needs_split_draws(const TileImageOrder& order, const lowering::TileImageUsage& usage, bool shader_object);

struct DrawCounts {
    uint32_t count;  // vertices, or indices
    uint32_t instances;
    uint32_t first;  // vertex, or index
    int32_t vertex_offset;  // indexed draws
    uint32_t first_instance;
};

// The command buffer's state when the draw about to be recorded must be split or wrapped in an
// interlock's barriers (state.pipeline says which): a render pass instance, and a bound pipeline or
// shader object that needs it; else null.
CommandBufferState* ordering_state(const TileImageDevice& tile, VkCommandBuffer command_buffer);

// Records `draw` split per primitive (vkCmdDraw, or vkCmdDrawIndexed when `indexed`), or as it is
// with a report when it cannot be.
void draw_split(const DeviceData& data, CommandBufferState& state, VkCommandBuffer command_buffer, const DrawCounts& draw,
                bool indexed);

// Reports, once per command buffer, a draw that reads coherently but cannot be split (`why`).
void report_unsplit(const DeviceData& data, CommandBufferState& state, VkCommandBuffer command_buffer, const std::string& why);

}  // namespace vkpolyfill
