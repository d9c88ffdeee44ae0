#include "passes/tile_image/attachment_reads.h"

#include <array>
#include <spirv/unified1/spirv.hpp>
#include <unordered_set>
#include <vector>

#include "ir/id_remap.h"
#include "passes/tile_image/interlocked_outputs.h"
#include "passes/tile_image/read_operands.h"
#include "passes/tile_image/tile_variables.h"

namespace vkpolyfill::lowering::tile_image {
namespace {

const DynamicElements kNone;

bool is_vector(const ir::Module& module, uint32_t type) {
    const ir::Instruction* definition = module.find_definition(type);
    return definition != nullptr && definition->opcode() == spv::OpTypeVector;
}

}  // namespace

AttachmentReads::AttachmentReads(PassContext& context, const DynamicElements& dynamic)
    : context_(context), dynamic_(context.target.tile_image.dynamic_indexing ? kNone : dynamic),
      multisampled_(context.target.tile_image.samples > 1), interlock_(context.target.tile_image.interlock) {}

uint32_t AttachmentReads::coordinate() {
    if (!coordinate_) {
        ir::TypeManager& types = context_.types;
        const uint32_t int_type = types.get_type_int(32, true);
        const uint32_t zero = types.get_constant(int_type, std::array{0u});
        coordinate_ = types.get_constant_composite(types.get_type_vector(int_type, 2), std::array{zero, zero});
    }
    return coordinate_;
}

uint32_t AttachmentReads::image_type(uint32_t component_type) {
    const uint32_t operands[] = {component_type, spv::DimSubpassData, 0, 0, multisampled_ ? 1u : 0u, 2,
                                 spv::ImageFormatUnknown};
    return context_.types.get_equivalent(spv::OpTypeImage, 0, operands);
}

// Depth and stencil are the attachments without an InputAttachmentIndex: dynamic rendering maps
// those to its depth/stencil attachment.
uint32_t AttachmentReads::aspect_variable(uint32_t& variable, uint32_t component_type, uint32_t binding) {
    if (!variable) variable = add_layer_variable(context_, image_type(component_type), binding);
    return variable;
}

uint32_t AttachmentReads::read_vec4(ir::Builder& builder, uint32_t component_type, const Read& read, bool color) {
    const uint32_t vec4 = context_.types.get_type_vector(component_type, 4);
    std::vector<uint32_t> operands{read.image, color && interlock_ ? pixel_coordinate(context_, builder) : coordinate()};
    if (multisampled_) {
        operands.push_back(spv::ImageOperandsSampleMask);
        operands.push_back(read.sample ? read.sample : context_.types.get_constant_uint32(0));
    }
    return builder.add(spv::OpImageRead, vec4, operands);
}

uint32_t AttachmentReads::read_color(ir::Builder& builder, uint32_t component_type, const Read& read) {
    const ir::Module& module = context_.module;
    const ir::Instruction* load = module.find_definition(read.image);
    const auto found = load && load->opcode() == spv::OpLoad ? dynamic_.find(load->word(3)) : dynamic_.end();
    if (found == dynamic_.end()) return read_vec4(builder, component_type, read, true);
    const DynamicElement& element = found->second;
    const uint32_t pointer_type = module.find_definition(found->first)->type_id();
    ir::TypeManager& types = context_.types;
    const uint32_t index_type = module.find_definition(element.index)->type_id();
    const bool wide_index = module.find_definition(index_type)->word(2) == 64;
    const uint32_t vec4 = types.get_type_vector(component_type, 4);
    const uint32_t boolean = types.get_type_bool();
    const uint32_t bvec4 = types.get_type_vector(boolean, 4);  // OpSelect on a scalar condition needs SPIR-V 1.4
    uint32_t texel = 0;
    for (uint32_t k = element.first; k < element.first + element.count; ++k) {
        const uint32_t pointer = builder.add(spv::OpAccessChain, pointer_type, {element.array, types.get_constant_uint32(k)});
        const uint32_t image = builder.add(spv::OpLoad, load->type_id(), {pointer});
        const uint32_t value = read_vec4(builder, component_type, {image, read.sample}, true);
        if (!texel) {
            texel = value;
            continue;
        }
        const uint32_t k_index = wide_index ? types.get_constant(index_type, std::array{k, 0u}) : types.get_constant(index_type, std::array{k});
        const uint32_t is_k = builder.add(spv::OpIEqual, boolean, {element.index, k_index});
        const uint32_t condition = builder.add(spv::OpCompositeConstruct, bvec4, {is_k, is_k, is_k, is_k});
        texel = builder.add(spv::OpSelect, vec4, {condition, value, texel});
    }
    return texel;
}

bool AttachmentReads::remove_dynamic_elements() {
    if (dynamic_.empty()) return true;
    ir::Module& module = context_.module;
    std::unordered_set<uint32_t> ids;  // the chains and their loads
    for (const auto& [chain, element] : dynamic_) ids.insert(chain);
    module.for_each_instruction([&](const ir::Instruction& i) {
        if (i.opcode() == spv::OpLoad && dynamic_.contains(i.word(3))) ids.insert(i.result_id());
    });
    ir::remove_names_and_decorations(module, ids);
    report_uses(context_, ids, [](const ir::Instruction&) { return false; },
                "a tile-image array element picked at run time is used other than by reads (the device cannot index input "
                "attachments at run time: shaderInputAttachmentArrayDynamicIndexing)");
    if (context_.diagnostics.has_errors()) return false;
    for (const auto& function : module.functions) {
        for (ir::BasicBlock& block : function->blocks) {
            std::erase_if(block.instructions, [&](const std::unique_ptr<ir::Instruction>& i) { return ids.contains(i->result_id()); });
        }
    }
    for (const uint32_t id : ids) module.forget_definition(id);
    return true;
}

bool AttachmentReads::lower(ir::BasicBlock& block, size_t i) {
    const ir::Instruction& instruction = *block.instructions[i];
    const uint32_t opcode = instruction.opcode();
    if (!is_tile_image_read(opcode)) return false;
    ir::Module& module = context_.module;
    ir::TypeManager& types = context_.types;
    const uint32_t result_type = instruction.type_id();
    const uint32_t result = instruction.result_id();
    const std::vector<uint32_t> operands(instruction.operand_words().begin(), instruction.operand_words().end());
    block.instructions.erase(block.instructions.begin() + static_cast<ptrdiff_t>(i));
    ir::Builder builder(module, block, i);

    if (opcode == spv::OpColorAttachmentReadEXT) {
        // The result is the tile image's sampled type, a scalar or a vector of it.
        const uint32_t component = is_vector(module, result_type) ? module.find_definition(result_type)->word(2) : result_type;
        const uint32_t texel = read_color(builder, component, {operands[0], operands.size() > 1 ? operands[1] : 0});
        if (result_type == types.get_type_vector(component, 4)) {
            builder.add(spv::OpCopyObject, result_type, {texel}, result);
        } else if (!is_vector(module, result_type)) {
            builder.add(spv::OpCompositeExtract, result_type, {texel, 0}, result);
        } else {
            std::vector<uint32_t> shuffle{texel, texel};
            for (uint32_t c = 0; c < module.find_definition(result_type)->word(3); ++c) shuffle.push_back(c);
            builder.add(spv::OpVectorShuffle, result_type, shuffle, result);
        }
        return true;
    }

    const bool depth = opcode == spv::OpDepthAttachmentReadEXT;
    const uint32_t component = depth ? types.get_type_float(ir::kFloat32) : types.get_type_int(32, false);
    const uint32_t binding = context_.target.tile_image.depth_binding + (depth ? 0 : 1);
    const uint32_t variable = aspect_variable(depth ? depth_variable_ : stencil_variable_, component, binding);
    const uint32_t image = builder.add(spv::OpLoad, image_type(component), {variable});
    const uint32_t texel = read_vec4(builder, component, {image, operands.empty() ? 0 : operands[0]}, false);
    if (result_type == component) {
        builder.add(spv::OpCompositeExtract, result_type, {texel, 0}, result);
    } else {  // a signed stencil result: stencil attachments hold unsigned values
        const uint32_t value = builder.add(spv::OpCompositeExtract, component, {texel, 0});
        builder.add(spv::OpBitcast, result_type, {value}, result);
    }
    return true;
}

}  // namespace vkpolyfill::lowering::tile_image
