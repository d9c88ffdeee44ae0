// Where the components an invocation holds sit in their matrix, for code being generated: the
// layouts of matrix_types.h and lane_layout.h turned into row and column ids. A Placement loads the
// invocation's ids it needs (lane, subgroup) once, where it is constructed.
#pragma once

#include <cstdint>
#include <optional>

#include "passes/cooperative_matrix/element_loop.h"
#include "passes/cooperative_matrix/lowering_state.h"

namespace vkpolyfill::lowering::cooperative_matrix {

class Placement {
  public:
    Placement(LoweringState& state, ir::Builder& builder, const MatrixType& matrix);

    uint32_t length() const { return matrix_.length; }
    uint32_t row(ir::Builder& builder, uint32_t e) const;
    uint32_t column(ir::Builder& builder, uint32_t e) const;
    // The same for an element given as a uint id (inside a loop over the elements).
    uint32_t row_at(ir::Builder& builder, uint32_t e) const;
    uint32_t column_at(ir::Builder& builder, uint32_t e) const;
    // Those as base + offset (ids): the base the same for every element, the offset the same in every
    // invocation. Once a compiler unrolls the loop, addresses built from the two parts apart are one
    // address plus uniform offsets, not an address computed (and kept live) per element.
    struct SplitAt {
        uint32_t base;
        uint32_t offset;
    };
    SplitAt row_split_at(ir::Builder& builder, uint32_t e) const;
    SplitAt column_split_at(ir::Builder& builder, uint32_t e) const;
    // The same for an iteration of repeat() over the elements, unrolled or not.
    uint32_t row(ir::Builder& builder, const Iteration& e) const { return e.fixed ? row(builder, *e.fixed) : row_at(builder, e.index); }
    uint32_t column(ir::Builder& builder, const Iteration& e) const {
        return e.fixed ? column(builder, *e.fixed) : column_at(builder, e.index);
    }
    // Row (column) of element `e` as an id plus a constant: the id is the same for every element where
    // the layout allows (its band's, row group's, stripe's first), so that addresses built from it
    // differ by constants the compilers fold into their loads' offsets.
    struct Split {
        uint32_t base;      // a uint id
        uint32_t constant;
    };
    Split row_split(ir::Builder& builder, uint32_t e) const;
    Split column_split(ir::Builder& builder, uint32_t e) const;
    // offset + row * pitch + column of element `e` (transposed: column * pitch + row), the constant
    // part added last.
    uint32_t index(ir::Builder& builder, const Iteration& e, uint32_t pitch, uint32_t offset = 0, bool transpose = false) const;

    // The row / column of element `e` when every invocation has the same one there.
    std::optional<uint32_t> fixed_row(uint32_t e) const;
    std::optional<uint32_t> fixed_column(uint32_t e) const;
    // Whether element e + 1 sits right of element e in the same row (unless e + 1 starts a row):
    // true where an invocation holds whole stretches of rows (subgroup A, bands of one column lane).
    static bool holds_row_runs(const MatrixType& matrix) {
        return !matrix.striped() && matrix.layout.column_lanes == 1;
    }
    // The row group of the invocation in its subgroup layout (an id; constant 0 without groups).
    uint32_t row_group() const { return row_group_; }
    // A banded workgroup matrix: the first row and column of the subgroup's band (ids; 0 for A's
    // column and B's row, which span the matrix).
    uint32_t band_row() const { return band_row_; }
    uint32_t band_column() const { return band_column_; }
    // SubgroupId * subgroup size + SubgroupLocalInvocationId (an id): the invocation's index in its workgroup.
    static uint32_t invocation_in_workgroup(LoweringState& state, ir::Builder& builder);
    // True (an id) in the one invocation that writes each element several invocations hold (all
    // of a replicated subgroup A, a distributed one's row lanes; B across row groups; an accumulator
    // with fewer rows than row groups across its replicas; banded workgroup A and B across the
    // subgroups that share a band); 0 when every element has a single holder.
    uint32_t sole_writer(ir::Builder& builder) const;

  private:
    // Striped (in runs of matrix_.spread.run elements), where invocations and a row's runs divide one
    // another: a stripe of invocations covers rows_per_stripe() whole rows, or a row
    // stripes_per_row() whole stripes.
    uint32_t run() const { return matrix_.spread.run; }
    uint32_t runs_per_row() const { return matrix_.columns / run(); }
    uint32_t rows_per_stripe() const { return matrix_.spread.invocations / runs_per_row(); }
    bool stripe_within_row() const { return runs_per_row() % matrix_.spread.invocations == 0; }
    uint32_t stripes_per_row() const { return runs_per_row() / matrix_.spread.invocations; }
    // Striped, element e (an id): its run's index among the invocation's, and its place in the run.
    uint32_t run_at(ir::Builder& builder, uint32_t e) const;
    uint32_t in_run_at(ir::Builder& builder, uint32_t e) const;
    // Striped: the row-major index of the run holding the invocation's run `r` (an id), and its
    // first element's row and column (ids).
    uint32_t flat_run(ir::Builder& builder, uint32_t r) const;
    uint32_t row_of_run(ir::Builder& builder, uint32_t flat) const;
    uint32_t column_of_run(ir::Builder& builder, uint32_t flat) const;

    LoweringState& state_;
    const MatrixType& matrix_;
    uint32_t first_column_ = 0;  // subgroup and band layouts: the column lane's first column
    uint32_t row_group_ = 0;
    uint32_t invocation_ = 0;   // striped: the invocation's index in the workgroup
    uint32_t run_column_ = 0;   // striped within rows: the column of the invocation's run in its stripe
    uint32_t stripe_row_ = 0;     // striped over whole rows: the invocation's row and column in its stripe
    uint32_t stripe_column_ = 0;
    uint32_t band_row_ = 0;     // banded: the band's first row and column
    uint32_t band_column_ = 0;
};

}  // namespace vkpolyfill::lowering::cooperative_matrix
