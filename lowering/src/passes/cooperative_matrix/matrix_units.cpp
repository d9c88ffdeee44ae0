#include "passes/cooperative_matrix/matrix_units.h"

#include <map>
#include <spirv/unified1/spirv.hpp>

#include "passes/cooperative_matrix/element_loop.h"
#include "passes/cooperative_matrix/placement.h"
#include "passes/cooperative_matrix/relayout.h"
#include "passes/cooperative_matrix/resident_accumulators.h"

namespace vkpolyfill::lowering::cooperative_matrix {
namespace {

bool has(uint32_t mask, uint32_t bit) { return (mask & bit) != 0; }

// VkComponentTypeKHR's meaning of a component: floats by their encoding, integers by the signedness
// the multiply-add's operands give them (their type's own does not count).
std::optional<ComponentType> component_type(LoweringState& state, const ComponentInfo& component, bool is_signed) {
    if (component.is_float) {
        const std::optional<ir::FloatFormat> format = state.types().float_format(component.type);
        if (format == ir::kFloat16) return ComponentType::Float16;
        if (format == ir::kFloat32) return ComponentType::Float32;
        if (format == ir::kBFloat16) return ComponentType::BFloat16;
        if (format == ir::kFloat8E4M3) return ComponentType::Float8E4M3;
        if (format == ir::kFloat8E5M2) return ComponentType::Float8E5M2;
        return std::nullopt;
    }
    switch (component.width) {
        case 8: return is_signed ? ComponentType::SInt8 : ComponentType::UInt8;
        case 16: return is_signed ? ComponentType::SInt16 : ComponentType::UInt16;
        case 32: return is_signed ? ComponentType::SInt32 : ComponentType::UInt32;
        default: return std::nullopt;
    }
}

uint64_t bytes_of(const MatrixType& matrix) { return matrix.component.width / 8; }

// The K columns of A (rows of B) staged at once beside C (unless C stays in the driver's tiles): all of
// K, or a multiple of the tile's K that divides it and fits the staging budget; 0 when not even one
// tile's K does.
uint32_t k_at_once(const Target& target, const MultiplyAddOperands& o, const CooperativeMatrixConfiguration& unit, bool stages_c) {
    const uint32_t m = o.a.rows, k = o.a.columns, n = o.b.columns;
    const uint32_t budget = staging_budget(target);
    if (budget == 0) return k;
    const uint64_t c_bytes = stages_c ? uint64_t{m} * n * bytes_of(o.c) : 0;
    const uint64_t per_tile_k = (uint64_t{m} * bytes_of(o.a) + uint64_t{n} * bytes_of(o.b)) * unit.k;
    if (c_bytes + per_tile_k > budget) return 0;
    return unit.k * items_at_once(k / unit.k, per_tile_k, static_cast<uint32_t>(budget - c_bytes));
}

// Where A, B and C sit in the workgroup's scratch areas (one per component type): each after what
// came before it in its type's area; C only when it is staged.
struct StagingLayout {
    uint32_t a, b, c;                      // first elements
    std::map<uint32_t, uint32_t> elements;  // component type -> elements its area holds
    uint32_t area(const MatrixType& matrix) const { return elements.at(matrix.component.type); }
};

StagingLayout staging_layout(const MultiplyAddOperands& o, uint32_t kc, bool stages_c) {
    StagingLayout layout;
    const auto place = [&](const MatrixType& matrix, uint32_t count) {
        uint32_t& used = layout.elements[matrix.component.type];
        const uint32_t first = used;
        used += count;
        return first;
    };
    layout.a = place(o.a, o.a.rows * kc);
    layout.b = place(o.b, kc * o.b.columns);
    layout.c = stages_c ? place(o.c, o.c.rows * o.c.columns) : 0;
    return layout;
}

class UnitMultiplyAdd {
  public:
    UnitMultiplyAdd(LoweringState& state, Scratch& scratch, const MultiplyAddOperands& operands,
                    const CooperativeMatrixConfiguration& unit)
        : state_(state), scratch_(scratch), o_(operands), unit_(unit), resident_(operands.c.resident ? &*operands.c.resident : nullptr),
          kc_(k_at_once(state.context.target, operands, unit, !resident_)), staged_(staging_layout(operands, kc_, !resident_)) {}

