#include "passes/cooperative_matrix/relayout.h"

#include <format>
#include <functional>
#include <utility>
#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.hpp>

#include "ir/function_builder.h"
#include "ir/instruction_text.h"
#include "passes/cooperative_matrix/element_loop.h"
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

// Element `index` of the scratch area for `source`'s component type and scope, which holds `area`.
uint32_t read_scratch(Scratch& scratch, ir::Builder& b, const MatrixType& source, uint32_t index, uint32_t area, uint32_t carrier = 0) {
    return scratch.load(b, source.component.type, index, area, source.workgroup, carrier);
}

uint32_t read_scratch(LoweringState& state, Scratch& scratch, ir::Builder& b, const MatrixType& source, uint32_t row,
                      uint32_t column, uint32_t pitch) {
    const uint32_t u = state.uint_type();
    const uint32_t index = b.add(spv::OpIAdd, u, {b.add(spv::OpIMul, u, {row, state.uint_constant(pitch)}), column});
    return read_scratch(scratch, b, source, index, source.rows * source.columns);
}

// Two 16-bit floats as one uint, `low` in the low half (as memory holds neighbours); exact, and no
// 16-bit integer type needed.
uint32_t pack_halves(LoweringState& state, ir::Builder& b, uint32_t low, uint32_t high) {
    const uint32_t f32 = state.types().get_type_float(ir::kFloat32);
    const uint32_t pair = b.add(spv::OpCompositeConstruct, state.types().get_type_vector(f32, 2),
                                {b.add(spv::OpFConvert, f32, {low}), b.add(spv::OpFConvert, f32, {high})});
    return b.add(spv::OpExtInst, state.uint_type(), {state.module().get_ext_inst_import("GLSL.std.450"), GLSLstd450PackHalf2x16, pair});
}

bool report(LoweringState& state, const ir::Instruction& instruction, const std::string& why) {
    state.context.diagnostics.error(std::format("{} cannot be lowered: {}", instruction.name(), why), instruction.source_offset(),
                                    ir::instruction_text(instruction.words(), state.module()));
    return false;
}

// Whether the elements of each row of `m` can move between the invocations that hold them by
// shuffles: the target has them, the row lies in one subgroup (a subgroup-scope matrix, or a
// workgroup accumulator in bands as wide as the matrix), its holders are one row group's column
// lanes, which are neighbouring lanes (l % Lc, lane_layout.h), and the components are 32-bit
// (subgroup operations on 8-, 16- and 64-bit types need shaderSubgroupExtendedTypes, which the
// application may not enable).
bool shuffles_reach_rows(LoweringState& state, const MatrixType& m) {
    const bool rows_in_a_subgroup = !m.workgroup || (!m.striped() && m.spread.bands_across == 1);
    return state.context.target.subgroup_shuffles && state.module().header.version >= 0x00010300 && rows_in_a_subgroup &&
           m.component.width == 32;
}

// Whether every invocation holds the same rows of two matrices of as many rows in layouts `a` and `b`:
// all of them, or the same row group's.
bool same_rows(const LaneLayout& a, const LaneLayout& b) {
    return (a.row_groups == 1 && b.row_groups == 1) || (a.row_groups == b.row_groups && a.column_lanes == b.column_lanes);
}

// Whether a Row-and-Column reduction of `m` can fold what each invocation holds and combine the
// invocations by shuffles: every element has a single holder (each counted once), and the module
// may shuffle.
bool whole_by_shuffles_fits(LoweringState& state, const MatrixType& m) {
    const bool single_holders = m.striped() || m.layout.writers() == state.context.target.subgroup_size;
    return state.context.target.subgroup_shuffles && state.module().header.version >= 0x00010300 && single_holders &&
           (!m.workgroup || m.spread.invocations % state.context.target.subgroup_size == 0);
}

