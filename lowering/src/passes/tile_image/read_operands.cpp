#include "passes/tile_image/read_operands.h"

#include <format>
#include <spirv/unified1/spirv.hpp>
#include <string>

#include "ir/instruction_text.h"

namespace vkpolyfill::lowering::tile_image {
namespace {

const ir::Instruction* type_definition(const ir::Module& module, uint32_t id, uint32_t opcode) {
    const ir::Instruction* definition = module.find_definition(id);
    return definition != nullptr && definition->opcode() == opcode ? definition : nullptr;
}

bool is_scalar_32(const ir::Module& module, uint32_t type, uint32_t opcode) {
    const ir::Instruction* definition = type_definition(module, type, opcode);
    return definition != nullptr && definition->words().size() >= 3 && definition->word(2) == 32;
}

// The component type of a scalar or 2-4 component vector result; 0 for anything else.
uint32_t result_component(const ir::Module& module, uint32_t type) {
    const ir::Instruction* vector = type_definition(module, type, spv::OpTypeVector);
    if (vector == nullptr) return type;
    const uint32_t count = vector->words().size() == 4 ? vector->word(3) : 0;
    return count >= 2 && count <= 4 ? vector->word(2) : 0;
}

// Why a read is malformed, or empty.
std::string problem(const ir::Module& module, const ir::Instruction& read) {
    const std::span<const uint32_t> operands = read.operand_words();
    const bool color = read.opcode() == spv::OpColorAttachmentReadEXT;
    const size_t sample_index = color ? 1 : 0;
    if (operands.size() > sample_index && !is_scalar_32(module, module.type_of(operands[sample_index]), spv::OpTypeInt)) {
        return "its Sample is not a 32-bit integer";
    }
    if (read.opcode() == spv::OpDepthAttachmentReadEXT) {
        return is_scalar_32(module, read.type_id(), spv::OpTypeFloat) ? "" : "its result type is not a 32-bit float";
    }
    if (read.opcode() == spv::OpStencilAttachmentReadEXT) {
        return is_scalar_32(module, read.type_id(), spv::OpTypeInt) ? "" : "its result type is not a 32-bit integer";
    }
    if (operands.empty()) return "it has no Attachment";
    const ir::Instruction* image = type_definition(module, module.type_of(operands[0]), spv::OpTypeImage);
    if (image == nullptr || image->words().size() < 4 || image->word(3) != spv::DimTileImageDataEXT) {
        return "its Attachment is not a TileImageDataEXT image";
    }
    const uint32_t component = result_component(module, read.type_id());
    const ir::Instruction* component_type = module.find_definition(component);
    if (component_type == nullptr ||
        (component_type->opcode() != spv::OpTypeFloat && component_type->opcode() != spv::OpTypeInt)) {
        return "its result type is not a number or a vector of 2 to 4 numbers";
    }
    return component == image->word(2) ? "" : "its result's component type is not the attachment's sampled type";
}

}  // namespace

bool is_tile_image_read(uint32_t opcode) {
    return opcode == spv::OpColorAttachmentReadEXT || opcode == spv::OpDepthAttachmentReadEXT ||
           opcode == spv::OpStencilAttachmentReadEXT;
}

bool report_malformed_reads(const ir::Module& module, Diagnostics& diagnostics) {
    bool malformed = false;
    for (const auto& function : module.functions) {
        function->for_each_instruction([&](const ir::Instruction& instruction) {
            if (!is_tile_image_read(instruction.opcode())) return;
            const std::string why = problem(module, instruction);
            if (why.empty()) return;
            malformed = true;
            diagnostics.error(std::format("{} cannot be lowered: {}", instruction.name(), why), instruction.source_offset(),
                              ir::instruction_text(instruction.words(), module));
        });
    }
    return malformed;
}

}  // namespace vkpolyfill::lowering::tile_image
