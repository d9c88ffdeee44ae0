// Color tile images as elements of one input-attachment array at binding 0 of the layer's set: element
// L reads color location L (InputAttachmentIndex 0 on the array, so element L is input attachment L).
// One set layout then fits every shader whatever locations it reads, which shader objects bound
// together need (they must list identical set layouts: VUID-vkCmdDraw-None-08879). A tile-image array
// at location L indexes the whole array from L; a single image becomes a pointer to element L in each
// function that uses it. Images of different sampled types (float, int, uint) get an array each, all
// at binding 0: Vulkan lets variables share a binding when each suits its descriptor type.
#pragma once

#include <vector>

#include "passes/pass.h"
#include "passes/tile_image/tile_variables.h"

namespace vkpolyfill::lowering::tile_image {

// Replaces `variables` by the arrays (of their image types, which the pass then makes SubpassData).
// Reports a location past the set's colors (TileImageTarget::depth_binding), a tile-image array used
// other than through access chains with an integer index, and a tile image named anywhere outside a
// function's blocks but by names, decorations and interfaces.
void gather_colors(PassContext& context, const std::vector<TileVariable>& variables);

}  // namespace vkpolyfill::lowering::tile_image
