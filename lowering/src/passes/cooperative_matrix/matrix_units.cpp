#include "passes/cooperative_matrix/matrix_units.h"

#include <map>
#include <spirv/unified1/spirv.hpp>

#include "passes/cooperative_matrix/element_loop.h"
#include "passes/cooperative_matrix/placement.h"
#include "passes/cooperative_matrix/relayout.h"

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

// The K columns of A (rows of B) staged at once beside the whole of C: all of K, or a multiple of the
// tile's K that divides it and fits the staging budget; 0 when not even one tile's K does.
uint32_t k_at_once(const Target& target, const MultiplyAddOperands& o, const CooperativeMatrixConfiguration& unit) {
    const uint32_t m = o.a.rows, k = o.a.columns, n = o.b.columns;
    const uint32_t budget = staging_budget(target);
    if (budget == 0) return k;
    const uint64_t c_bytes = uint64_t{m} * n * bytes_of(o.c);
    const uint64_t per_tile_k = (uint64_t{m} * bytes_of(o.a) + uint64_t{n} * bytes_of(o.b)) * unit.k;
    if (c_bytes + per_tile_k > budget) return 0;
    return unit.k * items_at_once(k / unit.k, per_tile_k, static_cast<uint32_t>(budget - c_bytes));
}

// Where A, B and C sit in the workgroup's scratch areas (one per component type): each after what
// came before it in its type's area.
struct StagingLayout {
    uint32_t a, b, c;                      // first elements
    std::map<uint32_t, uint32_t> elements;  // component type -> elements its area holds
    uint32_t area(const MatrixType& matrix) const { return elements.at(matrix.component.type); }
};

StagingLayout staging_layout(const MultiplyAddOperands& o, uint32_t kc) {
    StagingLayout layout;
    const auto place = [&](const MatrixType& matrix, uint32_t count) {
        uint32_t& used = layout.elements[matrix.component.type];
        const uint32_t first = used;
        used += count;
        return first;
    };
    layout.a = place(o.a, o.a.rows * kc);
    layout.b = place(o.b, kc * o.b.columns);
    layout.c = place(o.c, o.c.rows * o.c.columns);
    return layout;
}

class UnitMultiplyAdd {
  public:
    UnitMultiplyAdd(LoweringState& state, Scratch& scratch, const MultiplyAddOperands& operands,
                    const CooperativeMatrixConfiguration& unit)
        : state_(state), scratch_(scratch), o_(operands), unit_(unit), kc_(k_at_once(state.context.target, operands, unit)),
          staged_(staging_layout(operands, kc_)) {}

    uint32_t function() {
        const uint32_t m = o_.a.rows, k = o_.a.columns, n = o_.b.columns;
        const uint32_t parameters[] = {o_.a.lowered, o_.b.lowered, o_.c.lowered};
        ir::FunctionBuilder function(state_.module(), state_.types(), o_.result.lowered, parameters);
        ir::Builder& b = function.body();
        const uint32_t u = state_.uint_type();
        scratch_.barrier(b, true);  // the previous user's reads are done
        store_to_scratch(state_, scratch_, function, o_.c, function.parameter(2), staged_.c, n, false, staged_.area(o_.c));
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
        multiply_tiles(function, m, n);
        if (kc_ != k) function.end_loop();
        scratch_.barrier(b, true);  // every tile of the result is stored
        const Placement place(state_, b, o_.result);
        Components result(state_, function, o_.result.lowered, o_.result.component.type, o_.result.length);
        repeat(state_, function, o_.result.length, [&](const Iteration& e) {
            const uint32_t line = b.add(spv::OpIMul, u, {place.row(b, e), state_.uint_constant(n)});
            const uint32_t index = b.add(spv::OpIAdd, u, {state_.uint_constant(staged_.c), b.add(spv::OpIAdd, u, {line, place.column(b, e)})});
            result.set(e, b.add(spv::OpLoad, o_.result.component.type,
                                {scratch_.element_pointer(b, o_.c.component.type, index, staged_.area(o_.c), true)}));
        });
        function.finish(result.value());
        return function.id();
    }

  private:
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
    uint32_t kc_;
    StagingLayout staged_;
};

}  // namespace

std::optional<CooperativeMatrixConfiguration> matrix_unit_for(LoweringState& state, const MultiplyAddOperands& o) {
    const Target& target = state.context.target;
    if (!o.c.workgroup || !target.multiply_on_native_matrices || o.c.component.type != o.result.component.type) return std::nullopt;
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
        if (m % unit.m != 0 || n % unit.n != 0 || k % unit.k != 0 || k_at_once(target, o, unit) == 0) continue;
        if (!best || unit.m * unit.n * unit.k > best->m * best->n * best->k) best = unit;
    }
    return best;
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
