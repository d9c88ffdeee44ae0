#include "passes/tile_image/tile_variables.h"

#include <array>
#include <optional>
#include <spirv/unified1/spirv.hpp>
#include <string>

#include "ir/builtin_variable.h"
#include "ir/decorations.h"
#include "ir/instruction_text.h"
#include "passes/common/id_operands.h"

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

uint32_t add_layer_variable(PassContext& context, uint32_t pointee, uint32_t binding) {
    constexpr uint32_t kSpirv14 = 0x00010400;
    ir::Module& module = context.module;
    const uint32_t pointer = context.types.get_type_pointer(spv::StorageClassUniformConstant, pointee);
    const uint32_t variable = module.take_next_id();
    module.types_values_constants.push_back(
        ir::make_instruction(spv::OpVariable, std::array{pointer, variable, uint32_t{spv::StorageClassUniformConstant}}));
    module.register_definition(*module.types_values_constants.back());
    const uint32_t set = context.target.tile_image.descriptor_set;
    module.annotations.push_back(ir::make_instruction(spv::OpDecorate, std::array{variable, uint32_t{spv::DecorationDescriptorSet}, set}));
    module.annotations.push_back(ir::make_instruction(spv::OpDecorate, std::array{variable, uint32_t{spv::DecorationBinding}, binding}));
    if (module.header.version >= kSpirv14) ir::add_to_entry_point_interfaces(module, variable);
    return variable;
}

void report_uses(PassContext& context, const std::unordered_set<uint32_t>& ids,
                 const std::function<bool(const ir::Instruction&)>& allowed, std::string_view message) {
    const ir::Module& module = context.module;
    module.for_each_instruction([&](const ir::Instruction& i) {
        if (i.opcode() == spv::OpEntryPoint || ids.contains(i.result_id()) || allowed(i)) return;
        if (!refers_to(module, i, [&](uint32_t id) { return ids.contains(id); })) return;
        context.diagnostics.error(std::string(message), i.source_offset(), ir::instruction_text(i.words(), module));
    });
    for (const auto& entry_point : module.entry_points) {
        if (!ids.contains(entry_point->word(2))) continue;
        context.diagnostics.error("an entry point names a tile image as its function", entry_point->source_offset(),
                                  ir::instruction_text(entry_point->words(), module));
    }
}

}  // namespace vkpolyfill::lowering::tile_image
