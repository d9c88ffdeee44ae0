// The SPV_EXT_shader_tile_image pass: tile images become input attachments read through dynamic
// rendering local read (VK_KHR_dynamic_rendering_local_read), in the layer's descriptor set
// (Target::tile_image). Tile-image variables keep their ids and become UniformConstant SubpassData
// images with InputAttachmentIndex = Location, so every use of them (access chains, loads, function
// parameters) stays valid; the three read instructions become OpImageRead. The ordering the
// NonCoherent*ReadEXT modes relax is the layer's business (tile_image_usage reports them).
#pragma once

#include <memory>

#include "passes/pass.h"

namespace vkpolyfill::lowering {

std::unique_ptr<Pass> make_tile_image_pass();

}  // namespace vkpolyfill::lowering