    // A resident C (ResidentTiles) comes and goes as the subgroups' tiles; any other is staged in
    // and out of shared memory around the multiply-add.
    uint32_t function() {
        const uint32_t m = o_.a.rows, k = o_.a.columns, n = o_.b.columns;
        const uint32_t c_type = resident_ ? resident_->array : o_.c.lowered;
        const uint32_t parameters[] = {o_.a.lowered, o_.b.lowered, c_type};
        ir::FunctionBuilder function(state_.module(), state_.types(), resident_ ? c_type : o_.result.lowered, parameters);
        ir::Builder& b = function.body();
        const uint32_t u = state_.uint_type();
        scratch_.barrier(b, true);  // the previous user's reads are done
        uint32_t sums = 0;
        if (resident_) {
            sums = function.add_variable(state_.types().get_type_pointer(spv::StorageClassFunction, c_type));
            b.add(spv::OpStore, 0, {sums, function.parameter(2)});
        } else {
            store_to_scratch(state_, scratch_, function, o_.c, function.parameter(2), staged_.c, n, false, staged_.area(o_.c));
        }
        std::optional<ScratchWindow> a_window, b_window;
        if (kc_ != k) {
            const uint32_t chunk = function.begin_loop(state_.uint_constant(k / kc_), spv::LoopControlDontUnrollMask);
            const uint32_t first = b.add(spv::OpIMul, u, {chunk, state_.uint_constant(kc_)});
            a_window = ScratchWindow{false, first, kc_};
            b_window = ScratchWindow{true, first, kc_};
            scratch_.barrier(b, true);  // the previous chunk's reads are done
        }
        store_to_scratch(state_, scratch_, function, o_.a, function.parameter(0), staged_.a, kc_, false, staged_.area(o_.a), a_window);
        store_to_scratch(state_, scratch_, function, o_.b, function.parameter(1), staged_.b, n, false, staged_.area(o_.b), b_window);
        scratch_.barrier(b, true);
        if (resident_) {
            multiply_blocks(function, sums, n);
        } else {
            multiply_tiles(function, m, n);
        }
        if (kc_ != k) function.end_loop();
        if (resident_) {
            function.finish(b.add(spv::OpLoad, c_type, {sums}));
            return function.id();
        }
        scratch_.barrier(b, true);  // every tile of the result is stored
        function.finish(load_from_scratch(state_, scratch_, function, o_.result, staged_.c, n, staged_.area(o_.c)));
        return function.id();
    }

  private:
    // Each subgroup adds to its block of C's tiles (`sums`, a Function variable of them) the products
    // along the staged K: a tile of A per block row and one of B per block column each step, each
    // multiplied block_columns (block_rows) times.
    void multiply_blocks(ir::FunctionBuilder& function, uint32_t sums, uint32_t n) {
        ir::Builder& b = function.body();
        const uint32_t u = state_.uint_type();
        const ResidentTiles& t = *resident_;
        const uint32_t a_tile = state_.unit_matrix_type(o_.a.component.type, unit_.m, unit_.k, Use::A);
        const uint32_t b_tile = state_.unit_matrix_type(o_.b.component.type, unit_.k, unit_.n, Use::B);
        const uint32_t tile_pointer = state_.types().get_type_pointer(spv::StorageClassFunction, t.tile);
        const TileBlock block = tile_block(state_, b, t);
        const uint32_t step = function.begin_loop(state_.uint_constant(kc_ / unit_.k), spv::LoopControlDontUnrollMask);
        const uint32_t k_first = b.add(spv::OpIMul, u, {step, state_.uint_constant(unit_.k)});
        std::vector<uint32_t> a_tiles, b_tiles;
        for (uint32_t i = 0; i < t.block_rows; ++i) {
            const uint32_t row = b.add(spv::OpIAdd, u, {block.first_row, state_.uint_constant(i * unit_.m)});
            const uint32_t line = b.add(spv::OpIMul, u, {row, state_.uint_constant(kc_)});
            const uint32_t first = b.add(spv::OpIAdd, u, {state_.uint_constant(staged_.a), b.add(spv::OpIAdd, u, {line, k_first})});
            a_tiles.push_back(load_tile(b, a_tile, pointer(b, o_.a, first), kc_));
        }
        for (uint32_t j = 0; j < t.block_columns; ++j) {
            const uint32_t column = b.add(spv::OpIAdd, u, {block.first_column, state_.uint_constant(j * unit_.n)});
            const uint32_t line = b.add(spv::OpIMul, u, {k_first, state_.uint_constant(n)});
            const uint32_t first = b.add(spv::OpIAdd, u, {state_.uint_constant(staged_.b), b.add(spv::OpIAdd, u, {line, column})});
            b_tiles.push_back(load_tile(b, b_tile, pointer(b, o_.b, first), n));
        }
        for (uint32_t i = 0; i < t.block_rows; ++i) {
            for (uint32_t j = 0; j < t.block_columns; ++j) {
                const uint32_t sum = b.add(spv::OpAccessChain, tile_pointer, {sums, state_.uint_constant(i * t.block_columns + j)});
                std::vector<uint32_t> multiply{a_tiles[i], b_tiles[j], b.add(spv::OpLoad, t.tile, {sum})};
                if (o_.operands_mask != 0) multiply.push_back(o_.operands_mask);
                b.add(spv::OpStore, 0, {sum, b.add(spv::OpCooperativeMatrixMulAddKHR, t.tile, multiply)});
            }
        }
        function.end_loop();
    }

