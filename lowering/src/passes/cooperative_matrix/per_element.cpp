#include "passes/cooperative_matrix/per_element.h"

#include <format>
#include <optional>
#include <spirv/unified1/spirv.hpp>

#include "ir/function_builder.h"
#include "ir/instruction_text.h"
#include "passes/cooperative_matrix/element_loop.h"
#include "passes/cooperative_matrix/placement.h"

namespace vkpolyfill::lowering::cooperative_matrix {
namespace {

// The types of Func's parameters, from its OpTypeFunction; none if Func is not a function whose
// parameters are all types.
std::vector<uint32_t> parameter_types(const ir::Module& module, uint32_t function) {
    const ir::Instruction* definition = module.find_definition(function);
    if (!definition || definition->opcode() != spv::OpFunction) return {};
    const ir::Instruction* type = module.find_definition(definition->operand_words()[1]);
    if (!type || type->opcode() != spv::OpTypeFunction) return {};
    const auto words = type->operand_words();  // return type, parameter types
    std::vector<uint32_t> parameters(words.begin() + 1, words.end());
    for (const uint32_t parameter : parameters) {
        const ir::Instruction* declaration = module.find_definition(parameter);
        if (!declaration || declaration->info().instruction_class != grammar::InstructionClass::TypeDeclaration) return {};
    }
    return parameters;
}

}  // namespace

bool lower_per_element(LoweringState& state, ir::BasicBlock& block, size_t index) {
    const ir::Instruction& instruction = *block.instructions[index];
    ir::Module& module = state.module();
    const auto operands = instruction.operand_words();  // Matrix, Func, extra operands...
    const MatrixType* matrix = state.matrices.of_value(module, operands[0]);
    const MatrixType* result = state.matrices.find(instruction.type_id());
    const uint32_t func = operands[1];
    const std::vector<uint32_t> func_parameters = parameter_types(module, func);
    const auto refuse = [&](const std::string& why) {
        state.context.diagnostics.error(std::format("OpCooperativeMatrixPerElementOpNV cannot be lowered: {}", why),
                                        instruction.source_offset(), ir::instruction_text(instruction.words(), module));
        return false;
    };
    if (!matrix || !result || matrix->id != result->id || func_parameters.size() != operands.size() + 1) {
        return refuse("its matrix, result and Func do not match (Func takes row, column, the element, then one parameter per "
                      "extra operand)");
    }
    const auto extras = operands.subspan(2);
    std::vector<uint32_t> parameters{matrix->lowered};
    std::vector<const MatrixType*> extra_matrices;
    for (size_t i = 0; i < extras.size(); ++i) {
        const MatrixType* m = state.matrices.of_value(module, extras[i]);
        // An extra matrix's elements go with Matrix's at the same index: it must be laid out as Matrix.
        if (m && (m->rows != matrix->rows || m->columns != matrix->columns || m->use != matrix->use ||
                  m->workgroup != matrix->workgroup)) {
            return refuse(std::format("its extra operand %{} is a cooperative matrix of another type than Matrix", extras[i]));
        }
        // Any other extra operand goes to Func as it is: it must be a value of Func's parameter type.
        if (!m && module.type_of(extras[i]) != func_parameters[3 + i]) {
            return refuse(std::format("its extra operand %{} is neither a cooperative matrix nor a value of the type Func's "
                                      "parameter {} has",
                                      extras[i], 3 + i));
        }
        extra_matrices.push_back(m);
        parameters.push_back(m ? m->lowered : module.type_of(extras[i]));
    }

    std::vector<uint32_t> key{0x50454C4Du /* "PELM" */, matrix->id, func};
    key.insert(key.end(), parameters.begin(), parameters.end());
    uint32_t function_id = state.find_function(key);
    if (!function_id) {
        ir::FunctionBuilder function(module, state.types(), matrix->lowered, parameters);
        ir::Builder& b = function.body();
        const Placement place(state, b, *matrix);
        // Row and column go as Func declares them: 32-bit integers of either signedness.
        const auto as_parameter = [&](uint32_t value, uint32_t type) {
            return type == state.uint_type() ? value : b.add(spv::OpBitcast, type, {value});
        };
        const auto components_of = [&](const MatrixType& m, uint32_t value) {
            return Components(state, function, m.lowered, m.component.type, m.length, value);
        };
        Components elements = components_of(*matrix, function.parameter(0));
        std::vector<std::optional<Components>> extra_elements;
        for (size_t i = 0; i < extras.size(); ++i) {
            if (extra_matrices[i]) extra_elements.push_back(components_of(*extra_matrices[i], function.parameter(1 + i)));
            else extra_elements.emplace_back();
        }
        Components results = components_of(*matrix, 0);
        repeat(state, function, matrix->length, [&](const Iteration& e) {
            std::vector<uint32_t> call{func, as_parameter(place.row(b, e), func_parameters[0]),
                                       as_parameter(place.column(b, e), func_parameters[1]), elements.get(e)};
            for (size_t i = 0; i < extras.size(); ++i) call.push_back(extra_elements[i] ? extra_elements[i]->get(e) : function.parameter(1 + i));
            results.set(e, b.add(spv::OpFunctionCall, matrix->component.type, call));
        });
        function.finish(results.value());
        function_id = function.id();
        state.remember_function(std::move(key), function_id);
    }
    std::vector<uint32_t> call{function_id, operands[0]};
    call.insert(call.end(), extras.begin(), extras.end());
    const uint32_t type = instruction.type_id(), result_id = instruction.result_id();
    block.instructions.erase(block.instructions.begin() + static_cast<ptrdiff_t>(index));  // `instruction` dies here
    ir::Builder(module, block, index).add(spv::OpFunctionCall, type, call, result_id);
    return true;
}

}  // namespace vkpolyfill::lowering::cooperative_matrix
