// Color tile images as elements of one input-attachment array at binding 0 of the layer's set: element
// L reads color location L (InputAttachmentIndex 0 on the array, so element L is input attachment L).
// One set layout then fits every shader whatever locations it reads, which shader objects bound
// together need (they must list identical set layouts: VUID-vkCmdDraw-None-08879). A tile-image array
// at location L indexes the whole array from L; a single image becomes a pointer to element L in each
// function that uses it. Images of different sampled types (float, int, uint) get an array each, all
// at binding 0: Vulkan lets variables share a binding when each suits its descriptor type.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "passes/pass.h"
#include "passes/tile_image/tile_variables.h"

namespace vkpolyfill::lowering::tile_image {

// An access chain into a tile-image array whose index is known only at run time: elements `first`..
// `first` + `count` - 1 of the layer's array `array`, `index` (already shifted by `first`) picking one.
struct DynamicElement {
    uint32_t array = 0;
    uint32_t first = 0;
    uint32_t count = 0;
    uint32_t index = 0;
};
using DynamicElements = std::unordered_map<uint32_t, DynamicElement>;  // by the access chain's result

// Replaces `variables` by the arrays (of their image types, which the pass then makes SubpassData);
// returns the access chains indexed at run time. Reports a location past the set's colors
// (TileImageTarget::depth_binding), a tile-image array used other than through access chains with an
// integer index, and a tile image named anywhere outside a function's blocks but by names,
// decorations and interfaces.
DynamicElements gather_colors(PassContext& context, const std::vector<TileVariable>& variables);

}  // namespace vkpolyfill::lowering::tile_image
