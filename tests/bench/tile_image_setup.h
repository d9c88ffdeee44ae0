// What the tile-image benchmark and demo share: a device through the layer with the emulated
// VK_EXT_shader_tile_image, or one without the layer, and the blending scene drawn either by tile-image
// reads (programmable) or by the blend unit (fixed function).
#pragma once

#include <memory>

#include "tile_image_renderer.h"
#include "vulkan_context.h"

namespace vkpolyfill::bench {

std::unique_ptr<test::Context> tile_image_context(bool layer);

// `patches` translucent patches on a `size` x `size` RGBA8 framebuffer, in one draw, `frames` times.
test::tile_image::SceneSpec blend_scene(bool programmable, uint32_t size, uint32_t patches, uint32_t frames);

// The largest difference between two RGBA8 readbacks, in steps of 1/255.
uint32_t max_difference(const test::tile_image::Samples& a, const test::tile_image::Samples& b);

}  // namespace vkpolyfill::bench
