// The suite's tile-image fragment shaders as the graphics pipelines the tile-image tests draw them with
// (tile_image_renderer.h), compiled, not run (vkpolyfill_compile_kernels --tile-image NAME): on a GPU
// proxy, the lowered reads go through the real GPU compiler. NAME is the shader's and the sample
// count's, e.g. color_uint_array_nc@4.
#pragma once

#include <string>
#include <vector>

namespace vkpolyfill::bench {

std::vector<std::string> tile_image_kernel_names();

struct TileImageRequest {
    std::string name;
    bool every_set = false;         // the pipeline layout lists every descriptor set the device reports
    bool refusal_expected = false;  // the layer must refuse it (compile_outcome.h's expected_refusal)
};

// Compiles one through the layer and prints it as compile_outcome.h does; the exit status of the run.
// A device without VK_EXT_shader_tile_image (native or through the layer) skips it, as GoogleTest
// prints a skip.
int compile_tile_image(const TileImageRequest& request, bool json, const std::string& expect);

}  // namespace vkpolyfill::bench
