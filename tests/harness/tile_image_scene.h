// The tile-image tests' scenes, after VK-GL-CTS shader_tile_image: overlapping pixel-aligned
// rectangles ("patches"), each a pair of triangles with a 1-based index, a depth and a color, drawn
// in order; and what the shaders in shaders/tests/tile_image leave at every sample, simulated on the
// CPU. Pixel-aligned edges cover every sample of a pixel or none, at any sample count.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace vkpolyfill::test::tile_image {

inline constexpr uint32_t kSize = 16;  // the tests' framebuffer is kSize x kSize pixels

struct Patch {
    uint32_t x0, y0, x1, y1;  // pixels [x0, x1) x [y0, y1)
    uint32_t index;            // 1-based, in drawing order
    std::array<float, 4> color;

    bool covers(uint32_t x, uint32_t y) const { return x >= x0 && x < x1 && y >= y0 && y < y1; }
    // What depth_stencil.glsl expects (its scenes have fewer than 16 patches); larger scenes wrap
    // around, as a depth above 1 would be clipped away.
    float depth() const { return static_cast<float>(index % 16) / 16.0f; }
};

// `count` patches of varied position and size (the same every run), 1-based indices in order, on a
// `size` x `size` framebuffer (a multiple of kSize).
std::vector<Patch> overlapping_patches(uint32_t count, uint32_t size = kSize);
// The same rectangles, translucent and colored, for the blending scene.
std::vector<Patch> translucent_patches(uint32_t count, uint32_t size = kSize);

// One sample's four components as stored, 32 bits each (floats as their bits).
using Texel = std::array<uint32_t, 4>;

// What color.glsl leaves in color attachment `attachment` at (x, y, sample): (0, sum, count, last k)
// with sum += k * (attachment + 1) + sample for every patch k covering the pixel (a normalized
// attachment holds it divided by 255).
std::array<double, 4> accumulated_color(const std::vector<Patch>& patches, uint32_t x, uint32_t y, uint32_t sample,
                                        uint32_t attachment);
// What depth_stencil.glsl leaves: (0, sum of k, count, last k).
Texel depth_stencil_record(const std::vector<Patch>& patches, uint32_t x, uint32_t y);
// Source-over blending of the patches onto (0, 0, 0, 0), in floats.
std::array<float, 4> blended(const std::vector<Patch>& patches, uint32_t x, uint32_t y);

}  // namespace vkpolyfill::test::tile_image
