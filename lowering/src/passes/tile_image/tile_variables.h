// The tile-image variables of a module (TileImageEXT storage class, an image or an array of images of
// Dim TileImageDataEXT, decorated with the color Location they alias), found the same way by the pass
// and by tile_image_usage().
#pragma once

#include <cstdint>
#include <vector>

#include "diagnostics.h"
#include "ir/module.h"

namespace vkpolyfill::lowering::tile_image {

struct TileVariable {
    uint32_t id = 0;
    uint32_t location = 0;
    uint32_t count = 1;  // array length, 1 for a single image
};

// Reports a variable without a Location or with an array length that is not a constant.
std::vector<TileVariable> find_tile_variables(const ir::Module& module, Diagnostics& diagnostics);

// Whether the module declares any of SPV_EXT_shader_tile_image's capabilities.
bool declares_tile_image(const ir::Module& module);

}  // namespace vkpolyfill::lowering::tile_image
