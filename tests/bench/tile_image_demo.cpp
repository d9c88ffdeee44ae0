// vkpolyfill_tile_image_demo OUT.png: the programmable-blending scene drawn through the layer's
// emulated VK_EXT_shader_tile_image on the default device, written to OUT.png, and checked against
// the CPU's source-over blending of the same quads (scripts/demo.sh runs it); the largest difference
// from the blend unit's result is shown too. Exit status 0 when every channel of every pixel is
// within 4/255 of the CPU's (each of the blends rounds to 8 bits), 1 when not, 2 when it cannot run.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "driver_selection.h"
#include "png_writer.h"
#include "tile_image_setup.h"

int main(int argc, char** argv) {
    using namespace vkpolyfill::bench;
    if (argc != 2) {
        std::fputs("usage: vkpolyfill_tile_image_demo OUT.png\n", stderr);
        return 2;
    }
    try {
        if (const std::string error = select_driver("system"); !error.empty()) throw std::runtime_error(error);
        constexpr uint32_t kSize = 256, kPatches = 48;
        const auto patches = vkpolyfill::test::tile_image::translucent_patches(kPatches, kSize);
        const std::unique_ptr<vkpolyfill::test::Context> context = tile_image_context(true);
        vkpolyfill::test::tile_image::SceneRenderer renderer(*context);
        const auto programmable = renderer.render(blend_scene(true, kSize, kPatches, 1), patches)[0];
        const auto fixed_function = renderer.render(blend_scene(false, kSize, kPatches, 1), patches)[0];
        std::vector<uint8_t> rgba;
        for (const auto& texel : programmable) {
            for (int c = 0; c < 4; ++c) rgba.push_back(static_cast<uint8_t>(std::lround(std::bit_cast<float>(texel[c]) * 255.0f)));
        }
        if (!write_png(argv[1], kSize, kSize, rgba)) throw std::runtime_error(std::string("cannot write ") + argv[1]);
        double from_cpu = 0;
        for (uint32_t y = 0; y < kSize; ++y) {
            for (uint32_t x = 0; x < kSize; ++x) {
                const std::array<float, 4> expected = vkpolyfill::test::tile_image::blended(patches, x, y);
                for (int c = 0; c < 4; ++c) {
                    from_cpu = std::max(from_cpu, std::abs(rgba[(y * kSize + x) * 4 + c] - expected[c] * 255.0));
                }
            }
        }
        const bool ok = from_cpu <= 4.0;
        std::printf("%u translucent quads blended in the fragment shader through tile-image reads, %ux%u, written to %s;\n"
                    "largest difference from the CPU's blending %.2f/255 (%s), from fixed-function blending %u/255\n",
                    kPatches, kSize, kSize, argv[1], from_cpu, ok ? "ok" : "MISMATCH", max_difference(programmable, fixed_function));
        return ok ? 0 : 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vkpolyfill_tile_image_demo: %s\n", e.what());
        return 2;
    }
}