// The same for all of a subgroup-scope matrix, each invocation holding every row (one row group), so
// that its column lane is its subgroup invocation id.
bool shuffles_reach(LoweringState& state, const MatrixType& m) {
    return !m.workgroup && m.layout.row_groups == 1 && shuffles_reach_rows(state, m);
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

// OpCooperativeMatrixReduceNV's result, computed in a generated function whose parameter is the
// source (an accumulator, as the spec requires: each element held by one invocation).
class Reduction {
  public:
    Reduction(LoweringState& state, Scratch& scratch, ir::FunctionBuilder& function, const MatrixType& source, const MatrixType& result,
              uint32_t combine)
        : state_(state), scratch_(scratch), function_(function), b_(function.body()), source_(source), result_(result),
          combine_(combine), place_(state, b_, result), results_(state, function, result.lowered, result.component.type, result.length) {}

    // 2x2: the source goes to the scratch area whole, and each result element combines its four.
    uint32_t quads() {
        write_to_scratch(state_, scratch_, function_, source_, function_.parameter(0), false, source_.columns);
        const uint32_t u = state_.uint_type(), two = state_.uint_constant(2), one = state_.uint_constant(1);
        repeat(state_, function_, result_.length, [&](const Iteration& e) {
            const uint32_t r2 = b_.add(spv::OpIMul, u, {place_.row(b_, e), two}), c2 = b_.add(spv::OpIMul, u, {place_.column(b_, e), two});
            const uint32_t r3 = b_.add(spv::OpIAdd, u, {r2, one}), c3 = b_.add(spv::OpIAdd, u, {c2, one});
            uint32_t value = read_scratch(state_, scratch_, b_, source_, r2, c2, source_.columns);
            for (const auto& [row, column] : {std::pair{r3, c2}, std::pair{r2, c3}, std::pair{r3, c3}}) {
                value = combine(value, read_scratch(state_, scratch_, b_, source_, row, column, source_.columns));
            }
            results_.set(e, value);
        });
        return results_.value();
    }

    // Row, where every invocation holds the same rows of the source and the result: each folds the
    // elements it holds of a row, then log2(column lanes) shuffle steps combine the lanes' partials,
    // the lower lane's first, so every invocation builds the same tree and holds the row's total.
    uint32_t rows_by_shuffles() {
        const uint32_t type = source_.component.type;
        const LaneLayout& layout = source_.layout;
        Components elements(state_, function_, source_.lowered, type, source_.length, function_.parameter(0));
        repeat(state_, function_, layout.rows_per_lane, [&](const Iteration& line) {
            const uint32_t partial = fold(state_, function_, layout.columns_per_lane, type,
                                          [&](const Iteration& k) { return elements.get(element(source_, line, k, false)); },
                                          [&](uint32_t a, uint32_t c) { return combine(a, c); });
            const uint32_t value = combine_lanes(partial, layout.column_lanes);
            repeat(state_, function_, result_.layout.columns_per_lane,
                   [&](const Iteration& k) { results_.set(element(result_, line, k, false), value); });
        });
        return results_.value();
    }

    // Row and Column, where every element has one holder (whole_by_shuffles_fits): each invocation
    // folds all it holds, log2(subgroup size) shuffle steps combine the subgroup's, and a workgroup
    // matrix's subgroup totals go through shared memory, folded in subgroup order. lines() instead
    // sends a partial per line through shared memory and every invocation folds them all: 4,096
    // reads an invocation for llama.cpp's 64x64 attention mask (its test for a block the mask rules
    // out), in every step of its loop.
    uint32_t whole_by_shuffles() {
        const uint32_t type = source_.component.type, lanes = state_.context.target.subgroup_size;
        Components elements(state_, function_, source_.lowered, type, source_.length, function_.parameter(0));
        const uint32_t held = fold(state_, function_, source_.length, type, [&](const Iteration& e) { return elements.get(e); },
                                   [&](uint32_t a, uint32_t c) { return combine(a, c); });
        uint32_t total = combine_lanes(held, lanes);
        if (source_.workgroup) {
            const uint32_t subgroups = source_.spread.invocations / lanes;
            const uint32_t first_lane = b_.add(spv::OpIEqual, state_.types().get_type_bool(), {state_.load_lane(b_), state_.uint_constant(0)});
            scratch_.barrier(b_, true);  // the previous user's reads are done
            function_.begin_if(first_lane);
            const uint32_t subgroup = state_.load_builtin(function_.body(), spv::BuiltInSubgroupId);
            function_.body().add(spv::OpStore, 0, {scratch_.element_pointer(function_.body(), type, subgroup, subgroups, true), total});
            function_.end_if();
            scratch_.barrier(b_, true);
            total = fold(state_, function_, subgroups, type, [&](const Iteration& s) { return read_scratch(scratch_, b_, source_, s.index, subgroups); },
                         [&](uint32_t a, uint32_t c) { return combine(a, c); });
        }
        repeat(state_, function_, result_.length, [&](const Iteration& e) { results_.set(e, total); });
        return results_.value();
    }

    // Row, Column or both. Each invocation folds the elements it holds of each line (a row; a column
    // for Column alone) into a partial, which goes to the line's slot for the invocation in the
    // scratch area (the slots of a line: one per column lane and band across for rows, one per row
    // group and band down for columns); then each result line folds its line's partials, and both
    // fold all of them. Far less goes through shared memory than the matrix, and nothing twice.
    uint32_t lines(uint32_t mode) {
        const bool columns = mode == kReduceColumn;
        const uint32_t type = source_.component.type, u = state_.uint_type();
        const LaneLayout& layout = source_.layout;
        // Where the partials go: a band's extent across the lines, and the slots a band has.
        const uint32_t band = columns ? (source_.workgroup ? source_.spread.band_rows : source_.rows)
                                      : (source_.workgroup ? source_.spread.band_columns : source_.columns);
        const uint32_t band_slots = columns ? layout.row_groups : layout.column_lanes;
        const uint32_t slots = (columns ? source_.rows : source_.columns) / band * band_slots;
        const uint32_t line_count = columns ? source_.columns : source_.rows;
        // Every invocation reads the partials of each line its result holds, the same addresses in
        // every lane: scalar loads where uniform loads are. Where they are per invocation (lavapipe
        // 25), the lanes of a subgroup share the lines out instead, fold each once into a total after
        // the partials (the last lane's extra turns fold the last line again) and, after a subgroup
        // barrier, read the totals back: for a 16x16 row sum at 8 lanes 2 x 8 + 16 reads a lane, not
        // 16 x 8. Done where that reads less; a workgroup would pay a workgroup barrier for it.
        const uint32_t lanes = state_.context.target.subgroup_size;
        const uint32_t held_lines = mode == kReduceColumn ? result_.layout.columns_per_lane : result_.layout.rows_per_lane;
        const uint32_t turns = (line_count + lanes - 1) / lanes;
        const bool share_totals = !state_.context.target.scalar_uniform_loads && mode != (kReduceRow | kReduceColumn) && !source_.workgroup &&
                                  uint64_t{held_lines} * slots > uint64_t{turns} * slots + held_lines;
        const uint32_t partials = line_count * slots;
        const uint32_t area = partials + (share_totals ? line_count : 0);
        const auto partial = [&](uint32_t index) { return read_scratch(scratch_, b_, source_, index, area); };

        const Placement held(state_, b_, source_);
        // Where the source's elements repeat, one holder of each writes its partial.
        const uint32_t writer = layout.writers() < state_.context.target.subgroup_size ? held.sole_writer(b_) : 0;
        Components elements(state_, function_, source_.lowered, type, source_.length, function_.parameter(0));
        scratch_.barrier(b_, source_.workgroup);  // the previous user's reads are done
        repeat(state_, function_, columns ? layout.columns_per_lane : layout.rows_per_lane, [&](const Iteration& line) {
            const uint32_t value = fold(state_, function_, columns ? layout.rows_per_lane : layout.columns_per_lane, type,
                                        [&](const Iteration& k) { return elements.get(element(source_, line, k, columns)); },
                                        [&](uint32_t a, uint32_t c) { return combine(a, c); });
            const Iteration first = element(source_, line, Iteration{state_.uint_constant(0), 0}, columns);
            const uint32_t index = columns ? held.column(b_, first) : held.row(b_, first);
            const uint32_t across = columns ? held.row(b_, first) : held.column(b_, first);
            // In its band, a row's partial goes to the holder's column lane (a lane holds runs of
            // columns_per_lane columns), a column's to its row group.
            const uint32_t band_id = state_.uint_constant(band);
            const uint32_t in_band = b_.add(spv::OpUMod, u, {across, band_id});
            const uint32_t slot = b_.add(spv::OpIAdd, u, {b_.add(spv::OpIMul, u, {b_.add(spv::OpUDiv, u, {across, band_id}), state_.uint_constant(band_slots)}),
                                                          columns ? in_band : b_.add(spv::OpUDiv, u, {in_band, state_.uint_constant(layout.columns_per_lane)})});
            const uint32_t at = b_.add(spv::OpIAdd, u, {b_.add(spv::OpIMul, u, {index, state_.uint_constant(slots)}), slot});
            if (writer) function_.begin_if(writer);
            b_.add(spv::OpStore, 0, {scratch_.element_pointer(b_, type, at, area, source_.workgroup), value});
            if (writer) function_.end_if();
        });
        scratch_.barrier(b_, source_.workgroup);

        const auto folded = [&](uint32_t count, uint32_t start) {
            return fold(state_, function_, count, type, [&](const Iteration& k) { return partial(b_.add(spv::OpIAdd, u, {start, k.index})); },
                        [&](uint32_t a, uint32_t c) { return combine(a, c); });
        };
        if (mode == (kReduceRow | kReduceColumn)) {
            const uint32_t total = folded(partials, state_.uint_constant(0));
            repeat(state_, function_, result_.length, [&](const Iteration& e) { results_.set(e, total); });
            return results_.value();
        }
        const auto total_of = [&](uint32_t index) {
            if (share_totals) return partial(b_.add(spv::OpIAdd, u, {state_.uint_constant(partials), index}));
            return folded(slots, b_.add(spv::OpIMul, u, {index, state_.uint_constant(slots)}));
        };
        if (share_totals) {
            const uint32_t lane = state_.load_lane(b_);
            const uint32_t count = state_.uint_constant(line_count), last = state_.uint_constant(line_count - 1);
            repeat(state_, function_, turns, [&](const Iteration& turn) {
                const uint32_t mine = b_.add(spv::OpIAdd, u, {b_.add(spv::OpIMul, u, {turn.index, state_.uint_constant(lanes)}), lane});
                const uint32_t inside = b_.add(spv::OpULessThan, state_.types().get_type_bool(), {mine, count});
                const uint32_t line = b_.add(spv::OpSelect, u, {inside, mine, last});
                const uint32_t total = folded(slots, b_.add(spv::OpIMul, u, {line, state_.uint_constant(slots)}));
                const uint32_t at = b_.add(spv::OpIAdd, u, {state_.uint_constant(partials), line});
                b_.add(spv::OpStore, 0, {scratch_.element_pointer(b_, type, at, area, false), total});
            });
            scratch_.barrier(b_, false);
        }
        const LaneLayout& out = result_.layout;
        repeat(state_, function_, columns ? out.columns_per_lane : out.rows_per_lane, [&](const Iteration& line) {
            const Iteration first = element(result_, line, Iteration{state_.uint_constant(0), 0}, columns);
            const uint32_t index = columns ? place_.column(b_, first) : place_.row(b_, first);
            const uint32_t total = total_of(index);
            repeat(state_, function_, columns ? out.rows_per_lane : out.columns_per_lane,
                   [&](const Iteration& k) { results_.set(element(result_, line, k, columns), total); });
        });
        return results_.value();
    }

  private:
    uint32_t combine(uint32_t a, uint32_t c) { return b_.add(spv::OpFunctionCall, source_.component.type, {combine_, a, c}); }

    // `value` combined across each aligned group of `lanes` lanes by log2(lanes) shuffle steps, the
    // lower lane's operand first, so that every lane builds the same tree and holds the same total.
    uint32_t combine_lanes(uint32_t value, uint32_t lanes) {
        ir::Module& module = state_.module();
        module.add_capability(spv::CapabilityGroupNonUniform);
        module.add_capability(spv::CapabilityGroupNonUniformShuffle);
        const uint32_t type = source_.component.type, u = state_.uint_type(), bool_type = state_.types().get_type_bool();
        const uint32_t lane = state_.load_lane(b_);
        for (uint32_t step = 1; step < lanes; step *= 2) {
            const uint32_t mask = state_.uint_constant(step);
            const uint32_t other = shuffle_xor(value, mask);
            const uint32_t upper = b_.add(spv::OpINotEqual, bool_type, {b_.add(spv::OpBitwiseAnd, u, {lane, mask}), state_.uint_constant(0)});
            value = combine(b_.add(spv::OpSelect, type, {upper, other, value}), b_.add(spv::OpSelect, type, {upper, value, other}));
        }
        return value;
    }

    // The value of lane ^ `mask`. Components narrower than 32 bits cross as 32-bit ones (an exact
    // conversion each way): shuffles of 8- and 16-bit types need shaderSubgroupExtendedTypes.
    uint32_t shuffle_xor(uint32_t value, uint32_t mask) {
        const ComponentInfo& c = source_.component;
        const uint32_t scope = state_.uint_constant(spv::ScopeSubgroup);
        if (c.width >= 32) return b_.add(spv::OpGroupNonUniformShuffleXor, c.type, {scope, value, mask});
        const bool is_signed = signed_int(state_.module(), c);
        const uint32_t wide = c.is_float ? state_.types().get_type_float(ir::kFloat32) : state_.types().get_type_int(32, is_signed);
        const spv::Op convert = c.is_float ? spv::OpFConvert : is_signed ? spv::OpSConvert : spv::OpUConvert;
        const uint32_t shuffled = b_.add(spv::OpGroupNonUniformShuffleXor, wide, {scope, b_.add(convert, wide, {value}), mask});
        return b_.add(convert, c.type, {shuffled});
    }

    // The element at position `k` of held line `line` of accumulator `m`: lines are the rows an
    // invocation holds (element line * columns_per_lane + k), or its columns (element k * columns_per_lane + line).
    Iteration element(const MatrixType& m, const Iteration& line, const Iteration& k, bool columns) {
        const Iteration& row = columns ? k : line;
        const Iteration& column = columns ? line : k;
        const uint32_t per_row = m.layout.columns_per_lane;
        if (row.fixed && column.fixed) {
            const uint32_t e = *row.fixed * per_row + *column.fixed;
            return Iteration{state_.uint_constant(e), e};
        }
        const uint32_t u = state_.uint_type();
        return Iteration{b_.add(spv::OpIAdd, u, {b_.add(spv::OpIMul, u, {row.index, state_.uint_constant(per_row)}), column.index}),
                         std::nullopt};
    }

    LoweringState& state_;
    Scratch& scratch_;
    ir::FunctionBuilder& function_;
    ir::Builder& b_;
    const MatrixType& source_;
    const MatrixType& result_;
    uint32_t combine_;
    Placement place_;
    Components results_;
};

// A subgroup-scope accumulator whose invocations hold every row, as a replicated A (every invocation
// holds the whole matrix): each element broadcast from the invocation holding it, converted after. Written out
// element by element (the holder's lane must be a constant before SPIR-V 1.5).
uint32_t accumulator_to_a_by_broadcasts(LoweringState& state, ir::FunctionBuilder& function, const MatrixType& source,
                                        const MatrixType& result, uint32_t opcode) {
    state.module().add_capability(spv::CapabilityGroupNonUniform);
    state.module().add_capability(spv::CapabilityGroupNonUniformBallot);
    ir::Builder& b = function.body();
    const uint32_t scope = state.uint_constant(spv::ScopeSubgroup);
    const uint32_t held_columns = source.layout.columns_per_lane;
    Components from(state, function, source.lowered, source.component.type, source.length, function.parameter(0));
    Components components(state, function, result.lowered, result.component.type, result.length);
    repeat(state, function, result.length, [&](const Iteration& e) {
        const uint32_t row = *e.fixed / result.columns, column = *e.fixed % result.columns;
        const uint32_t held = row * held_columns + column % held_columns;
        const uint32_t value = b.add(spv::OpGroupNonUniformBroadcast, source.component.type,
                                     {scope, from.get(Iteration{state.uint_constant(held), held}), state.uint_constant(column / held_columns)});
        components.set(e, convert(state, b, value, source.component, result.component, opcode));
    });
    return components.value();
}

// The rows of the result a relayout puts through the scratch area at once: all of them, or for a
// workgroup matrix larger than the staging budget, the most rows that fit and divide its rows.
// llama.cpp's coopmat2 flash attention converts its 64 x 256 Q (32 KiB as halves) at head size 256,
// all of lavapipe's shared memory.
uint32_t rows_at_once(const LoweringState& state, const MatrixType& staged, const MatrixType& result) {
    const uint32_t budget = staging_budget(state.context.target);
    if (!staged.workgroup || budget == 0) return result.rows;
    return items_at_once(result.rows, uint64_t{result.columns} * staged.component.width / 8, budget);
}

// The relayout through the scratch area `rows` result rows at a time, in a loop: each chunk's
// elements written there (a window of the source), then each invocation takes those of its elements
// that fall in the chunk. `finish` converts what is read to the result's component type.
uint32_t relayout_in_chunks(LoweringState& state, Scratch& scratch, ir::FunctionBuilder& function, const MatrixType& staged,
                            uint32_t staged_value, const MatrixType& result, bool transpose, uint32_t rows,
                            const std::function<uint32_t(uint32_t)>& finish) {
    ir::Builder& b = function.body();
    const uint32_t u = state.uint_type();
    const uint32_t area = rows * result.columns;
    const uint32_t held = function.add_variable(state.types().get_type_pointer(spv::StorageClassFunction, result.lowered));
    const uint32_t chunk = function.begin_loop(state.uint_constant(result.rows / rows));
    const uint32_t first = b.add(spv::OpIMul, u, {chunk, state.uint_constant(rows)});
    scratch.barrier(b, true);  // the previous chunk's (or user's) reads are done
    // The result's rows are the source's rows, or its columns when transposed.
    store_to_scratch(state, scratch, function, staged, staged_value, 0, result.columns, transpose, area, ScratchWindow{!transpose, first, rows});
    scratch.barrier(b, true);
    const uint32_t before = b.add(spv::OpLoad, result.lowered, {held});
    b.add(spv::OpStore, 0, {held, load_rows_from_scratch(state, scratch, function, staged, result, before, first, rows, 0, finish)});
    function.end_loop();
    return function.body().add(spv::OpLoad, result.lowered, {held});
}

// The relayout through the scratch area: the source written there as the result is laid out, then
// read back by each invocation's placement.
uint32_t relayout_through_scratch(LoweringState& state, Scratch& scratch, ir::FunctionBuilder& function, const MatrixType& source,
                                  const MatrixType& result, bool transpose, uint32_t opcode) {
    ir::Builder& b = function.body();
    // A workgroup matrix goes through shared memory whole, so there the narrower component type
    // does (an f32 accumulator becoming an f16 A is converted before it is written: half the
    // bytes); `staged` is the source's layout with that type. A subgroup's slice is small, and
    // converting after the read is faster where 16-bit shared-memory reads are per-lane gathers
    // (lavapipe 26: the attention benchmark's subgroup P took 12.1 instead of 7.0-7.6 ms).
    const bool convert_first = source.workgroup && result.component.width < source.component.width;
    MatrixType staged = source;
    uint32_t staged_value = function.parameter(0);
    if (convert_first) {
        staged.component = result.component;
        staged.lowered = state.types().get_type_array(result.component.type, state.uint_constant(source.length));
        Components from(state, function, source.lowered, source.component.type, source.length, staged_value);
        Components to(state, function, staged.lowered, staged.component.type, staged.length);
        repeat(state, function, source.length,
               [&](const Iteration& e) { to.set(e, convert(state, b, from.get(e), source.component, result.component, opcode)); });
        staged_value = to.value();
    }
    const uint32_t chunk_rows = rows_at_once(state, staged, result);
    if (chunk_rows != result.rows) return relayout_in_chunks(state, scratch, function, staged, staged_value, result, transpose, chunk_rows,
                                                             [&](uint32_t value) {
                                                                 return convert_first ? value : convert(state, b, value, source.component, result.component, opcode);
                                                             });
    // The shared copy is laid out as the result: rows of result.columns components.
    write_to_scratch(state, scratch, function, staged, staged_value, transpose, result.columns);
    const Placement place(state, b, result);
    Components components(state, function, result.lowered, result.component.type, result.length);
    repeat(state, function, result.length, [&](const Iteration& e) {
        const uint32_t value = read_scratch(scratch, b, staged, place.index(b, e, result.columns), staged.rows * staged.columns);
        components.set(e, convert_first ? value : convert(state, b, value, source.component, result.component, opcode));
    });
    return components.value();
}

}  // namespace

