// OpColorAttachmentReadEXT, OpDepthAttachmentReadEXT and OpStencilAttachmentReadEXT as input
// attachment reads: OpImageRead of a SubpassData image at offset (0, 0), with the Sample operand
// when the pipeline is multisampled (a missing Sample reads sample 0, as the extension says; a
// single-sampled attachment has only sample 0).
//
// On a device that cannot index input attachments at run time (TileImageTarget::dynamic_indexing
// false), a read of a tile-image array element picked at run time reads every element of the array
// with a constant index and the index selects the texel; the run-time access chains and their loads
// are then removed.
#pragma once

#include <cstdint>

#include "ir/builder.h"
#include "passes/pass.h"
#include "passes/tile_image/color_array.h"

namespace vkpolyfill::lowering::tile_image {

class AttachmentReads {
  public:
    AttachmentReads(PassContext& context, const DynamicElements& dynamic);

    // Rewrites the read at block.instructions[i], if it is one; returns whether it was.
    bool lower(ir::BasicBlock& block, size_t i);

    // Without dynamic indexing, once every read is lowered: removes the run-time access chains and
    // their loads, reporting any other use of them (a chain passed to a function, say), which would
    // still index the attachments at run time. Returns whether all went.
    bool remove_dynamic_elements();

  private:
    struct Read {
        uint32_t image;   // the loaded SubpassData image
        uint32_t sample;  // 0 when the read has no Sample operand
    };
    // Adds an OpImageRead of a 4-component vector of `component_type`; returns its id. A color read
    // through an interlock (TileImageTarget::interlock) reads a storage image at the fragment's pixel
    // (and sample).
    uint32_t read_vec4(ir::Builder& builder, uint32_t component_type, const Read& read, bool color);
    // The texel of a color read, selected among the elements' reads when its image is an element
    // picked at run time on a device without dynamic indexing.
    uint32_t read_color(ir::Builder& builder, uint32_t component_type, const Read& read);
    // The depth or stencil input attachment, made on first use.
    uint32_t aspect_variable(uint32_t& variable, uint32_t component_type, uint32_t binding);
    uint32_t image_type(uint32_t component_type);
    uint32_t coordinate();

    PassContext& context_;
    const DynamicElements& dynamic_;
    bool multisampled_;
    bool interlock_;
    uint32_t coordinate_ = 0;
    uint32_t depth_variable_ = 0;
    uint32_t stencil_variable_ = 0;
};

}  // namespace vkpolyfill::lowering::tile_image