    // Each subgroup takes the result's tiles subgroup id, + subgroups, ...: loads the tile of C (the
    // sum so far), adds the products of A's and B's staged tiles along the staged K, stores it back.
    void multiply_tiles(ir::FunctionBuilder& function, uint32_t m, uint32_t n) {
        ir::Builder& b = function.body();
        const uint32_t u = state_.uint_type();
        const uint32_t across = n / unit_.n, tiles = m / unit_.m * across;
        const uint32_t subgroups = o_.c.spread.invocations / state_.context.target.subgroup_size;
        const uint32_t a_tile = state_.unit_matrix_type(o_.a.component.type, unit_.m, unit_.k, Use::A);
        const uint32_t b_tile = state_.unit_matrix_type(o_.b.component.type, unit_.k, unit_.n, Use::B);
        const uint32_t c_tile = state_.unit_matrix_type(o_.c.component.type, unit_.m, unit_.n, Use::Accumulator);
        const uint32_t sum = function.add_variable(state_.types().get_type_pointer(spv::StorageClassFunction, c_tile));
        const uint32_t subgroup = state_.load_builtin(b, spv::BuiltInSubgroupId);
        const uint32_t round = function.begin_loop(state_.uint_constant((tiles + subgroups - 1) / subgroups), spv::LoopControlDontUnrollMask);
        const uint32_t tile = b.add(spv::OpIAdd, u, {subgroup, b.add(spv::OpIMul, u, {round, state_.uint_constant(subgroups)})});
        if (tiles % subgroups != 0) {
            function.begin_if(b.add(spv::OpULessThan, state_.types().get_type_bool(), {tile, state_.uint_constant(tiles)}));
        }
        const uint32_t row = b.add(spv::OpIMul, u, {b.add(spv::OpUDiv, u, {tile, state_.uint_constant(across)}), state_.uint_constant(unit_.m)});
        const uint32_t column = b.add(spv::OpIMul, u, {b.add(spv::OpUMod, u, {tile, state_.uint_constant(across)}), state_.uint_constant(unit_.n)});
        const uint32_t c_first = b.add(spv::OpIAdd, u, {state_.uint_constant(staged_.c), b.add(spv::OpIAdd, u, {b.add(spv::OpIMul, u, {row, state_.uint_constant(n)}), column})});
        const uint32_t c_pointer = pointer(b, o_.c, c_first);
        b.add(spv::OpStore, 0, {sum, load_tile(b, c_tile, c_pointer, n)});
        const uint32_t step = function.begin_loop(state_.uint_constant(kc_ / unit_.k), spv::LoopControlDontUnrollMask);
        const uint32_t k_first = b.add(spv::OpIMul, u, {step, state_.uint_constant(unit_.k)});
        const uint32_t a_first = b.add(spv::OpIAdd, u, {state_.uint_constant(staged_.a), b.add(spv::OpIAdd, u, {b.add(spv::OpIMul, u, {row, state_.uint_constant(kc_)}), k_first})});
        const uint32_t b_first = b.add(spv::OpIAdd, u, {state_.uint_constant(staged_.b), b.add(spv::OpIAdd, u, {b.add(spv::OpIMul, u, {k_first, state_.uint_constant(n)}), column})});
        std::vector<uint32_t> multiply{load_tile(b, a_tile, pointer(b, o_.a, a_first), kc_), load_tile(b, b_tile, pointer(b, o_.b, b_first), n),
                                       b.add(spv::OpLoad, c_tile, {sum})};
        if (o_.operands_mask != 0) multiply.push_back(o_.operands_mask);
        b.add(spv::OpStore, 0, {sum, b.add(spv::OpCooperativeMatrixMulAddKHR, c_tile, multiply)});
        function.end_loop();
        b.add(spv::OpCooperativeMatrixStoreKHR, 0,
              {c_pointer, b.add(spv::OpLoad, c_tile, {sum}), state_.uint_constant(spv::CooperativeMatrixLayoutRowMajorKHR), state_.uint_constant(n)});
        if (tiles % subgroups != 0) function.end_if();
        function.end_loop();
    }