void store_to_scratch(LoweringState& state, Scratch& scratch, ir::FunctionBuilder& function, const MatrixType& m,
                      uint32_t matrix, uint32_t offset, uint32_t pitch, bool transpose, uint32_t area_elements,
                      const std::optional<ScratchWindow>& window, uint32_t carrier) {
    ir::Builder& b = function.body();
    const Placement place(state, b, m);
    Components elements(state, function, m.lowered, m.component.type, m.length, matrix);
    const uint32_t writer = place.sole_writer(b);
    if (writer) function.begin_if(writer);
    const uint32_t u = state.uint_type();
    // 16-bit floats with a uint carrier: the two components of each run, row neighbours, as one word.
    const bool pairs = carrier == u && state.types().float_format(m.component.type) == ir::kFloat16;
    const uint32_t per_store = pairs ? 2 : 1;
    const auto element = [&](const Iteration& stored, uint32_t i) {
        if (!pairs) return stored;
        if (stored.fixed) return Iteration{state.uint_constant(*stored.fixed * 2 + i), *stored.fixed * 2 + i};
        return Iteration{b.add(spv::OpIAdd, u, {b.add(spv::OpIMul, u, {stored.index, state.uint_constant(2)}), state.uint_constant(i)}),
                         std::nullopt};
    };
    repeat(state, function, m.length / per_store, [&](const Iteration& stored) {
        const Iteration e = element(stored, 0);
        const uint32_t value = pairs ? pack_halves(state, b, elements.get(e), elements.get(element(stored, 1))) : elements.get(e);
        uint32_t index = 0;
        if (window) {  // counted from the window's first; below it wraps past the count
            uint32_t row = place.row(b, e), column = place.column(b, e);
            uint32_t& windowed = window->rows ? row : column;
            windowed = b.add(spv::OpISub, u, {windowed, window->first});
            function.begin_if(b.add(spv::OpULessThan, state.types().get_type_bool(), {windowed, state.uint_constant(window->count)}));
            const uint32_t major = transpose ? column : row;
            const uint32_t minor = transpose ? row : column;
            const uint32_t line = b.add(spv::OpIAdd, u, {state.uint_constant(offset), b.add(spv::OpIMul, u, {major, state.uint_constant(pitch)})});
            index = b.add(spv::OpIAdd, u, {line, minor});
        } else {
            index = place.index(b, e, pitch, offset, transpose);
        }
        if (pairs) {
            scratch.store(b, u, b.add(spv::OpShiftRightLogical, u, {index, state.uint_constant(1)}), value, area_elements / 2, m.workgroup);
        } else {
            scratch.store(b, m.component.type, index, value, area_elements, m.workgroup, carrier);
        }
        if (window) function.end_if();
    });
    if (writer) function.end_if();
}

