#include "tile_image_setup.h"

#include <bit>
#include <cmath>

#include <vulkan/utility/vk_struct_helper.hpp>

namespace vkpolyfill::bench {

std::unique_ptr<test::Context> tile_image_context(bool layer) {
    VkPhysicalDeviceVulkan13Features vulkan13 = vku::InitStructHelper();
    vulkan13.dynamicRendering = VK_TRUE;
    vulkan13.synchronization2 = VK_TRUE;
    VkPhysicalDeviceShaderTileImageFeaturesEXT tile_image = vku::InitStructHelper(&vulkan13);
    tile_image.shaderTileImageColorReadAccess = VK_TRUE;
    test::ContextOptions options{.layer = layer};
    if (layer) {
        options.device_extensions = {VK_EXT_SHADER_TILE_IMAGE_EXTENSION_NAME};
        options.device_features_next = &tile_image;
    } else {
        options.device_features_next = &vulkan13;
    }
    return std::make_unique<test::Context>(options);
}

test::tile_image::SceneSpec blend_scene(bool programmable, uint32_t size, uint32_t patches, uint32_t frames) {
    test::tile_image::SceneSpec spec;
    spec.colors = {VK_FORMAT_R8G8B8A8_UNORM};
    spec.fragment_shader = programmable ? "tests/tile_image/blend_programmable.frag" : "tests/tile_image/blend_fixed_function.frag";
    spec.blend = !programmable;
    spec.patches_per_draw = {patches};
    spec.size = size;
    spec.frames = frames;
    return spec;
}

uint32_t max_difference(const test::tile_image::Samples& a, const test::tile_image::Samples& b) {
    uint32_t worst = 0;
    for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
        for (int c = 0; c < 4; ++c) {
            const float difference = std::abs(std::bit_cast<float>(a[i][c]) - std::bit_cast<float>(b[i][c])) * 255.0f;
            worst = std::max(worst, static_cast<uint32_t>(std::lround(difference)));
        }
    }
    return worst;
}

}  // namespace vkpolyfill::bench
