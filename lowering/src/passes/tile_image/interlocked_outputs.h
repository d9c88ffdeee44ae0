// Coherent color reads ordered by fragment shader interlock (TileImageTarget::interlock), for devices
// without rasterization-order attachment access. An interlock orders only the shader's own memory
// accesses, not the attachment writes after the shader, so the colors the shader reads are read and
// written as storage images of the attachments, inside one pixel-ordered critical section: the entry
// point becomes a new function that begins the interlock, calls the application's entry function,
// writes that function's outputs of the read locations to their storage images, and ends it. The layer
// masks the attachments' own writes of those locations. EarlyFragmentTests keeps a fragment that fails
// the depth or stencil test from writing, as the attachment write it replaces would not; multisampled,
// the outputs go to each sample the invocation covers after those tests (PostDepthCoverage).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/builder.h"
#include "passes/pass.h"
#include "passes/tile_image/tile_variables.h"

namespace vkpolyfill::lowering::tile_image {

// Why a fragment shader's tile-image reads of `variables` cannot be ordered so, or "": it discards
// or demotes (its output would already be written), writes depth, stencil or the sample mask (the
// tests must run before it), uses an interlock or the Vulkan memory model itself, or writes a read
// location other than through one variable of the tile image's component type.
std::string interlock_obstacle(const ir::Module& module, const std::vector<TileVariable>& variables);

// The fragment's pixel, as a storage image coordinate (an ivec2 of gl_FragCoord.xy).
uint32_t pixel_coordinate(PassContext& context, ir::Builder& builder);

// An Output variable of a read color location, and the texel it becomes.
struct ReadOutput {
    uint32_t variable = 0;
    uint32_t location = 0;
    uint32_t value_type = 0;      // a scalar or vector of component_type
    uint32_t component_type = 0;  // the tile image's sampled type
    uint32_t components = 1;
};

// The outputs of the locations `variables` read (the tile images of locations with attachments,
// before the pass replaces them); reports an obstacle and returns nullopt.
std::optional<std::vector<ReadOutput>> interlocked_outputs(PassContext& context, const std::vector<TileVariable>& variables);

// Wraps every fragment entry point as above, once the reads are storage image reads.
void write_outputs_in_interlock(PassContext& context, const std::vector<ReadOutput>& outputs);

}  // namespace vkpolyfill::lowering::tile_image
