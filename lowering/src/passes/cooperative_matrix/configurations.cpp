// The fixed list of configurations the lowering offers, filtered per device.
#include <array>

#include "passes/cooperative_matrix/lane_layout.h"
#include "passes/cooperative_matrix/matrix_types.h"
#include "vkpolyfill/lowering/cooperative_matrix.h"

namespace vkpolyfill::lowering {
namespace {

using CT = ComponentType;

// The shapes real clients ask for: llama.cpp and ncnn look for 16x16x16, 16x8x16 and 16x8x8 in f16
// and 16x16x32 in int8; 8x8x8 is what lavapipe offers natively, so native and emulated runs of the
// same shader can be compared on one driver.
constexpr std::array kConfigurations = {
    CooperativeMatrixConfiguration{16, 16, 16, CT::Float16, CT::Float16, CT::Float32, CT::Float32, false},
    CooperativeMatrixConfiguration{16, 16, 16, CT::Float16, CT::Float16, CT::Float16, CT::Float16, false},
    CooperativeMatrixConfiguration{16, 8, 16, CT::Float16, CT::Float16, CT::Float32, CT::Float32, false},
    CooperativeMatrixConfiguration{16, 8, 16, CT::Float16, CT::Float16, CT::Float16, CT::Float16, false},
    CooperativeMatrixConfiguration{16, 8, 8, CT::Float16, CT::Float16, CT::Float32, CT::Float32, false},
    CooperativeMatrixConfiguration{16, 8, 8, CT::Float16, CT::Float16, CT::Float16, CT::Float16, false},
    CooperativeMatrixConfiguration{8, 8, 8, CT::Float16, CT::Float16, CT::Float32, CT::Float32, false},
    CooperativeMatrixConfiguration{8, 8, 8, CT::Float16, CT::Float16, CT::Float16, CT::Float16, false},
    CooperativeMatrixConfiguration{16, 16, 16, CT::BFloat16, CT::BFloat16, CT::Float32, CT::Float32, false},
    CooperativeMatrixConfiguration{16, 16, 32, CT::SInt8, CT::SInt8, CT::SInt32, CT::SInt32, false},
    CooperativeMatrixConfiguration{16, 16, 32, CT::SInt8, CT::SInt8, CT::SInt32, CT::SInt32, true},
    CooperativeMatrixConfiguration{16, 16, 32, CT::UInt8, CT::UInt8, CT::UInt32, CT::UInt32, false},
    CooperativeMatrixConfiguration{16, 16, 32, CT::UInt8, CT::UInt8, CT::UInt32, CT::UInt32, true},
    CooperativeMatrixConfiguration{8, 8, 8, CT::SInt8, CT::SInt8, CT::SInt32, CT::SInt32, false},
    CooperativeMatrixConfiguration{8, 8, 8, CT::UInt8, CT::UInt8, CT::UInt32, CT::UInt32, false},
};

bool computable(CT type, const ArithmeticSupport& support) {
    switch (type) {
        case CT::Float16: return support.float16;
        case CT::BFloat16: return support.bfloat16;
        case CT::SInt8:
        case CT::UInt8: return support.int8;
        case CT::Float32:
        case CT::SInt32:
        case CT::UInt32: return true;
        default: return false;  // not in the list above
    }
}

// Granularities the layouts accept (checked below for the subgroup size): subgroup scope 16x16x16
// (columns spread over up to 16 invocations, row groups beyond that); workgroup scope 32x16x16 with
// 128 invocations and 32x32x16 with 256 (one accumulator band per subgroup, A and B in its bands or
// striped).
struct FlexibleShape {
    uint32_t m, n, k, invocations;
};
constexpr FlexibleShape kFlexibleShapes[] = {{16, 16, 16, 0}, {32, 16, 16, 128}, {32, 32, 16, 256}};

}  // namespace

std::vector<FlexibleConfiguration> flexible_configurations(uint32_t subgroup_size, uint32_t max_workgroup_invocations,
                                                           const ArithmeticSupport& support) {
    struct Types {
        CT a, b, c, result;
    };
    std::vector<Types> types;
    if (support.float16) types.insert(types.end(), {{CT::Float16, CT::Float16, CT::Float32, CT::Float32},
                                                    {CT::Float16, CT::Float16, CT::Float16, CT::Float16}});
    if (support.bfloat16) types.push_back({CT::BFloat16, CT::BFloat16, CT::Float32, CT::Float32});
    std::vector<FlexibleConfiguration> offered;
    for (const FlexibleShape& shape : kFlexibleShapes) {
        if (shape.invocations > max_workgroup_invocations) continue;
        const bool fits = shape.invocations == 0
                              ? cooperative_matrix_shape_supported(shape.m, shape.n, 2, subgroup_size)
                              : shape.invocations % subgroup_size == 0 && (shape.m * shape.k) % shape.invocations == 0 &&
                                    (shape.k * shape.n) % shape.invocations == 0 &&
                                    cooperative_matrix::accumulator_bands(shape.m, shape.n, shape.invocations, subgroup_size);
        if (!fits) continue;
        for (const Types& t : types) {
            offered.push_back({shape.m, shape.n, shape.k, t.a, t.b, t.c, t.result, false, shape.invocations});
        }
    }
    return offered;
}

std::string_view to_string(ComponentType type) {
    switch (type) {
        case CT::Float16: return "float16";
        case CT::Float32: return "float32";
        case CT::BFloat16: return "bfloat16";
        case CT::Float8E4M3: return "float8_e4m3";
        case CT::Float8E5M2: return "float8_e5m2";
        case CT::SInt8: return "sint8";
        case CT::UInt8: return "uint8";
        case CT::SInt16: return "sint16";
        case CT::UInt16: return "uint16";
        case CT::SInt32: return "sint32";
        case CT::UInt32: return "uint32";
    }
    return "unknown";
}

bool cooperative_matrix_shape_supported(uint32_t rows, uint32_t columns, uint32_t use, uint32_t subgroup_size) {
    return use <= 2 && cooperative_matrix::lane_layout(rows, columns, static_cast<cooperative_matrix::Use>(use),
                                                       subgroup_size).has_value();
}

std::vector<CooperativeMatrixConfiguration> cooperative_matrix_configurations(uint32_t subgroup_size,
                                                                              const ArithmeticSupport& support) {
    std::vector<CooperativeMatrixConfiguration> offered;
    for (const CooperativeMatrixConfiguration& c : kConfigurations) {
        if (!computable(c.a, support) || !computable(c.b, support) || !computable(c.c, support)) continue;
        if (!cooperative_matrix_shape_supported(c.m, c.k, 0, subgroup_size) ||
            !cooperative_matrix_shape_supported(c.k, c.n, 1, subgroup_size) ||
            !cooperative_matrix_shape_supported(c.m, c.n, 2, subgroup_size)) {
            continue;
        }
        offered.push_back(c);
    }
    return offered;
}

}  // namespace vkpolyfill::lowering
