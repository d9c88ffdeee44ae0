#include "passes/tile_image/tile_variables.h"

#include <optional>
#include <spirv/unified1/spirv.hpp>

#include "ir/decorations.h"
#include "ir/instruction_text.h"

namespace vkpolyfill::lowering::tile_image {
namespace {

// The pointee of a variable's pointer type, through an array: the array length (1 without one), or
// nullopt when the length is not a plain constant (a specialization constant would change the
// descriptors the layer binds after lowering).
std::optional<uint32_t> element_count(const ir::Module& module, const ir::Instruction& variable) {
    const ir::Instruction* pointer = module.find_definition(variable.type_id());
    const ir::Instruction* pointee = pointer ? module.find_definition(pointer->word(3)) : nullptr;
    if (pointee == nullptr || pointee->opcode() != spv::OpTypeArray) return 1;
    const ir::Instruction* length = module.find_definition(pointee->word(3));
    if (length == nullptr || length->opcode() != spv::OpConstant) return std::nullopt;
    return length->word(3);
}

}  // namespace

bool declares_tile_image(const ir::Module& module) {
    for (const auto& capability : module.capabilities) {
        switch (capability->word(1)) {
            case spv::CapabilityTileImageColorReadAccessEXT:
            case spv::CapabilityTileImageDepthReadAccessEXT:
            case spv::CapabilityTileImageStencilReadAccessEXT:
                return true;
            default:
                break;
        }
    }
    return false;
}

std::vector<TileVariable> find_tile_variables(const ir::Module& module, Diagnostics& diagnostics) {
    std::vector<TileVariable> variables;
    for (const auto& instruction : module.types_values_constants) {
        if (instruction->opcode() != spv::OpVariable || instruction->word(3) != spv::StorageClassTileImageEXT) continue;
        const std::optional<uint32_t> location = ir::find_decoration(module, instruction->result_id(), spv::DecorationLocation);
        const std::optional<uint32_t> count = element_count(module, *instruction);
        if (!location || !count) {
            diagnostics.error(location ? "a tile-image array whose length is not a constant is not supported"
                                       : "a tile-image variable has no Location decoration",
                              instruction->source_offset(), ir::instruction_text(instruction->words(), module));
            continue;
        }
        variables.push_back({instruction->result_id(), *location, *count});
    }
    return variables;
}

}  // namespace vkpolyfill::lowering::tile_image