uint32_t load_from_scratch(LoweringState& state, Scratch& scratch, ir::FunctionBuilder& function, const MatrixType& m,
                           uint32_t offset, uint32_t pitch, uint32_t area_elements, uint32_t carrier) {
    ir::Builder& b = function.body();
    const Placement place(state, b, m);
    Components components(state, function, m.lowered, m.component.type, m.length);
    repeat(state, function, m.length, [&](const Iteration& e) {
        components.set(e, read_scratch(scratch, b, m, place.index(b, e, pitch, offset), area_elements, carrier));
    });
    return components.value();
}

uint32_t load_rows_from_scratch(LoweringState& state, Scratch& scratch, ir::FunctionBuilder& function, const MatrixType& staged,
                                const MatrixType& m, uint32_t held, uint32_t first, uint32_t rows, uint32_t carrier,
                                const std::function<uint32_t(uint32_t)>& finish) {
    ir::Builder& b = function.body();
    const uint32_t u = state.uint_type(), bool_type = state.types().get_type_bool();
    const uint32_t area = rows * m.columns;
    const Placement place(state, b, m);
    Components before(state, function, m.lowered, m.component.type, m.length, held);
    Components after(state, function, m.lowered, m.component.type, m.length);
    repeat(state, function, m.length, [&](const Iteration& e) {
        const uint32_t row = b.add(spv::OpISub, u, {place.row(b, e), first});  // past the rows: wraps beyond them
        const uint32_t inside = b.add(spv::OpULessThan, bool_type, {row, state.uint_constant(rows)});
        const uint32_t at = b.add(spv::OpIAdd, u, {b.add(spv::OpIMul, u, {row, state.uint_constant(m.columns)}), place.column(b, e)});
        const uint32_t read = read_scratch(scratch, b, staged, b.add(spv::OpSelect, u, {inside, at, state.uint_constant(0)}), area, carrier);
        after.set(e, b.add(spv::OpSelect, m.component.type, {inside, finish ? finish(read) : read, before.get(e)}));
    });
    return after.value();
}

