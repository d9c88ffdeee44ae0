#include "passes/cooperative_matrix/relayout.h"

#include <format>
#include <spirv/unified1/spirv.hpp>

#include "ir/function_builder.h"
#include "ir/instruction_text.h"
#include "passes/cooperative_matrix/placement.h"

namespace vkpolyfill::lowering::cooperative_matrix {
namespace {

constexpr uint32_t kReduceRow = 1, kReduceColumn = 2, kReduce2x2 = 4;

bool signed_int(const ir::Module& module, const ComponentInfo& c) {
    return !c.is_float && module.find_definition(c.type)->word(3) != 0;
}

// The component conversion between two component types (none when equal); `opcode` is the
// instruction's own conversion when it has one.
uint32_t convert(LoweringState& state, ir::Builder& b, uint32_t value, const ComponentInfo& from, const ComponentInfo& to,
                 uint32_t opcode) {
    if (from.type == to.type) return value;
    if (opcode == 0) {
        const bool from_signed = signed_int(state.module(), from);
        if (from.is_float && to.is_float) opcode = spv::OpFConvert;
        else if (from.is_float) opcode = signed_int(state.module(), to) ? spv::OpConvertFToS : spv::OpConvertFToU;
        else if (to.is_float) opcode = from_signed ? spv::OpConvertSToF : spv::OpConvertUToF;
        else opcode = from.width == to.width ? spv::OpBitcast : (from_signed ? spv::OpSConvert : spv::OpUConvert);
    }
    return b.add(opcode, to.type, {value});
}

// Writes every element `matrix` holds at row * pitch + column (transposed: column * pitch + row)
// of the subgroup's slice (or the workgroup's region), between barriers.
void write_to_scratch(LoweringState& state, Scratch& scratch, ir::FunctionBuilder& function, const MatrixType& m,
                      uint32_t matrix, bool transpose, uint32_t pitch) {
    scratch.barrier(function.body(), m.workgroup);  // the previous user's reads are done
    store_to_scratch(state, scratch, function, m, matrix, 0, pitch, transpose, m.rows * m.columns);
    scratch.barrier(function.body(), m.workgroup);
}

uint32_t read_scratch(LoweringState& state, Scratch& scratch, ir::Builder& b, const MatrixType& source, uint32_t row,
                      uint32_t column, uint32_t pitch) {
    const uint32_t u = state.uint_type();
    const uint32_t index = b.add(spv::OpIAdd, u, {b.add(spv::OpIMul, u, {row, state.uint_constant(pitch)}), column});
    return b.add(spv::OpLoad, source.component.type,
                 {scratch.element_pointer(b, source.component.type, index, source.rows * source.columns, source.workgroup)});
}

bool report(LoweringState& state, const ir::Instruction& instruction, const std::string& why) {
    state.context.diagnostics.error(std::format("{} cannot be lowered: {}", instruction.name(), why), instruction.source_offset(),
                                    ir::instruction_text(instruction.words(), state.module()));
    return false;
}

// Replaces block.instructions[index] by a call of `function` on its operand(s) `arguments`.
void call_instead(LoweringState& state, ir::BasicBlock& block, size_t index, uint32_t function, std::vector<uint32_t> arguments) {
    const ir::Instruction& instruction = *block.instructions[index];
    const uint32_t type = instruction.type_id();  // the matrix type, replaced at the end of the pass
    const uint32_t result = instruction.result_id();
    arguments.insert(arguments.begin(), function);
    block.instructions.erase(block.instructions.begin() + static_cast<ptrdiff_t>(index));
    ir::Builder(state.module(), block, index).add(spv::OpFunctionCall, type, arguments, result);
}

}  // namespace

void store_to_scratch(LoweringState& state, Scratch& scratch, ir::FunctionBuilder& function, const MatrixType& m,
                      uint32_t matrix, uint32_t offset, uint32_t pitch, bool transpose, uint32_t area_elements) {
    ir::Builder& entry = function.body();
    const Placement place(state, entry, m);
    const uint32_t writer = place.sole_writer(entry);
    if (writer) function.begin_if(writer);
    ir::Builder& b = function.body();
    const uint32_t u = state.uint_type();
    for (uint32_t e = 0; e < m.length; ++e) {
        const uint32_t major = transpose ? place.column(b, e) : place.row(b, e);
        const uint32_t minor = transpose ? place.row(b, e) : place.column(b, e);
        const uint32_t line = b.add(spv::OpIAdd, u, {state.uint_constant(offset), b.add(spv::OpIMul, u, {major, state.uint_constant(pitch)})});
        const uint32_t value = b.add(spv::OpCompositeExtract, m.component.type, {matrix, e});
        b.add(spv::OpStore, 0, {scratch.element_pointer(b, m.component.type, b.add(spv::OpIAdd, u, {line, minor}), area_elements,
                                                        m.workgroup),
                                value});
    }
    if (writer) function.end_if();
}

bool needs_relayout(LoweringState& state, const ir::Instruction& instruction) {
    switch (instruction.opcode()) {
        case spv::OpCooperativeMatrixConvertNV:
        case spv::OpCooperativeMatrixTransposeNV:
            return true;
        case spv::OpFConvert:
        case spv::OpSConvert:
        case spv::OpUConvert:
        case spv::OpConvertFToS:
        case spv::OpConvertFToU:
        case spv::OpConvertSToF:
        case spv::OpConvertUToF: {
            const MatrixType* result = state.matrices.find(instruction.type_id());
            const MatrixType* source = state.matrices.of_value(state.module(), instruction.operand_words()[0]);
            return result && source && result->use != source->use;
        }
        default:
            return false;
    }
}

bool lower_relayout(LoweringState& state, Scratch& scratch, ir::BasicBlock& block, size_t index) {
    const ir::Instruction& instruction = *block.instructions[index];
    const MatrixType* result = state.matrices.find(instruction.type_id());
    const uint32_t operand = instruction.operand_words()[0];
    const MatrixType* source = state.matrices.of_value(state.module(), operand);
    if (!result || !source) return report(state, instruction, "its operand or result is not a lowered cooperative matrix");
    if (result->workgroup != source->workgroup) return report(state, instruction, "the operand's and the result's scopes differ");
    const bool transpose = instruction.opcode() == spv::OpCooperativeMatrixTransposeNV;
    if (transpose ? (source->rows != result->columns || source->columns != result->rows)
                  : (source->rows != result->rows || source->columns != result->columns)) {
        return report(state, instruction, "the result's shape does not match the operand's");
    }
    const bool own_conversion = instruction.opcode() != spv::OpCooperativeMatrixConvertNV && !transpose;
    const uint32_t opcode = own_conversion ? instruction.opcode() : 0;

    std::vector<uint32_t> key{0x52454C41u /* "RELA" */, source->id, result->id, opcode, transpose ? 1u : 0u};
    uint32_t function_id = state.find_function(key);
    if (!function_id) {
        const uint32_t parameters[] = {source->lowered};
        ir::FunctionBuilder function(state.module(), state.types(), result->lowered, parameters);
        // The shared copy is laid out as the result: rows of result->columns components.
        write_to_scratch(state, scratch, function, *source, function.parameter(0), transpose, result->columns);
        ir::Builder& b = function.body();
        const Placement place(state, b, *result);
        std::vector<uint32_t> components;
        for (uint32_t e = 0; e < result->length; ++e) {
            const uint32_t value = read_scratch(state, scratch, b, *source, place.row(b, e), place.column(b, e), result->columns);
            components.push_back(convert(state, b, value, source->component, result->component, opcode));
        }
        function.finish(b.add(spv::OpCompositeConstruct, result->lowered, components));
        function_id = function.id();
        state.remember_function(std::move(key), function_id);
    }
    call_instead(state, block, index, function_id, {operand});
    return true;
}

bool lower_reduce(LoweringState& state, Scratch& scratch, ir::BasicBlock& block, size_t index) {
    const ir::Instruction& instruction = *block.instructions[index];
    const auto operands = instruction.operand_words();  // Matrix, Reduce (literal), CombineFunc
    const MatrixType* result = state.matrices.find(instruction.type_id());
    const MatrixType* source = state.matrices.of_value(state.module(), operands[0]);
    const uint32_t mode = operands[1];
    const uint32_t combine = operands[2];
    if (!result || !source) return report(state, instruction, "its operand or result is not a lowered cooperative matrix");
    if (source->component.type != result->component.type) return report(state, instruction, "the component types differ");
    if (result->workgroup != source->workgroup) return report(state, instruction, "the operand's and the result's scopes differ");
    if (mode == kReduce2x2 ? (result->rows * 2 != source->rows || result->columns * 2 != source->columns)
        : mode == kReduceRow   ? result->rows != source->rows
        : mode == kReduceColumn ? result->columns != source->columns
                                : mode != (kReduceRow | kReduceColumn)) {
        return report(state, instruction, std::format("reduce mode {} does not fit the shapes", mode));
    }

    std::vector<uint32_t> key{0x52454455u /* "REDU" */, source->id, result->id, mode, combine};
    uint32_t function_id = state.find_function(key);
    if (!function_id) {
        const uint32_t parameters[] = {source->lowered};
        ir::FunctionBuilder function(state.module(), state.types(), result->lowered, parameters);
        write_to_scratch(state, scratch, function, *source, function.parameter(0), false, source->columns);
        ir::Builder& b = function.body();
        const uint32_t component = source->component.type;
        const auto read = [&](uint32_t row, uint32_t column) { return read_scratch(state, scratch, b, *source, row, column, source->columns); };
        // Folds the source elements at `positions` with the application's CombineFunc.
        const auto fold = [&](const std::vector<std::pair<uint32_t, uint32_t>>& positions) {
            uint32_t value = read(positions[0].first, positions[0].second);
            for (size_t i = 1; i < positions.size(); ++i) {
                value = b.add(spv::OpFunctionCall, component, {combine, value, read(positions[i].first, positions[i].second)});
            }
            return value;
        };
        const auto u32 = [&](uint32_t v) { return state.uint_constant(v); };
        const uint32_t u = state.uint_type();
        const Placement place(state, b, *result);
        std::map<std::pair<uint32_t, uint32_t>, uint32_t> folded;  // by the (row, column) ids that decide it
        std::vector<uint32_t> components;
        for (uint32_t e = 0; e < result->length; ++e) {
            const uint32_t row = place.row(b, e);
            const uint32_t column = place.column(b, e);
            std::pair<uint32_t, uint32_t> decides{mode & kReduceColumn ? 0 : row, mode & kReduceRow ? 0 : column};
            if (mode == kReduce2x2) decides = {row, column};
            uint32_t& value = folded[decides];
            if (value == 0) {
                std::vector<std::pair<uint32_t, uint32_t>> positions;
                if (mode == kReduce2x2) {
                    const uint32_t r2 = b.add(spv::OpIMul, u, {row, u32(2)}), c2 = b.add(spv::OpIMul, u, {column, u32(2)});
                    const uint32_t r3 = b.add(spv::OpIAdd, u, {r2, u32(1)}), c3 = b.add(spv::OpIAdd, u, {c2, u32(1)});
                    positions = {{r2, c2}, {r3, c2}, {r2, c3}, {r3, c3}};
                } else {
                    for (uint32_t r = 0; r < source->rows; ++r) {
                        for (uint32_t c = 0; c < source->columns; ++c) {
                            if (!(mode & kReduceColumn) && r > 0) continue;  // Row: one row, chosen below
                            if (!(mode & kReduceRow) && c > 0) continue;     // Column: one column
                            positions.push_back({mode & kReduceColumn ? u32(r) : row, mode & kReduceRow ? u32(c) : column});
                        }
                    }
                }
                value = fold(positions);
            }
            components.push_back(value);
        }
        function.finish(b.add(spv::OpCompositeConstruct, result->lowered, components));
        function_id = function.id();
        state.remember_function(std::move(key), function_id);
    }
    call_instead(state, block, index, function_id, {operands[0]});
    return true;
}

}  // namespace vkpolyfill::lowering::cooperative_matrix
