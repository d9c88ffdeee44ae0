// One GEMM problem: C (f32, M x N) = A (f16, M x K) * B (f16, K x N), all row-major, with seeded
// random inputs, and the check of a device result against a CPU reference on sampled elements.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace vkpolyfill::bench {

struct GemmShape {
    uint32_t m = 0, n = 0, k = 0;
    double flops() const { return 2.0 * m * n * k; }
    std::string name() const;  // "1024x1024x1024"
};

struct GemmInputs {
    GemmShape shape;
    std::vector<uint16_t> a, b;  // f16 bits, uniform in [-1, 1]
};

GemmInputs make_inputs(const GemmShape& shape, uint32_t seed);

struct Verification {
    size_t checked = 0;
    size_t failed = 0;
    double worst = 0;     // largest |device - reference| / allowed error seen (<= 1 passes)
    std::string failure;  // the first failing element, described
    bool ok() const { return checked > 0 && failed == 0; }
};

// VK-GL-CTS's relative tolerance for f16 products accumulated over a large K.
inline constexpr double kRelativeTolerance = 3.0 / 1024.0;

// Compares a full row, a full column and random elements of `c` against the CPU reference (f16
// products accumulated in f32). The allowed error is kRelativeTolerance times the sum of
// |a_ik * b_kj|, which bounds any summation order's rounding, not |c_ij|, which cancels.
Verification verify(const GemmInputs& inputs, std::span<const float> c);

}  // namespace vkpolyfill::bench
