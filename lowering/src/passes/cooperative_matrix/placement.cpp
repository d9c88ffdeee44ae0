#include "passes/cooperative_matrix/placement.h"

#include <spirv/unified1/spirv.hpp>

namespace vkpolyfill::lowering::cooperative_matrix {

Placement::Placement(LoweringState& state, ir::Builder& b, const MatrixType& matrix) : state_(state), matrix_(matrix) {
    const uint32_t u = state.uint_type();
    first_column_ = row_group_ = state.uint_constant(0);
    const bool striped = matrix.striped();
    const LaneLayout& layout = matrix.layout;
    if (striped) {
        invocation_ = invocation_in_workgroup(state, b);
        // Where a stripe is whole rows (or rows are whole stripes), element e's row and column are the
        // invocation's plus constants: the per-element address arithmetic then folds to offsets from
        // one base (on the GPU compilers, computing (e * invocations + invocation) / columns for every
        // element kept each element's address live: ACO spilled them in llama.cpp's coopmat2 GEMM).
        const uint32_t runs = state.uint_constant(runs_per_row());
        const auto columns_of = [&](uint32_t runs_in) { return run() == 1 ? runs_in : b.add(spv::OpIMul, u, {runs_in, state.uint_constant(run())}); };
        if (matrix.spread.invocations % runs_per_row() == 0) {
            stripe_row_ = b.add(spv::OpUDiv, u, {invocation_, runs});
            stripe_column_ = columns_of(b.add(spv::OpUMod, u, {invocation_, runs}));
        } else if (stripe_within_row()) {
            run_column_ = columns_of(invocation_);
        }
        return;
    }
    if (layout.column_lanes > 1 || layout.row_groups > 1) {
        const uint32_t lane = state.load_lane(b);
        const uint32_t lanes = state.uint_constant(layout.column_lanes);
        if (layout.column_lanes > 1) {
            first_column_ = b.add(spv::OpIMul, u, {b.add(spv::OpUMod, u, {lane, lanes}), state.uint_constant(layout.columns_per_lane)});
        }
        if (layout.row_groups > 1) {
            row_group_ = layout.column_lanes > 1 ? b.add(spv::OpUDiv, u, {lane, lanes}) : lane;
            // Invocations past the layout's writers repeat the elements of the writers before them:
            // a distributed A's replicas, an accumulator whose row groups the subgroup holds more
            // than once (computed again, written once: LaneLayout::writers()).
            if (layout.writers() < state.context.target.subgroup_size) {
                row_group_ = b.add(spv::OpUMod, u, {row_group_, state.uint_constant(layout.row_groups)});
            }
        }
    }
    if (matrix.workgroup) {  // banded: which band this subgroup holds (A: all columns, B: all rows)
        const WorkgroupLayout& spread = matrix.spread;
        const uint32_t subgroup = state.load_builtin(b, spv::BuiltInSubgroupId);
        const uint32_t across = state.uint_constant(spread.bands_across);
        if (matrix.use != Use::B) {
            band_row_ = b.add(spv::OpIMul, u, {b.add(spv::OpUDiv, u, {subgroup, across}), state.uint_constant(spread.band_rows)});
        }
        if (matrix.use != Use::A) {
            band_column_ =
                b.add(spv::OpIMul, u, {b.add(spv::OpUMod, u, {subgroup, across}), state.uint_constant(spread.band_columns)});
        }
    }
}

uint32_t Placement::invocation_in_workgroup(LoweringState& state, ir::Builder& b) {
    const uint32_t u = state.uint_type();
    const uint32_t subgroup = state.load_builtin(b, spv::BuiltInSubgroupId);
    return b.add(spv::OpIAdd, u, {b.add(spv::OpIMul, u, {subgroup, state.uint_constant(state.context.target.subgroup_size)}), state.load_lane(b)});
}

uint32_t Placement::row(ir::Builder& b, uint32_t e) const {
    const uint32_t u = state_.uint_type();
    if (invocation_) {
        const uint32_t r = e / run();
        if (stripe_row_) return b.add(spv::OpIAdd, u, {stripe_row_, state_.uint_constant(r * rows_per_stripe())});
        if (stripe_within_row()) return state_.uint_constant(r / stripes_per_row());
        return row_of_run(b, b.add(spv::OpIAdd, u, {state_.uint_constant(r * matrix_.spread.invocations), invocation_}));
    }
    uint32_t row = state_.uint_constant(matrix_.layout.row(e, 0));
    if (matrix_.layout.row_groups > 1) row = b.add(spv::OpIAdd, u, {row_group_, row});
    return band_row_ ? b.add(spv::OpIAdd, u, {band_row_, row}) : row;
}

uint32_t Placement::column(ir::Builder& b, uint32_t e) const {
    const uint32_t u = state_.uint_type();
    if (invocation_) {
        const Split column = column_split(b, e);
        return column.constant ? b.add(spv::OpIAdd, u, {column.base, state_.uint_constant(column.constant)}) : column.base;
    }
    uint32_t column = state_.uint_constant(matrix_.layout.column(e, 0));
    if (matrix_.layout.column_lanes > 1) column = b.add(spv::OpIAdd, u, {first_column_, column});
    return band_column_ ? b.add(spv::OpIAdd, u, {band_column_, column}) : column;
}

uint32_t Placement::row_at(ir::Builder& b, uint32_t e) const {
    const SplitAt row = row_split_at(b, e);
    return b.add(spv::OpIAdd, state_.uint_type(), {row.base, row.offset});
}

uint32_t Placement::column_at(ir::Builder& b, uint32_t e) const {
    const SplitAt column = column_split_at(b, e);
    return b.add(spv::OpIAdd, state_.uint_type(), {column.base, column.offset});
}

Placement::SplitAt Placement::row_split_at(ir::Builder& b, uint32_t e) const {
    const uint32_t u = state_.uint_type(), zero = state_.uint_constant(0);
    if (invocation_) {
        const uint32_t r = run_at(b, e);
        if (stripe_row_) return {stripe_row_, b.add(spv::OpIMul, u, {r, state_.uint_constant(rows_per_stripe())})};
        if (stripe_within_row()) return {zero, b.add(spv::OpUDiv, u, {r, state_.uint_constant(stripes_per_row())})};
        return {row_of_run(b, flat_run(b, r)), zero};
    }
    const LaneLayout& layout = matrix_.layout;  // g + (e / NL) * G
    const uint32_t line = b.add(spv::OpUDiv, u, {e, state_.uint_constant(layout.columns_per_lane)});
    const uint32_t base = band_row_ ? b.add(spv::OpIAdd, u, {band_row_, row_group_}) : row_group_;
    return {base, b.add(spv::OpIMul, u, {line, state_.uint_constant(layout.row_groups)})};
}

Placement::SplitAt Placement::column_split_at(ir::Builder& b, uint32_t e) const {
    const uint32_t u = state_.uint_type(), zero = state_.uint_constant(0);
    if (invocation_) {
        const uint32_t in_run = in_run_at(b, e);
        if (stripe_column_) return {stripe_column_, in_run};
        const uint32_t r = run_at(b, e);
        const auto plus_in_run = [&](uint32_t id) { return run() == 1 ? id : b.add(spv::OpIAdd, u, {id, in_run}); };
        if (stripe_within_row()) {
            const uint32_t stripe = b.add(spv::OpUMod, u, {r, state_.uint_constant(stripes_per_row())});
            return {run_column_, plus_in_run(b.add(spv::OpIMul, u, {stripe, state_.uint_constant(matrix_.spread.invocations * run())}))};
        }
        return {plus_in_run(column_of_run(b, flat_run(b, r))), zero};
    }
    const LaneLayout& layout = matrix_.layout;  // cl * NL + e % NL
    const uint32_t base = band_column_ ? b.add(spv::OpIAdd, u, {band_column_, first_column_}) : first_column_;
    return {base, b.add(spv::OpUMod, u, {e, state_.uint_constant(layout.columns_per_lane)})};
}

Placement::Split Placement::row_split(ir::Builder& b, uint32_t e) const {
    const uint32_t u = state_.uint_type();
    if (stripe_row_) return {stripe_row_, e / run() * rows_per_stripe()};
    if (invocation_ && stripe_within_row()) return {state_.uint_constant(0), e / run() / stripes_per_row()};
    if (invocation_) return {row(b, e), 0};
    return {band_row_ ? b.add(spv::OpIAdd, u, {band_row_, row_group_}) : row_group_, matrix_.layout.row(e, 0)};
}

Placement::Split Placement::column_split(ir::Builder& b, uint32_t e) const {
    const uint32_t u = state_.uint_type();
    if (invocation_) {
        const uint32_t r = e / run(), in_run = e % run();
        if (stripe_column_) return {stripe_column_, in_run};
        if (stripe_within_row()) return {run_column_, r % stripes_per_row() * matrix_.spread.invocations * run() + in_run};
        return {column_of_run(b, b.add(spv::OpIAdd, u, {state_.uint_constant(r * matrix_.spread.invocations), invocation_})), in_run};
    }
    return {band_column_ ? b.add(spv::OpIAdd, u, {band_column_, first_column_}) : first_column_, matrix_.layout.column(e, 0)};
}

uint32_t Placement::index(ir::Builder& b, const Iteration& e, uint32_t pitch, uint32_t offset, bool transpose) const {
    const uint32_t u = state_.uint_type();
    if (!e.fixed) {
        const uint32_t major = transpose ? column(b, e) : row(b, e), minor = transpose ? row(b, e) : column(b, e);
        const uint32_t line = b.add(spv::OpIAdd, u, {state_.uint_constant(offset), b.add(spv::OpIMul, u, {major, state_.uint_constant(pitch)})});
        return b.add(spv::OpIAdd, u, {line, minor});
    }
    const Split row = row_split(b, *e.fixed), column = column_split(b, *e.fixed);
    const Split& major = transpose ? column : row;
    const Split& minor = transpose ? row : column;
    const uint32_t base = b.add(spv::OpIAdd, u, {b.add(spv::OpIMul, u, {major.base, state_.uint_constant(pitch)}), minor.base});
    return b.add(spv::OpIAdd, u, {base, state_.uint_constant(offset + major.constant * pitch + minor.constant)});
}

uint32_t Placement::run_at(ir::Builder& b, uint32_t e) const {
    return run() == 1 ? e : b.add(spv::OpUDiv, state_.uint_type(), {e, state_.uint_constant(run())});
}

uint32_t Placement::in_run_at(ir::Builder& b, uint32_t e) const {
    return run() == 1 ? state_.uint_constant(0) : b.add(spv::OpUMod, state_.uint_type(), {e, state_.uint_constant(run())});
}

uint32_t Placement::flat_run(ir::Builder& b, uint32_t r) const {
    const uint32_t u = state_.uint_type();
    return b.add(spv::OpIAdd, u, {b.add(spv::OpIMul, u, {r, state_.uint_constant(matrix_.spread.invocations)}), invocation_});
}

uint32_t Placement::row_of_run(ir::Builder& b, uint32_t flat) const {
    return b.add(spv::OpUDiv, state_.uint_type(), {flat, state_.uint_constant(runs_per_row())});
}

uint32_t Placement::column_of_run(ir::Builder& b, uint32_t flat) const {
    const uint32_t u = state_.uint_type();
    const uint32_t runs_in = b.add(spv::OpUMod, u, {flat, state_.uint_constant(runs_per_row())});
    return run() == 1 ? runs_in : b.add(spv::OpIMul, u, {runs_in, state_.uint_constant(run())});
}

std::optional<uint32_t> Placement::fixed_row(uint32_t e) const {
    if (matrix_.workgroup || matrix_.layout.row_groups > 1) return std::nullopt;
    return matrix_.layout.row(e, 0);
}

std::optional<uint32_t> Placement::fixed_column(uint32_t e) const {
    if (matrix_.workgroup || matrix_.layout.column_lanes > 1) return std::nullopt;
    return matrix_.layout.column(e, 0);
}

uint32_t Placement::sole_writer(ir::Builder& b) const {
    // Striped matrices hold every element once; the bands of a workgroup accumulator are the subgroups' own.
    if (matrix_.striped()) return 0;
    const uint32_t subgroup = state_.context.target.subgroup_size;
    const uint32_t writers = matrix_.layout.writers();
    const bool one_holder = !matrix_.workgroup || matrix_.use == Use::Accumulator;  // but for its repeats
    if (matrix_.workgroup && one_holder && writers == subgroup) return 0;
    const uint32_t bool_type = state_.types().get_type_bool();
    const uint32_t lane_writes =
        writers < subgroup ? b.add(spv::OpULessThan, bool_type, {state_.load_lane(b), state_.uint_constant(writers)}) : 0;
    if (one_holder) return lane_writes;
    // Banded A or B: of the subgroups sharing band rows (A) or band columns (B), the first.
    const uint32_t u = state_.uint_type();
    const uint32_t id = state_.load_builtin(b, spv::BuiltInSubgroupId);
    const uint32_t across = state_.uint_constant(matrix_.spread.bands_across);
    const uint32_t first = matrix_.use == Use::A
                               ? b.add(spv::OpIEqual, bool_type, {b.add(spv::OpUMod, u, {id, across}), state_.uint_constant(0)})
                               : b.add(spv::OpULessThan, bool_type, {id, across});
    return lane_writes ? b.add(spv::OpLogicalAnd, bool_type, {lane_writes, first}) : first;
}

}  // namespace vkpolyfill::lowering::cooperative_matrix
