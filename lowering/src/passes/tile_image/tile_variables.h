// The tile-image variables of a module (TileImageEXT storage class, an image or an array of images of
// Dim TileImageDataEXT, decorated with the color Location they alias), found the same way by the pass
// and by tile_image_usage().
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "diagnostics.h"
#include "ir/module.h"
#include "passes/pass.h"

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

// A UniformConstant variable of `pointee` at `binding` of the layer's set, listed in the entry points'
// interfaces from SPIR-V 1.4 on (before, interfaces list Input and Output variables only).
uint32_t add_layer_variable(PassContext& context, uint32_t pointee, uint32_t binding);

// Reports, with `message`, every instruction naming one of `ids` that `allowed` refuses (their own
// definitions and the entry points' interface lists aside), and an entry point whose function is one:
// what a rewrite of those ids would leave dangling.
void report_uses(PassContext& context, const std::unordered_set<uint32_t>& ids,
                 const std::function<bool(const ir::Instruction&)>& allowed, std::string_view message);

}  // namespace vkpolyfill::lowering::tile_image
