#include "passes/cooperative_matrix/resident_accumulators.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <spirv/unified1/spirv.hpp>

#include "ir/function_builder.h"
#include "ir/indexed_type.h"
#include "ir/operand_walker.h"
#include "passes/cooperative_matrix/matrix_units.h"
#include "passes/cooperative_matrix/relayout.h"

namespace vkpolyfill::lowering::cooperative_matrix {
namespace {

bool same_unit(const CooperativeMatrixConfiguration& x, const CooperativeMatrixConfiguration& y) {
    return x.m == y.m && x.n == y.n && x.k == y.k && x.a == y.a && x.b == y.b && x.c == y.c && x.result == y.result &&
           x.saturating_accumulation == y.saturating_accumulation;
}

// What the module does with one accumulator type, as far as keeping it in tiles goes.
struct Uses {
    std::optional<CooperativeMatrixConfiguration> unit;
    const ComponentInfo* a_component = nullptr;  // A's, in the multiply-adds that take or make it
    uint64_t staged_bytes = UINT64_MAX;          // the least shared memory they stage A and B in
    bool multiplied = false;
    bool possible = true;
    bool computed = false;  // taken or made by an operation that works on its components
};

// Operations under which a kept accumulator leaves the tiles no more than once
// (NativeMultiplyAdds::KeptAccumulators): it is loaded or filled (a splat), passed on, converted or
// stored. Any other (per-element work, reductions, arithmetic) relays it through shared memory each
// time, as flash attention's are at every step.
bool keeps_tiles(const ir::Module& module, const ir::Instruction& instruction) {
    switch (instruction.opcode()) {
        case spv::OpCooperativeMatrixMulAddKHR:
        case spv::OpCooperativeMatrixLoadKHR:
        case spv::OpCooperativeMatrixLoadTensorNV:
        case spv::OpCooperativeMatrixStoreKHR:
        case spv::OpCooperativeMatrixStoreTensorNV:
        case spv::OpCooperativeMatrixConvertNV:
            return true;
        default:
            return converts_components(instruction.opcode()) || passes_matrices_through(instruction.opcode()) ||
                   only_describes_values(module, instruction);
    }
}

// The matrix types an instruction takes values of or makes one of.
std::set<uint32_t> matrix_types_of(const LoweringState& state, const ir::Instruction& instruction) {
    const ir::Module& module = state.context.module;
    std::set<uint32_t> types;
    if (state.matrices.find(instruction.type_id())) types.insert(instruction.type_id());
    std::vector<ir::Operand> operands;
    ir::walk_operands(instruction.words(), module, operands);
    for (const ir::Operand& operand : operands) {
        if (!ir::is_id(operand.kind) || operand.kind == grammar::OperandKind::IdResult || operand.kind == grammar::OperandKind::IdResultType) {
            continue;
        }
        if (const MatrixType* matrix = state.matrices.of_value(module, instruction.word(operand.first_word))) types.insert(matrix->id);
    }
    return types;
}

// Instructions that carry a resident value as it is (an array of tiles), without computing on it: a
// composite extract or insert only of a composite holding matrices (element access keeps a type
// plain), not the splat a composite construct of a matrix is.
bool carries_resident(const ir::Module& module, const ir::Instruction& instruction) {
    if (instruction.opcode() == spv::OpCompositeConstruct) return false;
    return passes_matrices_through(instruction.opcode()) || only_describes_values(module, instruction);
}

uint32_t constant_value(const ir::Module& module, uint32_t id) {
    const ir::Instruction* constant = module.find_definition(id);
    return constant && constant->opcode() == spv::OpConstant ? constant->word(3) : 0;
}

// The matrix type whose components `instruction` reads or writes one by one, 0 if none: a composite
// extract or insert on a matrix, an access chain that reaches inside one.
uint32_t element_access(const LoweringState& state, const ir::Instruction& instruction) {
    const ir::Module& module = state.context.module;
    const auto operands = instruction.operand_words();
    switch (instruction.opcode()) {
        case spv::OpCompositeExtract:
        case spv::OpCompositeInsert: {
            const size_t composite = instruction.opcode() == spv::OpCompositeExtract ? 0 : 1;
            if (operands.size() <= composite) return 0;  // malformed: reported where it is lowered
            uint32_t type = module.type_of(operands[composite]);
            for (size_t i = composite + 1; i < operands.size() && type; ++i) {
                if (state.matrices.find(type)) return type;
                type = ir::indexed_type(module, type, operands[i]);
            }
            return 0;
        }
        case spv::OpAccessChain:
        case spv::OpInBoundsAccessChain: {
            if (operands.empty()) return 0;
            const ir::Instruction* pointer = module.find_definition(module.type_of(operands[0]));
            uint32_t type = pointer && pointer->opcode() == spv::OpTypePointer ? pointer->word(3) : 0;
            for (size_t i = 1; i < operands.size() && type; ++i) {
                if (state.matrices.find(type)) return type;
                type = ir::indexed_type(module, type, constant_value(module, operands[i]));
            }
            return 0;
        }
        default:
            return 0;
    }
}

// The subgroups' grid over the tiles: the one with the fewest tile loads per K step (a tile of A per
// block row, of B per block column), nullopt when the subgroups do not share the tiles out evenly.
std::optional<ResidentTiles> block_grid(uint32_t tile_rows, uint32_t tile_columns, uint32_t subgroups) {
    std::optional<ResidentTiles> best;
    for (uint32_t grid_rows = 1; grid_rows <= subgroups; ++grid_rows) {
        const uint32_t grid_columns = subgroups / grid_rows;
        if (subgroups % grid_rows != 0 || tile_rows % grid_rows != 0 || tile_columns % grid_columns != 0) continue;
        const uint32_t rows = tile_rows / grid_rows, columns = tile_columns / grid_columns;
        if (!best || rows + columns < best->block_rows + best->block_columns) {
            best = ResidentTiles{};
            best->grid_columns = grid_columns;
            best->block_rows = rows;
            best->block_columns = columns;
        }
    }
    return best;
}

// The function that brings a resident value into its plain type (`to_plain`) or back, through shared
// memory tiles.band_rows rows at a time (a loop over the bands when there are several): each
// subgroup's tiles in the band stored there and the plain elements in it read, or the other way round.
uint32_t conversion(LoweringState& state, Scratch& scratch, const MatrixType& matrix, bool to_plain) {
    std::vector<uint32_t> key{0x54494C45u /* "TILE" */, matrix.id, to_plain ? 1u : 0u};
    if (const uint32_t existing = state.find_function(key)) return existing;
    const ResidentTiles& tiles = *matrix.resident;
    const uint32_t n = matrix.columns, band = tiles.band_rows, bands = matrix.rows / band, area = band * n;
    const uint32_t result_type = to_plain ? matrix.lowered : tiles.array;
    const uint32_t parameters[] = {to_plain ? tiles.array : matrix.lowered};
    ir::FunctionBuilder function(state.module(), state.types(), result_type, parameters);
    ir::Builder& b = function.body();
    const uint32_t u = state.uint_type();
    // Stride and offsets in elements of the region the tiles go through (Scratch::load).
    const uint32_t ratio = scratch.carried_ratio(matrix.component.type, tiles.carrier);
    const uint32_t region_type = ratio == 1 ? matrix.component.type : tiles.carrier;
    const TileBlock block = tile_block(state, b, tiles);
    const uint32_t held = bands > 1 ? function.add_variable(state.types().get_type_pointer(spv::StorageClassFunction, result_type)) : 0;
    uint32_t first = state.uint_constant(0);
    if (bands > 1) first = b.add(spv::OpIMul, u, {function.begin_loop(state.uint_constant(bands)), state.uint_constant(band)});
    scratch.barrier(b, true);  // the previous band's (or user's) reads are done
    if (!to_plain) {
        const std::optional<ScratchWindow> window = bands > 1 ? std::optional(ScratchWindow{true, first, band}) : std::nullopt;
        store_to_scratch(state, scratch, function, matrix, function.parameter(0), 0, n, false, area, window, tiles.carrier);
        scratch.barrier(b, true);
    }
    std::vector<uint32_t> loaded;
    for (uint32_t i = 0; i < tiles.block_rows; ++i) {
        for (uint32_t j = 0; j < tiles.block_columns; ++j) {
            const uint32_t index = i * tiles.block_columns + j;
            const uint32_t row = b.add(spv::OpISub, u, {b.add(spv::OpIAdd, u, {block.first_row, state.uint_constant(i * tiles.unit.m)}), first});
            if (bands > 1) function.begin_if(b.add(spv::OpULessThan, state.types().get_type_bool(), {row, state.uint_constant(band)}));
            const uint32_t column = b.add(spv::OpIAdd, u, {block.first_column, state.uint_constant(j * tiles.unit.n)});
            const uint32_t at = b.add(spv::OpIAdd, u, {b.add(spv::OpIMul, u, {row, state.uint_constant(n * ratio)}),
                                                       b.add(spv::OpIMul, u, {column, state.uint_constant(ratio)})});
            // SPV_KHR_cooperative_matrix lets the pointer's type differ from the components': the
            // stride counts the pointer's.
            const uint32_t pointer = scratch.element_pointer(b, region_type, at, area * ratio, true);
            const uint32_t layout = state.uint_constant(spv::CooperativeMatrixLayoutRowMajorKHR);
            const uint32_t stride = state.uint_constant(n * ratio);
            if (to_plain) {
                const uint32_t tile = b.add(spv::OpCompositeExtract, tiles.tile, {function.parameter(0), index});
                b.add(spv::OpCooperativeMatrixStoreKHR, 0, {pointer, tile, layout, stride});
            } else {
                loaded.push_back(b.add(spv::OpCooperativeMatrixLoadKHR, tiles.tile, {pointer, layout, stride}));
                if (bands > 1) {
                    const uint32_t element = b.add(spv::OpAccessChain, state.types().get_type_pointer(spv::StorageClassFunction, tiles.tile),
                                                   {held, state.uint_constant(index)});
                    b.add(spv::OpStore, 0, {element, loaded.back()});
                }
            }
            if (bands > 1) function.end_if();
        }
    }
    uint32_t result = 0;
    if (to_plain) {
        scratch.barrier(b, true);
        result = bands > 1 ? load_rows_from_scratch(state, scratch, function, matrix, matrix, b.add(spv::OpLoad, result_type, {held}), first,
                                                    band, tiles.carrier)
                           : load_from_scratch(state, scratch, function, matrix, 0, n, area, tiles.carrier);
    } else if (bands == 1) {
        result = b.add(spv::OpCompositeConstruct, tiles.array, loaded);
    }
    if (bands > 1) {
        if (to_plain) b.add(spv::OpStore, 0, {held, result});
        function.end_loop();
        result = function.body().add(spv::OpLoad, result_type, {held});
    }
    function.finish(result);
    state.remember_function(std::move(key), function.id());
    return function.id();
}

}  // namespace

void choose_resident_accumulators(LoweringState& state) {
    const Target& target = state.context.target;
    if (target.multiply_on_native_matrices == NativeMultiplyAdds::None) return;
    ir::Module& module = state.module();
    const bool kept_only = target.multiply_on_native_matrices == NativeMultiplyAdds::KeptAccumulators;
    std::map<uint32_t, Uses> uses;  // by matrix type
    for (const auto& instruction : module.types_values_constants) {
        // A null constant of tiles is not one of the values SPIR-V gives cooperative matrices.
        if (instruction->opcode() == spv::OpConstantNull) uses[instruction->type_id()].possible = false;
    }
    for (const auto& function : module.functions) {
        function->for_each_instruction([&](const ir::Instruction& instruction) {
            if (const uint32_t accessed = element_access(state, instruction)) uses[accessed].possible = false;
            if (kept_only && !keeps_tiles(module, instruction)) {
                for (const uint32_t type : matrix_types_of(state, instruction)) uses[type].computed = true;
            }
            const auto operands = instruction.operand_words();
            if (instruction.opcode() != spv::OpCooperativeMatrixMulAddKHR || operands.size() < 3) return;
            const MatrixType* a = state.matrices.of_value(module, operands[0]);
            const MatrixType* b = state.matrices.of_value(module, operands[1]);
            const MatrixType* c = state.matrices.of_value(module, operands[2]);
            const MatrixType* result = state.matrices.find(instruction.type_id());
            std::optional<CooperativeMatrixConfiguration> unit;
            if (a && b && c && result && c->id == result->id && c->workgroup) {
                unit = fitting_matrix_unit(state, {*a, *b, *c, *result, operands.size() > 3 ? operands[3] : 0});
            }
            for (const MatrixType* matrix : {c, result}) {
                if (!matrix) continue;
                Uses& u = uses[matrix->id];
                u.multiplied = true;
                if (!unit || (u.unit && !same_unit(*u.unit, *unit))) u.possible = false;
                u.unit = unit;
                u.a_component = &a->component;
                if (unit) u.staged_bytes = std::min(u.staged_bytes, staged_operand_bytes(state, {*a, *b, *c, *result, 0}, *unit));
            }
        });
    }
    const uint32_t budget = staging_budget(target);
    for (const auto& [id, u] : uses) {
        const MatrixType* matrix = state.matrices.find(id);
        if (!u.possible || !u.multiplied || !matrix || !matrix->workgroup || matrix->use != Use::Accumulator) continue;
        if (kept_only && u.computed) continue;
        if (budget != 0 && uint64_t{matrix->rows} * matrix->columns * matrix->component.width / 8 > budget) continue;
        const uint32_t subgroups = matrix->spread.invocations / target.subgroup_size;
        std::optional<ResidentTiles> tiles = block_grid(matrix->rows / u.unit->m, matrix->columns / u.unit->n, subgroups);
        if (!tiles) continue;
        tiles->unit = *u.unit;
        tiles->tile = state.unit_matrix_type(matrix->component.type, u.unit->m, u.unit->n, Use::Accumulator);
        tiles->array = state.types().get_type_array(tiles->tile, state.uint_constant(tiles->block_rows * tiles->block_columns));
        const ComponentInfo& a = *u.a_component;
        const bool narrower_a = a.width < matrix->component.width && matrix->component.width % a.width == 0;
        tiles->carrier = narrower_a ? a.type : 0;
        const uint64_t tile_row_bytes = uint64_t{matrix->columns} * u.unit->m * matrix->component.width / 8;
        const uint32_t staged = static_cast<uint32_t>(std::min<uint64_t>(u.staged_bytes, UINT32_MAX));
        tiles->band_rows = u.unit->m * items_at_once(matrix->rows / u.unit->m, tile_row_bytes, staged);
        state.matrices.keep_in_tiles(module, id, *tiles);
    }
}

TileBlock tile_block(LoweringState& state, ir::Builder& builder, const ResidentTiles& tiles) {
    const uint32_t u = state.uint_type();
    const uint32_t subgroup = state.load_builtin(builder, spv::BuiltInSubgroupId);
    const uint32_t grid_row = builder.add(spv::OpUDiv, u, {subgroup, state.uint_constant(tiles.grid_columns)});
    const uint32_t grid_column = builder.add(spv::OpUMod, u, {subgroup, state.uint_constant(tiles.grid_columns)});
    return {builder.add(spv::OpIMul, u, {grid_row, state.uint_constant(tiles.block_rows * tiles.unit.m)}),
            builder.add(spv::OpIMul, u, {grid_column, state.uint_constant(tiles.block_columns * tiles.unit.n)})};
}

size_t plain_around(LoweringState& state, Scratch& scratch, ir::BasicBlock& block, size_t index) {
    ir::Module& module = state.module();
    ir::Instruction& instruction = *block.instructions[index];
    if (carries_resident(module, instruction)) return index;
    if (instruction.opcode() == spv::OpCooperativeMatrixMulAddKHR && instruction.operand_words().size() >= 3) {
        const MatrixType* c = state.matrices.of_value(module, instruction.operand_words()[2]);
        if (c && c->resident) return index;  // multiplies the tiles themselves
    }
    std::vector<ir::Operand> operands;
    ir::walk_operands(instruction.words(), module, operands);
    for (const ir::Operand& operand : operands) {
        if (!ir::is_id(operand.kind) || operand.kind == grammar::OperandKind::IdResult || operand.kind == grammar::OperandKind::IdResultType) {
            continue;
        }
        const MatrixType* matrix = state.matrices.of_value(module, instruction.word(operand.first_word));
        if (!matrix || !matrix->resident) continue;
        ir::Builder before(module, block, index);
        const uint32_t plain =
            before.add(spv::OpFunctionCall, matrix->resident->plain, {conversion(state, scratch, *matrix, true), instruction.word(operand.first_word)});
        index = before.position();
        instruction.set_word(operand.first_word, plain);
    }
    const MatrixType* result = state.matrices.find(instruction.type_id());
    if (result && result->resident) {
        const uint32_t resident_id = instruction.result_id();
        const uint32_t plain_id = module.take_next_id();
        instruction.set_word(1, result->resident->plain);
        instruction.set_word(2, plain_id);
        module.register_definition(instruction);
        ir::Builder(module, block, index + 1).add(spv::OpFunctionCall, result->id, {conversion(state, scratch, *result, false), plain_id}, resident_id);
    }
    return index;
}

std::unique_ptr<ir::Instruction> resident_splat(LoweringState& state, const MatrixType& matrix, uint32_t opcode, uint32_t result,
                                                uint32_t constituent) {
    const ResidentTiles& tiles = *matrix.resident;
    const uint32_t tile = state.module().take_next_id();
    const uint32_t tile_words[] = {tiles.tile, tile, constituent};
    state.module().types_values_constants.push_back(ir::make_instruction(opcode, tile_words));
    state.module().register_definition(*state.module().types_values_constants.back());
    std::vector<uint32_t> words{matrix.id, result};
    words.insert(words.end(), tiles.block_rows * tiles.block_columns, tile);
    return ir::make_instruction(opcode, words);
}

}  // namespace vkpolyfill::lowering::cooperative_matrix
