// Fragment shader objects (VK_EXT_shader_object) that read tile images, at vkCreateShadersEXT. The
// lowered code depends on whether the attachments are multisampled, known only when drawn
// (vkCmdSetRasterizationSamplesEXT): the application's shader gets the single-sampled code, and a
// twin with the multisampled code is created after it (tile_image_pipelines.h's TileShader). Both list
// the layer's set layouts (the application's, empty ones, the layer's set). Shader objects cannot ask
// for rasterization-order attachment access, so their coherent reads are ordered by splitting their
// draws (tile_image_draw_splitting.h), except on drivers that shade overlapping fragments in
// primitive order anyway (lavapipe).
#pragma once

#include <span>
#include <vector>

#include <vkpolyfill/lowering/tile_image.h>

#include "pipelines/shader_stage_lowering.h"

namespace vkpolyfill {

// One shader of the call, prepared.
struct TileShaderCode {
    size_t index = 0;           // in pCreateInfos
    LoweredWords single;        // the code the driver's create info points to
    LoweredWords multisampled;  // the twin's code
    std::shared_ptr<const TilePipeline> reads;
    std::vector<VkDescriptorSetLayout> set_layouts;  // what the driver's create infos list
};

// Rewrites `info` (a fragment shader whose code reads tile images) for the driver: the single-sampled
// code and the layer's set layouts, which `prepared` holds with the twin's code. VK_ERROR_UNKNOWN, with
// a message naming the shader, for what the emulation cannot serve.
VkResult prepare_tile_shader(const DeviceData& data, const StageCode& code, const lowering::TileImageUsage& usage,
                             VkShaderCreateInfoEXT& info, TileShaderCode& prepared);

// After the driver created `shaders` from `infos`: creates the twins and records them. On failure
// every shader of the call is destroyed and VK_NULL_HANDLE.
VkResult create_tile_shader_twins(const DeviceData& data, std::span<const VkShaderCreateInfoEXT> infos,
                                  std::span<const TileShaderCode> prepared, const VkAllocationCallbacks* allocator,
                                  VkShaderEXT* shaders);

// The driver refused the lowered shaders: says which read tile images, and what drivers are known to
// refuse (input attachments in fragment shader objects: lavapipe 25.0 cannot).
void report_refused_tile_shaders(const DeviceData& data, std::span<const TileShaderCode> prepared, VkResult result);

}  // namespace vkpolyfill