bool needs_relayout(LoweringState& state, const ir::Instruction& instruction) {
    const uint32_t opcode = instruction.opcode();
    if (opcode == spv::OpCooperativeMatrixConvertNV || opcode == spv::OpCooperativeMatrixTransposeNV) return true;
    if (!converts_components(opcode)) return false;
    const MatrixType* result = state.matrices.find(instruction.type_id());
    const MatrixType* source = state.matrices.of_value(state.module(), instruction.operand_words()[0]);
    return result && source && result->use != source->use;
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
        const bool broadcast = !transpose && source->use == Use::Accumulator && result->use == Use::A &&
                               result->layout.writers() == 1 && shuffles_reach(state, *source) && unrolls(state, result->length);
        function.finish(broadcast ? accumulator_to_a_by_broadcasts(state, function, *source, *result, opcode)
                                  : relayout_through_scratch(state, scratch, function, *source, *result, transpose, opcode));
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
    if (source->use != Use::Accumulator || result->use != Use::Accumulator) {
        return report(state, instruction, "the operand and the result must be accumulators (MatrixAccumulatorKHR)");
    }
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
        Reduction reduction(state, scratch, function, *source, *result, combine);
        // A workgroup one's rows by shuffles too where its bands are whole rows: llama.cpp's coopmat2
        // flash attention's row maxima and sums (64x64 over 2 subgroups of 64) read each row's 64
        // partials from shared memory for every element an invocation holds (2,048 loads) otherwise.
        // Each invocation folds its rows of the source into its rows of the result: both must hold
        // the same rows.
        const bool shuffled = mode == kReduceRow && shuffles_reach_rows(state, *source) && shuffles_reach_rows(state, *result) &&
                              source->spread == result->spread && same_rows(source->layout, result->layout);
        const bool whole = mode == (kReduceRow | kReduceColumn) && whole_by_shuffles_fits(state, *source);
        function.finish(mode == kReduce2x2 ? reduction.quads()
                        : shuffled         ? reduction.rows_by_shuffles()
                        : whole            ? reduction.whole_by_shuffles()
                                           : reduction.lines(mode));
        function_id = function.id();
        state.remember_function(std::move(key), function_id);
    }
    call_instead(state, block, index, function_id, {operands[0]});
    return true;
}

}  // namespace vkpolyfill::lowering::cooperative_matrix
