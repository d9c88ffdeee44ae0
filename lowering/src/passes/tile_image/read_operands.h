// The operands of the tile-image reads, checked before anything is rewritten: the lowering builds a
// vec4 OpImageRead from the result type and the attachment's sampled type, so a result type that is
// not a scalar or a 2-4 component vector of that type, or a Sample that is not a 32-bit integer,
// would make a wrong module (or, for a vector of billions of components, exhaust memory). The
// application may have skipped spirv-val, so these are reported, naming the instruction.
#pragma once

#include <cstdint>

#include "diagnostics.h"
#include "ir/module.h"

namespace vkpolyfill::lowering::tile_image {

bool is_tile_image_read(uint32_t opcode);

// Reports every malformed tile-image read; returns whether there was one.
bool report_malformed_reads(const ir::Module& module, Diagnostics& diagnostics);

}  // namespace vkpolyfill::lowering::tile_image
