#include "passes/cooperative_matrix/element_ops.h"

#include <format>
#include <optional>
#include <spirv/unified1/spirv.hpp>

#include "ir/function_builder.h"
#include "ir/instruction_text.h"
#include "passes/cooperative_matrix/element_loop.h"

namespace vkpolyfill::lowering::cooperative_matrix {

bool is_element_wise(uint32_t opcode) {
    switch (opcode) {
        case spv::OpSNegate:
        case spv::OpFNegate:
        case spv::OpIAdd:
        case spv::OpFAdd:
        case spv::OpISub:
        case spv::OpFSub:
        case spv::OpIMul:
        case spv::OpFMul:
        case spv::OpUDiv:
        case spv::OpSDiv:
        case spv::OpFDiv:
        case spv::OpMatrixTimesScalar:
        case spv::OpConvertFToU:
        case spv::OpConvertFToS:
        case spv::OpConvertSToF:
        case spv::OpConvertUToF:
        case spv::OpUConvert:
        case spv::OpSConvert:
        case spv::OpFConvert:
        case spv::OpBitcast:
            return true;
        default:
            return false;
    }
}

bool lower_element_wise(LoweringState& state, ir::BasicBlock& block, size_t index) {
    const ir::Instruction& instruction = *block.instructions[index];
    ir::Module& module = state.module();
    const MatrixType* result = state.matrices.find(instruction.type_id());
    const auto operands = instruction.operand_words();
    std::vector<const MatrixType*> operand_matrices;
    std::vector<uint32_t> parameter_types;
    for (uint32_t operand : operands) {
        const MatrixType* matrix = state.matrices.of_value(module, operand);
        const char* problem = nullptr;
        if (matrix && matrix->length != result->length) {
            problem = "mixes cooperative matrices of different shapes or uses";
        } else if (!matrix && !component_info(module, module.type_of(operand))) {
            problem = "has an operand that is neither a cooperative matrix nor a scalar number";
        }
        if (problem) {
            state.context.diagnostics.error(std::format("{} {}", instruction.name(), problem), instruction.source_offset(),
                                            ir::instruction_text(instruction.words(), module));
            return false;
        }
        operand_matrices.push_back(matrix);
        parameter_types.push_back(matrix ? matrix->lowered : module.type_of(operand));
    }
    // OpMatrixTimesScalar on a matrix is a multiplication of each component (glslang also emits it
    // for integer matrices).
    uint32_t scalar_opcode = instruction.opcode();
    if (scalar_opcode == spv::OpMatrixTimesScalar) scalar_opcode = result->component.is_float ? spv::OpFMul : spv::OpIMul;

    std::vector<uint32_t> key{0x454C4D54u /* "ELMT" */, scalar_opcode, result->id};
    key.insert(key.end(), parameter_types.begin(), parameter_types.end());
    uint32_t function_id = state.find_function(key);
    if (!function_id) {
        ir::FunctionBuilder function(module, state.types(), result->lowered, parameter_types);
        std::vector<std::optional<Components>> inputs;
        for (size_t i = 0; i < operands.size(); ++i) {
            const MatrixType* m = operand_matrices[i];
            if (m) inputs.emplace_back(std::in_place, state, function, m->lowered, m->component.type, m->length, function.parameter(i));
            else inputs.emplace_back();
        }
        Components components(state, function, result->lowered, result->component.type, result->length);
        repeat(state, function, result->length, [&](const Iteration& e) {
            std::vector<uint32_t> scalars;
            for (size_t i = 0; i < operands.size(); ++i) scalars.push_back(inputs[i] ? inputs[i]->get(e) : function.parameter(i));
            components.set(e, function.body().add(scalar_opcode, result->component.type, scalars));
        });
        function.finish(components.value());
        function_id = function.id();
        state.remember_function(std::move(key), function_id);
    }

    std::vector<uint32_t> call{function_id};
    call.insert(call.end(), operands.begin(), operands.end());
    const uint32_t result_id = instruction.result_id();
    // `instruction` and `operands` die here.
    block.instructions.erase(block.instructions.begin() + static_cast<ptrdiff_t>(index));
    // The call keeps the matrix type until the pass replaces every matrix type at the end.
    ir::Builder(module, block, index).add(spv::OpFunctionCall, result->id, call, result_id);
    return true;
}

}  // namespace vkpolyfill::lowering::cooperative_matrix