    uint32_t pointer(ir::Builder& b, const MatrixType& matrix, uint32_t index) {
        return scratch_.element_pointer(b, matrix.component.type, index, staged_.area(matrix), true);
    }

    uint32_t load_tile(ir::Builder& b, uint32_t type, uint32_t first, uint32_t pitch) {
        return b.add(spv::OpCooperativeMatrixLoadKHR, type,
                     {first, state_.uint_constant(spv::CooperativeMatrixLayoutRowMajorKHR), state_.uint_constant(pitch)});
    }

    LoweringState& state_;
    Scratch& scratch_;
    const MultiplyAddOperands& o_;
    const CooperativeMatrixConfiguration& unit_;
    const ResidentTiles* resident_;
    uint32_t kc_;
    StagingLayout staged_;
};

}  // namespace

std::optional<CooperativeMatrixConfiguration> fitting_matrix_unit(LoweringState& state, const MultiplyAddOperands& o) {
    const Target& target = state.context.target;
    if (!o.c.workgroup || target.multiply_on_native_matrices == NativeMultiplyAdds::None || o.c.component.type != o.result.component.type) {
        return std::nullopt;
    }
    const uint32_t mask = o.operands_mask;
    const auto a = component_type(state, o.a.component, has(mask, spv::CooperativeMatrixOperandsMatrixASignedComponentsKHRMask));
    const auto b = component_type(state, o.b.component, has(mask, spv::CooperativeMatrixOperandsMatrixBSignedComponentsKHRMask));
    const auto c = component_type(state, o.c.component, has(mask, spv::CooperativeMatrixOperandsMatrixCSignedComponentsKHRMask));
    const auto r = component_type(state, o.result.component, has(mask, spv::CooperativeMatrixOperandsMatrixResultSignedComponentsKHRMask));
    const bool saturating = has(mask, spv::CooperativeMatrixOperandsSaturatingAccumulationKHRMask);
    const uint32_t m = o.a.rows, k = o.a.columns, n = o.b.columns;
    std::optional<CooperativeMatrixConfiguration> best;
    for (const CooperativeMatrixConfiguration& unit : target.native_matrices) {
        if (unit.a != a || unit.b != b || unit.c != c || unit.result != r || unit.saturating_accumulation != saturating) continue;
        if (m % unit.m != 0 || n % unit.n != 0 || k % unit.k != 0 || k_at_once(target, o, unit, true) == 0) continue;
        if (!best || unit.m * unit.n * unit.k > best->m * best->n * best->k) best = unit;
    }
    return best;
}

uint64_t staged_operand_bytes(LoweringState& state, const MultiplyAddOperands& operands, const CooperativeMatrixConfiguration& unit) {
    const uint32_t kc = k_at_once(state.context.target, operands, unit, false);
    return (uint64_t{operands.a.rows} * bytes_of(operands.a) + uint64_t{operands.b.columns} * bytes_of(operands.b)) * kc;
}

std::optional<CooperativeMatrixConfiguration> matrix_unit_for(LoweringState& state, const MultiplyAddOperands& o) {
    if (o.c.rows_of || o.result.rows_of) return std::nullopt;  // one value a row: sums of A's rows (row_values.h)
    if (state.context.target.multiply_on_native_matrices == NativeMultiplyAdds::KeptAccumulators && !o.c.resident) return std::nullopt;
    return fitting_matrix_unit(state, o);
}

uint32_t multiply_add_on_units(LoweringState& state, Scratch& scratch, const MultiplyAddOperands& operands,
                               const CooperativeMatrixConfiguration& unit) {
    std::vector<uint32_t> key{0x554E4954u /* "UNIT" */, operands.a.id, operands.b.id, operands.c.id, operands.result.id, operands.operands_mask};
    if (const uint32_t existing = state.find_function(key)) return existing;
    const uint32_t function = UnitMultiplyAdd(state, scratch, operands, unit).function();
    state.remember_function(std::move(key), function);
    return function;
}

}  // namespace vkpolyfill::lowering::cooperative_matrix
