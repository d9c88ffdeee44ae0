#include "passes/cooperative_matrix/matrix_types.h"

#include <format>
#include <spirv/unified1/spirv.hpp>

#include "ir/instruction_text.h"
#include "specialization.h"

namespace vkpolyfill::lowering::cooperative_matrix {

std::optional<ComponentInfo> component_info(const ir::Module& module, uint32_t type_id) {
    const ir::Instruction* type = module.find_definition(type_id);
    if (!type) return std::nullopt;
    if (type->opcode() == spv::OpTypeFloat) return ComponentInfo{type_id, true, type->word(2)};
    if (type->opcode() == spv::OpTypeInt) return ComponentInfo{type_id, false, type->word(2)};
    return std::nullopt;
}

bool MatrixTypes::collect(PassContext& context) {
    ir::Module& module = context.module;
    std::vector<const ir::Instruction*> declarations;
    for (const auto& instruction : module.types_values_constants) {
        if (instruction->opcode() == spv::OpTypeCooperativeMatrixKHR) declarations.push_back(instruction.get());
    }
    bool ok = true;
    for (const ir::Instruction* declaration : declarations) {
        const auto operands = declaration->operand_words();
        const uint32_t id = declaration->result_id();
        const uint32_t offset = declaration->source_offset();
        const std::string text = ir::instruction_text(declaration->words(), module);
        const auto error = [&](std::string message) {
            context.diagnostics.error(std::format("cooperative matrix type %{}: {}", id, message), offset, text);
            ok = false;
        };
        std::optional<uint64_t> values[4];
        for (int i = 0; i < 4; ++i) {
            values[i] = freeze_constant(module, operands[1 + i], context.specialization, context.diagnostics);
            if (!values[i]) ok = false;
        }
        if (!values[0] || !values[1] || !values[2] || !values[3]) continue;
        const std::optional<ComponentInfo> component = component_info(module, operands[0]);
        if (!component) {
            error("the component type is not a scalar number");
            continue;
        }
        if (*values[0] != spv::ScopeSubgroup) {
            error(std::format("scope {} is not Subgroup; only subgroup-scope matrices are lowered by the KHR pass",
                              *values[0]));
            continue;
        }
        if (*values[3] > 2) {
            error(std::format("use {} is not MatrixA, MatrixB or MatrixAccumulator", *values[3]));
            continue;
        }
        if (context.target.subgroup_size == 0) {
            error("the target's subgroup size is unknown; it is needed to spread the matrix over the subgroup");
            continue;
        }
        const auto rows = static_cast<uint32_t>(*values[1]);
        const auto columns = static_cast<uint32_t>(*values[2]);
        const Use use = static_cast<Use>(*values[3]);
        const std::optional<LaneLayout> layout = lane_layout(rows, columns, use, context.target.subgroup_size);
        if (!layout) {
            error(std::format("a {}x{} matrix cannot be spread evenly over a subgroup of {} invocations", rows, columns,
                              context.target.subgroup_size));
            continue;
        }
        const uint32_t lowered = context.types.get_type_array(component->type, context.types.get_constant_uint32(layout->length));
        types_.emplace(id, MatrixType{id, *component, rows, columns, use, *layout, lowered});
    }
    return ok;
}

const MatrixType* MatrixTypes::find(uint32_t type_id) const {
    const auto it = types_.find(type_id);
    return it != types_.end() ? &it->second : nullptr;
}

const MatrixType* MatrixTypes::of_value(const ir::Module& module, uint32_t id) const { return find(module.type_of(id)); }

}  // namespace vkpolyfill::lowering::cooperative_matrix
