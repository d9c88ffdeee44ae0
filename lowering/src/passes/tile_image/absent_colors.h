// Tile images of color locations the pipeline has no attachment at (TileImageTarget::color_locations):
// a shader may declare them, as long as what it reads from them does not matter (the extension leaves
// the values undefined), but an input attachment of such a location would be invalid for the driver.
// Their reads become zeros, and the variables go with the loads and access chains that reach them.
#pragma once

#include <vector>

#include "passes/pass.h"
#include "passes/tile_image/tile_variables.h"

namespace vkpolyfill::lowering::tile_image {

// Rewrites the reads of the variables whose locations all lack an attachment and removes those
// variables; returns the others. Reports an array whose locations are partly present, and a variable
// of an absent location that reaches anything but reads (a function call, say), after which the
// module is only fit to be dropped (as lower() does).
std::vector<TileVariable> remove_absent_colors(PassContext& context, const std::vector<TileVariable>& variables);

}  // namespace vkpolyfill::lowering::tile_image
