#include "tile_image_scene.h"

namespace vkpolyfill::test::tile_image {

std::vector<Patch> overlapping_patches(uint32_t count, uint32_t size) {
    const uint32_t scale = size / kSize;
    std::vector<Patch> patches;
    for (uint32_t k = 1; k <= count; ++k) {
        // Corners wander over the framebuffer so that pixels see different subsets of the patches;
        // the first patch covers everything, so no sample keeps the clear value alone.
        // Patch k on the kSize grid, scaled.
        const uint32_t x0 = k == 1 ? 0 : (k * 5) % 9;
        const uint32_t y0 = k == 1 ? 0 : (k * 3) % 7;
        const uint32_t x1 = k == 1 ? kSize : x0 + 4 + (k * 7) % (kSize - x0 - 3);
        const uint32_t y1 = k == 1 ? kSize : y0 + 5 + (k * 11) % (kSize - y0 - 4);
        patches.push_back({x0 * scale, y0 * scale, x1 * scale, y1 * scale, k, {0, 0, 0, 0}});
    }
    return patches;
}

std::vector<Patch> translucent_patches(uint32_t count, uint32_t size) {
    std::vector<Patch> patches = overlapping_patches(count, size);
    for (Patch& p : patches) {
        const uint32_t k = p.index;
        p.color = {static_cast<float>((k * 37) % 256) / 255.0f, static_cast<float>((k * 91) % 256) / 255.0f,
                   static_cast<float>((k * 53) % 256) / 255.0f, static_cast<float>(64 + (k * 29) % 160) / 255.0f};
    }
    return patches;
}

std::array<double, 4> accumulated_color(const std::vector<Patch>& patches, uint32_t x, uint32_t y, uint32_t sample,
                                        uint32_t attachment) {
    std::array<double, 4> value{0, 0, 0, 0};
    for (const Patch& p : patches) {
        if (!p.covers(x, y)) continue;
        value[1] += p.index * (attachment + 1) + sample;
        value[2] += 1;
        value[3] = p.index;
    }
    return value;
}

Texel depth_stencil_record(const std::vector<Patch>& patches, uint32_t x, uint32_t y) {
    Texel value{0, 0, 0, 0};
    for (const Patch& p : patches) {
        if (!p.covers(x, y)) continue;
        value[1] += p.index;
        value[2] += 1;
        value[3] = p.index;
    }
    return value;
}

std::array<float, 4> blended(const std::vector<Patch>& patches, uint32_t x, uint32_t y) {
    std::array<float, 4> dst{0, 0, 0, 0};
    for (const Patch& p : patches) {
        if (!p.covers(x, y)) continue;
        const float a = p.color[3];
        for (int c = 0; c < 3; ++c) dst[c] = p.color[c] * a + dst[c] * (1 - a);
        dst[3] = a + dst[3] * (1 - a);
    }
    return dst;
}

}  // namespace vkpolyfill::test::tile_image
