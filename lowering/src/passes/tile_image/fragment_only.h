// Tile images are read by fragment shaders only (the extension's rule, which spirv-val enforces on
// the input but not on the lowered input-attachment reads, as an application may skip validation):
// a read reachable from another entry point is reported, naming the instruction and the entry point.
#pragma once

#include "diagnostics.h"
#include "ir/module.h"

namespace vkpolyfill::lowering::tile_image {

// Reports every tile-image read reachable from a non-Fragment entry point; returns whether there was one.
bool report_reads_outside_fragment_shaders(const ir::Module& module, Diagnostics& diagnostics);

}  // namespace vkpolyfill::lowering::tile_image
