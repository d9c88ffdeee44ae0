// Programmable blending through tile images against fixed-function blending: the same translucent
// patches, blended source-over by the fragment shader reading the attachment in one pipeline and by
// the blend unit in the other, agree at every pixel within the attachment's rounding, and both agree
// with the CPU simulation.
#include <bit>
#include <cmath>
#include <format>

#include <gtest/gtest.h>
#include <vulkan/utility/vk_struct_helper.hpp>

#include "tile_image_renderer.h"

namespace vkpolyfill::test::tile_image {
namespace {

constexpr uint32_t kPatches = 24;

std::array<float, 4> unorm8(const Texel& texel) {
    return {std::bit_cast<float>(texel[0]) * 255.0f, std::bit_cast<float>(texel[1]) * 255.0f,
            std::bit_cast<float>(texel[2]) * 255.0f, std::bit_cast<float>(texel[3]) * 255.0f};
}

TEST(TileImageBlending, ProgrammableBlendingMatchesFixedFunctionBlending) {
    VkPhysicalDeviceVulkan13Features vulkan13 = vku::InitStructHelper();
    vulkan13.dynamicRendering = VK_TRUE;
    vulkan13.synchronization2 = VK_TRUE;
    VkPhysicalDeviceShaderTileImageFeaturesEXT tile_image = vku::InitStructHelper(&vulkan13);
    tile_image.shaderTileImageColorReadAccess = VK_TRUE;
    Context context({.device_extensions = {VK_EXT_SHADER_TILE_IMAGE_EXTENSION_NAME}, .device_features_next = &tile_image});
    SceneRenderer renderer(context);
    const std::vector<Patch> patches = translucent_patches(kPatches);
    SceneSpec spec{.colors = {VK_FORMAT_R8G8B8A8_UNORM}, .patches_per_draw = {kPatches / 2, kPatches / 2}};
    spec.fragment_shader = "tests/tile_image/blend_programmable.frag";
    const Samples programmable = renderer.render(spec, patches)[0];
    spec.fragment_shader = "tests/tile_image/blend_fixed_function.frag";
    spec.blend = true;
    const Samples fixed_function = renderer.render(spec, patches)[0];

    size_t mismatches = 0;
    for (uint32_t y = 0; y < kSize; ++y) {
        for (uint32_t x = 0; x < kSize; ++x) {
            const std::array<float, 4> got = unorm8(programmable[y * kSize + x]);
            const std::array<float, 4> reference = unorm8(fixed_function[y * kSize + x]);
            const std::array<float, 4> simulated = blended(patches, x, y);
            for (int c = 0; c < 4; ++c) {
                // Each of up to kPatches blends rounds to 8 bits; the two orders of rounding may differ
                // by one step, and from the unrounded simulation by a few.
                const bool close = std::abs(got[c] - reference[c]) <= 1.0f && std::abs(got[c] - simulated[c] * 255.0f) <= 4.0f;
                if (!close && mismatches++ < 8) {
                    ADD_FAILURE() << std::format("pixel ({}, {}) channel {}: programmable {}, fixed-function {}, simulated {:.2f} "
                                                 "(tolerance: 1 from fixed-function, 4 from the simulation)",
                                                 x, y, c, got[c], reference[c], simulated[c] * 255.0f);
                }
            }
        }
    }
    EXPECT_EQ(mismatches, 0u);
}

}  // namespace
}  // namespace vkpolyfill::test::tile_image
