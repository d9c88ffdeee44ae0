#include "passes/arm_tensors/coordinates.h"

#include <array>
#include <spirv/unified1/spirv.hpp>
#include <utility>

#include "vkpolyfill/lowering/arm_tensors.h"

namespace vkpolyfill::lowering::arm_tensors {
namespace {

// One coordinate, as wide as the bounds check needs it: 32 bits for coordinates of up to 32 bits
// (narrower signed ones sign-extended, so negatives stay huge), 64 bits for 64-bit ones.
struct Coordinate {
    uint32_t value;  // uint (or ulong when wide) id
    bool wide;
};

class PositionBuilder {
  public:
    PositionBuilder(ir::Builder& b, PassContext& context, const CoordinatesInput& input)
        : b_(b), types_(context.types), u_(types_.get_type_int(32, false)), bool_(types_.get_type_bool()) {
        const ir::Instruction* type = context.module.find_definition(input.component_type);
        width_ = type->word(2);
        signed_ = type->word(3) != 0;
        wide_type_ = width_ == 64 ? types_.get_type_int(64, false) : 0;
    }

    Coordinate coordinate(uint32_t coordinates, uint32_t component_type, uint32_t d) {
        const uint32_t c = b_.add(spv::OpCompositeExtract, component_type, {coordinates, d});
        if (width_ == 64) return {signed_ ? b_.add(spv::OpBitcast, wide_type_, {c}) : c, true};
        if (width_ == 32) return {signed_ ? b_.add(spv::OpBitcast, u_, {c}) : c, false};
        if (!signed_) return {b_.add(spv::OpUConvert, u_, {c}), false};
        const uint32_t extended = b_.add(spv::OpSConvert, types_.get_type_int(32, true), {c});
        return {b_.add(spv::OpBitcast, u_, {extended}), false};
    }

    uint32_t below(const Coordinate& c, uint32_t dimension) {
        if (c.wide) dimension = b_.add(spv::OpUConvert, wide_type_, {dimension});
        return b_.add(spv::OpULessThan, bool_, {c.value, dimension});
    }

    // c + j; for unsigned coordinates also whether the sum did not wrap (c + j is then past any
    // dimension), for signed ones true: -1 + 1 is coordinate 0.
    std::pair<Coordinate, uint32_t> advanced(const Coordinate& c, uint32_t j) {
        const uint32_t step = c.wide ? types_.get_constant(wide_type_, std::array{j, 0u}) : types_.get_constant_uint32(j);
        const Coordinate next{b_.add(spv::OpIAdd, c.wide ? wide_type_ : u_, {c.value, step}), c.wide};
        if (signed_) return {next, 0};
        return {next, b_.add(spv::OpUGreaterThanEqual, bool_, {next.value, c.value})};
    }

    uint32_t low_bits(const Coordinate& c) { return c.wide ? b_.add(spv::OpUConvert, u_, {c.value}) : c.value; }

    uint32_t all(uint32_t a, uint32_t b) {
        if (a == 0) return b;
        if (b == 0) return a;
        return b_.add(spv::OpLogicalAnd, bool_, {a, b});
    }

    uint32_t uint_type() const { return u_; }

  private:
    ir::Builder& b_;
    ir::TypeManager& types_;
    uint32_t u_, bool_;
    uint32_t width_ = 32;
    bool signed_ = false;
    uint32_t wide_type_ = 0;
};

}  // namespace

std::vector<ElementPosition> element_positions(ir::Builder& b, PassContext& context, DescriptorAccess& access,
                                               const TensorRef& ref, uint32_t shape_index, const CoordinatesInput& input) {
    PositionBuilder p(b, context, input);
    const uint32_t u = p.uint_type();
    const uint32_t last = input.rank - 1;
    uint32_t outer_in_bounds = 0;  // the dimensions but the innermost
    uint32_t offset = 0;
    Coordinate innermost{};
    uint32_t innermost_dimension = 0;
    for (uint32_t d = 0; d < input.rank; ++d) {
        const Coordinate c = p.coordinate(input.coordinates, input.component_type, d);
        const uint32_t dimension = access.load_shape_word(b, ref, shape_index, kTensorShapeDimensionsWord + d);
        // The innermost stride is one element (VkTensorDescriptionARM: pStrides[dimensionCount - 1] is
        // the element size), so the innermost coordinate is added as it is.
        const uint32_t term = d == last ? p.low_bits(c)
                                        : b.add(spv::OpIMul, u, {p.low_bits(c), access.load_shape_word(b, ref, shape_index,
                                                                                                      kTensorShapeStridesWord + d)});
        offset = offset ? b.add(spv::OpIAdd, u, {offset, term}) : term;
        if (d == last) {
            innermost = c;
            innermost_dimension = dimension;
        } else {
            outer_in_bounds = p.all(outer_in_bounds, p.below(c, dimension));
        }
    }
    std::vector<ElementPosition> positions;
    positions.reserve(input.count);
    for (uint32_t j = 0; j < input.count; ++j) {
        if (j == 0) {
            positions.push_back({p.all(outer_in_bounds, p.below(innermost, innermost_dimension)), offset});
            continue;
        }
        const auto [c, no_wrap] = p.advanced(innermost, j);
        const uint32_t in_bounds = p.all(p.all(outer_in_bounds, p.below(c, innermost_dimension)), no_wrap);
        positions.push_back({in_bounds, b.add(spv::OpIAdd, u, {offset, context.types.get_constant_uint32(j)})});
    }
    return positions;
}

}  // namespace vkpolyfill::lowering::arm_tensors
