// The fixed list of configurations the lowering offers, filtered per device.
#include <array>

#include "passes/cooperative_matrix/lane_layout.h"
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

}  // namespace

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
